-- Signed requests: AWS Signature V4 and OAuth 1.0a, sent to the local server, which checks each
-- signature as AWS and an OAuth provider do. With EXPLAIN=1 it also prints what was signed.
-- Run it with:  scripts/run scripts/examples/signed.lua   (starts the local demo server)
local base = os.getenv("PEKIT_DEMO_URL") or error("run me with scripts/run, which starts the local demo server")
local explain = os.getenv("EXPLAIN") == "1"

-- AWS: the keys of AWS's own documentation examples; the server knows them.
local aws = { access_key = "AKIDEXAMPLE", secret_key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
              region = "eu-west-1", service = "execute-api", time = pekit.time.parse("2026-11-30T12:00:00Z"), explain = true }
local req = pekit.request{ method = "POST", url = base .. "/aws/prod/orders", params = { dry = "true" }, json = { item = "小A", n = 2 } }
local signed, why = pekit.sign.aws_sigv4(req, aws)
print("SigV4   " .. signed:header("Authorization"):match("^(AWS4%-HMAC%-SHA256 Credential=[^,]+)") .. " → " .. signed:send().status)
if explain then print(why.canonical_request .. "\n\n" .. why.string_to_sign .. "\n") end

-- A presigned S3 URL, valid for a minute: anyone with the URL can fetch the object.
local url = pekit.sign.aws_sigv4(pekit.request{ url = base .. "/aws/bucket/report.csv" },
  { access_key = aws.access_key, secret_key = aws.secret_key, region = "eu-west-1", service = "s3", sign_in = "query", expires = 60 }).url
print("presign " .. url:match("X%-Amz%-Expires=%d+") .. "  → " .. pekit.http.get(url).status)

-- OAuth 1.0a (HMAC-SHA1), as a Twitter-style API wants it; the form body is part of the signature.
local oauth = { consumer_key = "pekit-consumer", consumer_secret = "consumer secret", token = "pekit-token", token_secret = "token secret" }
local post = pekit.request{ method = "POST", url = base .. "/oauth1/statuses/update", form = { status = "Hello Ladies + Gentlemen, a signed OAuth request!" } }
local signed_post, base_string = pekit.sign.oauth1(post, { consumer_key = oauth.consumer_key, consumer_secret = oauth.consumer_secret,
  token = oauth.token, token_secret = oauth.token_secret, explain = true })
print("OAuth1  " .. signed_post:header("Authorization"):match('oauth_signature_method="[^"]+"') .. " → " .. signed_post:send().status)
if explain then print(base_string.base_string) end

-- Or on the request itself: signed again on every redirect hop to the same origin.
local r = pekit.request{ url = base .. "/redirect/302?to=/aws/after-redirect",
                         sign = { "aws-sigv4", access_key = aws.access_key, secret_key = aws.secret_key, region = "eu-west-1", service = "execute-api" } }:send()
print("sign =  " .. #r.redirects .. " redirect, then → " .. r.status)
