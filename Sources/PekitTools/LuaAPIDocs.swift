import PekitCore
import PekitLua

/// The Lua API's reference: one entry per row of docs/reference/lua-api.md, which is made from
/// it (`pekit help --lua-api` prints the page; a test holds the file to it), and what the REPL's
/// `:help NAME` and `help(value)` show. Each example runs in a test and gives `result`.
public struct LuaAPIDoc: Sendable {
    /// The names `:help` finds the entry by (`pekit.query.encode`, `jar:receive`).
    public let names: [String]
    /// The call, as the reference's first column writes it (Markdown).
    public let call: String
    /// What it returns and does, as the reference's second column writes it (Markdown).
    public let returns: String
    /// A line to type at the REPL, and what it prints (nil where it needs a server or files).
    public let example: String?
    public let result: String?

    public static let all: [LuaAPIDoc] = [
        .init(names: ["pekit.encode"], call: "`pekit.encode(s [, policy])`",
              returns: "`s` percent-encoded; `policy` is a policy name, a charset, or an options table `{policy=, allowed=, space=, lower=, keep_escapes=}` (any policy field)",
              example: "pekit.encode(\"a b&c\", \"form\")", result: "\"a+b%26c\""),
        .init(names: ["pekit.decode"], call: "`pekit.decode(s [, options])`",
              returns: "decoded bytes; options `{plus=, strict=, utf8=, unicode_escapes=}`, or a policy name (`\"form\"` decodes `+` as space)",
              example: "pekit.decode(\"a%20b+c\", \"form\")", result: "\"a b c\""),
        .init(names: ["pekit.charset"], call: "`pekit.charset.NAME`, `pekit.charset(\"chars\")`",
              returns: "allowed sets; `a + b`, `a - b` (either may be a string of characters), `~a`, `a == b`, `a:contains(s)`, `a:chars()`, `tostring(a)`",
              example: "pekit.charset.unreserved:contains(\"~\")", result: "true"),
        .init(names: ["pekit.query.encode"], call: "`pekit.query.encode(t [, policy])`",
              returns: "the query string of nested parameters `t` (a table, `pekit.ordered{…}`, or a list of `{key, value}` pairs); `policy` is a name or a table of policy fields (`{policy = \"qs\", arrays = \"brackets\"}`)",
              example: "pekit.query.encode({user = {name = \"ada\", tags = {\"x\", \"y\"}}}, \"rack\")", result: "\"user[name]=ada&user[tags][]=x&user[tags][]=y\""),
        .init(names: ["pekit.query.pairs"], call: "`pekit.query.pairs(t [, policy])`",
              returns: "the flattened `{key, value}` pairs before encoding (`value` is `pekit.null` for a key alone)",
              example: "pekit.query.pairs({a = {1, 2}}, \"php\")[2][1]", result: "\"a[1]\""),
        .init(names: ["pekit.query.decode"], call: "`pekit.query.decode(s [, server])`",
              returns: "what a real server reads from `s` (a query, `?…`, or a whole URL: its query part is read). `server` is a model name (\(QueryServer.names.map { "`\"\($0)\"`" }.joined(separator: ", "))), a policy name (qs reading what that policy writes), or a table `{server = NAME, <that server's options under its own names>}` (see \"Server models\"). Maps keep the server's key order (`pekit.ordered` tables; `ordered = false` in the table gives plain ones). `go` also returns Go's error text (or nil); a model raises where its server raises",
              example: "pekit.query.decode(\"a[]=1&a[]=2&b=x\", \"php\").a[2]", result: "\"2\""),
        .init(names: ["pekit.query.compare"], call: "`pekit.query.compare(t, {\"afnetworking\", \"php\", …})`",
              returns: "per policy: `policy`, `query`, `pairs`, `differs` (per pair: the first policy sends no such pair, compared as a server receives them, in any order), `reordered` (the first policy's pairs, in another order) and `missing` (the first policy's pairs this one does not send)",
              example: "pekit.query.compare({a = {1, 2}}, {\"php\", \"rack\"})[2].query", result: "\"a[]=1&a[]=2\""),
        .init(names: ["pekit.query.check"], call: "`pekit.query.check(t, policy [, server])`",
              returns: "`t` encoded with `policy` and read back by `server` (a name or options table as for `decode`; default `qs`): the problems `{path=, status=, problem=}` (status `changed-type`, `changed`, `lost`, `extra` or `error`), the query string, and every value's report (status `exact` too)",
              example: "pekit.query.check({n = 1}, \"form\", \"rack\")[1].status", result: "\"changed-type\""),
        .init(names: ["pekit.json.decode", "pekit.json.encode", "pekit.json.query", "pekit.json"], call: "`pekit.json.decode(s)`, `pekit.json.encode(v [, {pretty = true}])`, `pekit.json.query(v_or_text, path)`",
              returns: "JSON with key order kept (objects are `pekit.ordered` tables); `pretty` indents two spaces a level, as `JSON.stringify(v, null, 2)`; `query` gives the list of values a JSONPath selects, as RFC 9535 defines it (`$.items[?@.price < 10].name`, wildcards, slices, `..`, `length`/`count`/`match`/`search`/`value`), a bad path an error naming its offset",
              example: "pekit.json.encode(pekit.json.decode('{\"b\": 1, \"a\": [true, null]}'))", result: "\"{\\\"b\\\":1,\\\"a\\\":[true,null]}\""),
        .init(names: ["pekit.json.is_singular"], call: "`pekit.json.is_singular(path)`",
              returns: "whether the JSONPath is a singular query (RFC 9535 §2.3.5.1: names and indexes only, no wildcard, slice, filter or `..`): it selects at most one node, where any other query selects a node list, even of one node (`expect(r):json` compares the one node, or the list); a bad path an error naming its offset",
              example: "pekit.json.is_singular(\"$.a[*]\")", result: "false"),
        .init(names: ["pekit.regex.match", "pekit.regex.find", "pekit.regex.test", "pekit.regex.replace", "pekit.regex"], call: "`pekit.regex.match(pattern, s)`, `.find(pattern, s)`, `.test(pattern, s)`, `.replace(pattern, s, with)`",
              returns: "regular expressions as Perl, PCRE, Rust and Hurl write them (`\\d`, `(?:…)`, `(?<name>…)`, lazy `*?`; Lua's patterns are another language), read by Swift's own engine: `match` the groups of the first match (false for a group that took no part) or the whole match when there is no group, or nil; `find` its start and end (byte offsets, 1-based) and the groups; `test` whether it matches; `replace` every match replaced (`$1`, `${name}`, `$$` in `with`) and the count; a bad pattern is an error naming it",
              example: "pekit.regex.match(\"(\\\\d+)-(\\\\d+)\", \"pages 10-12\")", result: "\"10\"\t\"12\""),
        .init(names: ["pekit.text.decode", "pekit.text"], call: "`pekit.text.decode(bytes, charset)`",
              returns: "text in a charset (an IANA name as Content-Type gives it: gb2312, windows-1256, shift_jis, iso-8859-1…) as UTF-8, by the C library's iconv; an unknown charset, or bytes that are not text in it (the offset named), are an error",
              example: "pekit.text.decode(\"caf\\233\", \"iso-8859-1\")", result: "\"café\""),
        .init(names: ["pekit.xml.xpath", "pekit.xml"], call: "`pekit.xml.xpath(document, expression [, {html = true}])`",
              returns: "XPath 1.0 over an XML document (or HTML with `html = true`; UTF-8 text, as `r:text()` gives a body), by Debian's libxml2, loaded the first time: a node set is a `pekit.array` of the nodes' string values, a string, number or boolean result is itself; an XML document's namespace prefixes are registered, its default namespace as `_`; a document libxml2 cannot read or a bad expression is an error naming it",
              example: "pekit.xml.xpath(\"<a><p>x</p><p>y</p></a>\", \"count(//p)\")", result: "2.0"),
        .init(names: ["pekit.url.parse", "pekit.url"], call: "`pekit.url.parse(input [, base])`",
              returns: "a URL as the WHATWG URL Standard (and browsers, node) parse it, or nil and the reason with its offset: `href`, `origin`, `protocol`, `username`, `password`, `host`, `hostname`, `port`, `pathname`, `search`, `hash` (strings), each settable with the Standard's setter rules (`u.host = \"例子.中国:81\"` sets the port too; a value a component cannot take leaves it, as in browsers; a bad `href` is an error); `u.query` reads and sets the query as `{{name, value}, …}` (the form parser's pairs, repeats kept; set it to pairs or to parameters the default policy flattens); `tostring(u)` and `..` give `href`, `==` compares hrefs; `u:resolve(ref)`, `u:copy()`, `u:fields()` (a plain table). A URL value goes wherever a URL string does (`pekit.request{url = u}`, `pekit.http.get(u)`, a base)",
              example: "pekit.url.parse(\"HTTP://例子.中国/a b?q=1\").href", result: "\"http://xn--fsqu00a.xn--fiqs8s/a%20b?q=1\""),
        .init(names: ["pekit.url.build"], call: "`pekit.url.build{scheme=, username=, password=, host=, port=, path=, query=, policy=, fragment=}`",
              returns: "a URL from its parts, each encoded for its place: `host` in Unicode or ASCII (IPv6 with or without brackets), `path` text or a list of segments each encoded whole (`{\"a/b\"}` is `/a%2Fb`), `query` text or parameters encoded with `policy`; an error names the part that makes no URL",
              example: "tostring(pekit.url.build{scheme = \"https\", host = \"h\", path = {\"a/b\"}, query = {q = \"x y\"}})", result: "\"https://h/a%2Fb?q=x%20y\""),
        .init(names: ["pekit.url.domain_to_ascii", "pekit.url.domain_to_unicode"], call: "`pekit.url.domain_to_ascii(s)`, `pekit.url.domain_to_unicode(s)`",
              returns: "a host's ASCII (IDNA) and Unicode forms, as node's `url.domainToASCII`/`domainToUnicode` give them (percent-decoded first; IPv4 forms written dotted); nil and the reason (the label and the rule) for a name that is not a host",
              example: "pekit.url.domain_to_ascii(\"www.例子.中国\")", result: "\"www.xn--fsqu00a.xn--fiqs8s\""),
        .init(names: ["pekit.crypto.md5", "pekit.crypto.sha1", "pekit.crypto.sha224", "pekit.crypto.sha256", "pekit.crypto.sha384", "pekit.crypto.sha512", "pekit.crypto"], call: "`pekit.crypto.md5/sha1/sha224/sha256/sha384/sha512(s)`",
              returns: "the raw digest bytes (OpenSSL's libcrypto, loaded on first use)",
              example: "pekit.crypto.hex.encode(pekit.crypto.sha256(\"abc\")):sub(1, 16)", result: "\"ba7816bf8f01cfea\""),
        .init(names: ["pekit.crypto.hmac"], call: "`pekit.crypto.hmac(alg, key, data)`",
              returns: "the raw HMAC (`alg`: `\"sha256\"`, `\"SHA-1\"`, …)",
              example: "pekit.crypto.hex.encode(pekit.crypto.hmac(\"sha256\", \"key\", \"data\")):sub(1, 16)", result: "\"5031fe3d989c6d15\""),
        .init(names: ["pekit.crypto.hash"], call: "`pekit.crypto.hash(alg)`",
              returns: "a streaming digest: `h:update(s)` (returns `h`), `h:final()`",
              example: "pekit.crypto.hex.encode(pekit.crypto.hash(\"md5\"):update(\"a\"):update(\"bc\"):final())", result: "\"900150983cd24fb0d6963f7d28e17f72\""),
        .init(names: ["pekit.crypto.hex", "pekit.crypto.base64", "pekit.crypto.base64url", "pekit.crypto.hex.encode", "pekit.crypto.hex.decode",
                       "pekit.crypto.base64.encode", "pekit.crypto.base64.decode", "pekit.crypto.base64url.encode", "pekit.crypto.base64url.decode"], call: "`pekit.crypto.hex`, `.base64`, `.base64url` `.encode(s)` / `.decode(s)`",
              returns: "RFC 4648; base64url writes no padding and reads it or not; bad input is an error naming the byte",
              example: "pekit.crypto.base64url.encode(\"\\255\\254\")", result: "\"__4\""),
        .init(names: ["pekit.crypto.random", "pekit.crypto.equal"], call: "`pekit.crypto.random(n)`, `pekit.crypto.equal(a, b)`",
              returns: "`n` bytes from OpenSSL's CSPRNG; a comparison in constant time",
              example: "#pekit.crypto.random(16), pekit.crypto.equal(\"a\", \"a\")", result: "16\ttrue"),
        .init(names: ["pekit.histogram", "histogram:record", "histogram:record_corrected", "histogram:percentile", "histogram:merge", "histogram:distribution",
                       "histogram:count", "histogram:min", "histogram:max", "histogram:mean", "histogram:stddev", "histogram:reset"],
              call: "`pekit.histogram{lowest = 1, highest = 3600e6, digits = 3}`",
              returns: "HdrHistogram's recorder (what `pekit load` keeps): every value from `lowest` to `highest` (whole numbers; microseconds by convention) kept to `digits` significant digits. `h:record(v [, times])`, `h:record_corrected(v, expected_interval)` (also the values a sender on that schedule missed while it waited: coordinated omission), `h:percentile(p)` (p from 0 to 100), `h:count()`, `h:min()`, `h:max()`, `h:mean()`, `h:stddev()`, `h:merge(other)`, `h:reset()`, `h:distribution([ticks])` (HdrHistogram's percentile rows `{value=, percentile=, count=}`); a value out of range is an error naming the range",
              example: "(function() local h = pekit.histogram() h:record(1000, 10000) h:record_corrected(100e6, 10000) return h:percentile(50), h:percentile(90) end)()", result: "1000\t80019455"),
        .init(names: ["pekit.time.now", "pekit.time.format", "pekit.time.parse", "pekit.time.sleep", "pekit.time"], call: "`pekit.time.now()`, `.format(t [, fmt])`, `.parse(s [, fmt])`, `.sleep(seconds)`",
              returns: "Unix seconds; `fmt` `\"iso8601\"` (default; parse takes offsets), `\"iso8601-basic\"` (SigV4's `20261130T120000Z`; parse takes offsets, `+0200`), `\"http\"` (IMF-fixdate; parse also RFC 850 and asctime); `sleep` stops at Ctrl-C, and in a task lets the other tasks run",
              example: "pekit.time.format(0, \"http\")", result: "\"Thu, 01 Jan 1970 00:00:00 GMT\""),
        .init(names: ["pekit.sign.aws_sigv4", "pekit.sign"], call: "`pekit.sign.aws_sigv4(req, {access_key=, secret_key=, session_token=, region=, service=, time=, payload=\"hash\"\\|\"unsigned\", sign_in=\"header\"\\|\"query\", expires=, explain=})`",
              returns: "signs `req` in place as botocore does (S3's path and payload rules included) and returns it; `explain = true` also returns `{canonical_request=, string_to_sign=, signature=}`",
              example: "pekit.sign.aws_sigv4(pekit.request{url = \"https://iam.amazonaws.com/?Action=ListUsers\"}, {access_key = \"AK\", secret_key = \"SK\", region = \"us-east-1\", service = \"iam\", time = 0}):header(\"Authorization\"):sub(1, 44)", result: "\"AWS4-HMAC-SHA256 Credential=AK/19700101/us-e\""),
        .init(names: ["pekit.sign.oauth1"], call: "`pekit.sign.oauth1(req, {consumer_key=, consumer_secret=, rsa_key=, token=, token_secret=, method=\"HMAC-SHA1\"\\|\"HMAC-SHA256\"\\|\"PLAINTEXT\"\\|\"RSA-SHA1\", nonce=, timestamp=, realm=, callback=, verifier=, body_hash=, explain=})`",
              returns: "signs `req` in place as oauthlib does (form bodies signed, other bodies hashed into `oauth_body_hash`)",
              example: "pekit.sign.oauth1(pekit.request{url = \"https://api.example.com/r\"}, {consumer_key = \"ck\", consumer_secret = \"cs\", nonce = \"n\", timestamp = 1}):header(\"Authorization\"):sub(1, 21)", result: "\"OAuth oauth_nonce=\\\"n\\\"\""),
        .init(names: ["pekit.jwt.encode", "pekit.jwt.decode", "pekit.jwt.verify", "pekit.jwt"], call: "`pekit.jwt.encode(claims, key [, {alg=, header=}])`, `decode(token)`, `verify(token, key [, {algs=, leeway=, audience=, issuer=, time=}])`",
              returns: "JWTs as PyJWT writes them (HS256/384/512 with a secret, RS256/384/512 and ES256/384 with PEM keys); `decode` returns two values, the header first and the claims second, unverified (`local header, claims = pekit.jwt.decode(token)`); `verify` returns the claims or fails naming the check (`signature`, `exp`, `nbf`, `iat`, `aud`, `iss`, `alg`, `key`); `none` and a PEM key used as an HMAC secret are always refused",
              example: "pekit.jwt.verify(pekit.jwt.encode({sub = \"ada\"}, \"secret\"), \"secret\").sub", result: "\"ada\""),
        .init(names: ["pekit.cookies.jar", "pekit.cookies"], call: "`pekit.cookies.jar{ filter =, now =, public_suffixes =, file =, as_curl = }`",
              returns: "a cookie jar; `filter` is a plugin name, `{ \"name\", option = … }`, a table of functions (`host`, `accept`, `match`, `rewrite`), or a list of these; `file = PATH` binds it to a file: loaded when it is there (a missing file is an empty jar; one that is not a jar is refused), saved with session cookies, atomically under its lock, on `jar:flush()` and when the script ends; `as_curl = true` keeps cookies as curl's engine (its -b and -c jars): the Cookie header in curl's order and caps (150 cookies, 8,190 bytes), a file's name prefixes matched with their case, no cap of 50 a domain (what `pekit import curl` writes for `-b FILE`)",
              example: "#pekit.cookies.jar{ filter = \"rfc6265\" }", result: "0"),
        .init(names: ["jar:receive"], call: "`jar:receive(url, set_cookie_or_list [, ctx])`",
              returns: "`{stored = {cookies}, rejected = {{name=, reason=, rule=}}, warnings = {{name=, reason=, rule=}}, removed = n, evicted = n}` (`rule`: the storage rule's name, `host-prefix`, `samesite-cross-site`…, as docs/cookies.md lists them; a warning is what was ignored in a stored cookie, `attribute-too-long`); `ctx` is the response's context, as `jar:header` takes it: a cross-site one that is not a top-level navigation (whatever its method) cannot set a SameSite=Lax or Strict cookie, `http_only = false` is a non-HTTP API, `top_level = url` the top-level page a `Partitioned` cookie is kept under (CHIPS: its site, `partition_key`); the tables in `stored` are made when the list is first read, by any means, so a script that never reads it does not pay for them",
              example: "#pekit.cookies.jar():receive(\"https://example.com/\", \"sid=1; Secure\").stored", result: "1"),
        .init(names: ["jar:header"], call: "`jar:header(url [, {http_only=, same_site=\"same-site\"\\|\"cross-site-navigation\"\\|\"cross-site\", site_for_cookies=url, navigation=, method=, top_level=url}])`",
              returns: "the Cookie header, or nil; the context (`ctx` elsewhere): `http_only = false` for a script's access, and the site either given (`same_site`) or judged for the URL from the page the request is for (`site_for_cookies`, RFC 6265bis §5.2): same-site when they share a scheme and registrable domain, else a cross-site top-level navigation (`navigation = true`, which sends Lax cookies only with a safe `method`, GET by default), else cross-site",
              example: "local j = pekit.cookies.jar() j:receive(\"https://example.com/\", \"sid=1; Secure\") return j:header(\"https://example.com/a\")", result: "\"sid=1\""),
        .init(names: ["jar:cookies", "jar:all", "jar:set", "jar:delete", "jar:clear", "jar:expire", "jar:clock"], call: "`jar:cookies(url [, ctx])`, `jar:all()`, `jar:set{…}`, `jar:delete(url [, name])`, `jar:clear()`, `jar:expire()`, `jar:clock([t])`, `#jar`",
              returns: "the cookies sent to a URL / all of them; add one; delete those sent to a URL (returns the count); remove all / expired ones; read or fix the clock",
              example: "local j = pekit.cookies.jar() j:receive(\"https://example.com/\", {\"a=1\", \"b=2; Path=/x\"}) return #j:cookies(\"https://example.com/\"), #j:all()", result: "1\t2"),
        .init(names: ["jar:explain"], call: "`jar:explain(url [, ctx])`",
              returns: "for every cookie: `{cookie=, sent=, reason=, rule=}`; `rule` names what decided: `sent`, `expired`, `partition`, `host-only`, `domain-mismatch`, `path-mismatch`, `filter`, `secure-only`, `httponly`, `samesite-strict`, `samesite-lax`",
              example: "local j = pekit.cookies.jar() j:receive(\"https://example.com/\", \"a=1; Path=/x\") return j:explain(\"https://example.com/\")[1].reason", result: "\"path: / does not path-match /x\""),
        .init(names: ["jar:save", "jar:load", "jar:flush"], call: "`jar:save(path [, {format = \"netscape\"\\|\"json\", sessions = bool, force = bool}])`, `jar:load(path [, {missing_ok = true}])`, `jar:flush()`",
              returns: "save and flush merge: under the file's lock the file is read again and this jar's own changes since it was loaded or last saved (stores, replacements, deletions) are applied to it, then it is written atomically (a fresh temporary file renamed into place), so processes sharing a jar keep each other's cookies; a jar with no changes writes nothing; session cookies are kept unless `sessions = false` (as curl's -c); a file that is not a jar is not replaced unless `force`; load returns the count and the warnings for skipped lines (`missing_ok`: a missing file loads nothing); flush saves a jar bound to a file (as the end of the script does, when it changed)",
              example: nil, result: nil),
        .init(names: ["pekit.cookies.parse"], call: "`pekit.cookies.parse(set_cookie)`",
              returns: "the attributes of one Set-Cookie value as RFC 6265bis §5.6 reads them (a pair with no `=` has an empty name), or nil when its name and value are both empty",
              example: "pekit.cookies.parse(\"sid=1; Path=/; HttpOnly; SameSite=Lax\").same_site", result: "\"Lax\""),
        .init(names: ["pekit.request", "req:raw", "req:curl", "req:json", "req:header", "req:write_body"], call: "`pekit.request{ method=, keep_method_case=, url=, url_as_curl=, path_as_is=, base=, params=, policy=, params_in=, methods_in_query=, headers=, json=, form=, body=, body_file=, upload=, content_type=, multipart=, boundary=, auth=, jar=, connect=, sign=, target=, compressed=, user_agent=, referer=, range=, cookie=, same_site=, site_for_cookies=, navigation=, top_level= }`",
              returns: "a request: its fields are curl's in curl's order (see \"Requests\"); `headers` is a table of names, a `pekit.ordered` table or a list of `{name, value}` pairs and whole lines (`\"X-A:1\"`, sent as written), repeats kept, `false` removing a default; `user_agent = \"…\"` or `false`, `referer =`, `range = \"100-200\"` (`Range: bytes=…` after the credentials, as curl's -r), `cookie = \"a=1\"` (after the jar's), the jar's context as `jar:header` takes it (`same_site`, `site_for_cookies`, `navigation`, `top_level`: for the Cookie field it previews, and for every hop it is sent on), `compressed = true` (Accept-Encoding, the body decoded), `upload = true` (the body sent as curl -T uploads it: no Content-Type, `Expect: 100-continue` whatever its size). `req.method`, `req.url` (the final string, as it goes on the wire: see \"Requests\"), `target = \"/raw path\"` sends that request target exactly as given (for testing servers; CR, LF and NUL refused), `req.target`, `req.headers` (a list of `{name, value}`, also `req.headers[\"content-type\"]` in any case), `req:header(name)`, `req.body`, `req:raw()`, `req:curl()`, `req:json()`, `req:write_body(path)` (streamed); `sign = {\"aws-sigv4\", …}` or `{\"oauth1\", …}` (the options of `pekit.sign`) signs it, and every redirect hop to the same origin again (a hop elsewhere carries no signature)",
              example: "pekit.request{url = \"https://h/search\", params = {q = \"a b\"}}.url", result: "\"https://h/search?q=a%20b\""),
        .init(names: ["pekit.http.get", "pekit.http.post", "pekit.http.put", "pekit.http.patch", "pekit.http.delete", "pekit.http.head", "pekit.http"], call: "`pekit.http.get(url [, t])`, `.post`, `.put`, `.patch`, `.delete`, `.head`",
              returns: "sends; `t` holds request fields (`params=`, `json=`, `headers=`, `jar=`, …) and send options together, `retry = {attempts = 3, on = {429, 502, 503, 504, \"connect\", \"timeout\"}, backoff = {base = 0.5, max = 30, jitter = true}, all_methods = false, max_time = S}` (or `retry = true` for those defaults; Retry-After honoured; POST and PATCH only with `all_methods`), polling: `[\"until\"] = function(r) return … end` (`until` is a Lua keyword), `every = 1`, `max_time = 30` sends again until the function returns true, waiting `every` seconds or what Retry-After asks, and fails after `max_time` naming the tries and the last status (the methods `retry` repeats; also `pekit.http.send(req, t)`), `rate = \"10/s\"` (or `/m`, `/h`: requests to each host spaced so, shared by every request naming that rate; `{\"10/s\", per = \"all\"}`: one pace for every host, as for a whole batch), `progress = function(info)` (about five times a second and at the end: `info.downloaded`, `total`, `uploaded`, `upload_total`, `elapsed`)",
              example: nil, result: nil),
        .init(names: ["pekit.http.send", "req:send"], call: "`pekit.http.send(req_or_fields [, options])`, `req:send([options])`",
              returns: "sends a built request (its jar and `connect` included); options below",
              example: nil, result: nil),
        .init(names: ["pekit.http.load"], call: "`pekit.http.load{request = …, check = f, connections = 10, rate = R, duration = S, requests = N, warmup = S, timeout = S}`",
              returns: "a load run, as `pekit load` makes it: `request` is what `pekit.http.all` takes as an item, sent again and again, or a function(n) returning one (nil ends the run); or `scenario = {step, …}`, steps each virtual user sends in turn, each once the one before was answered (an item, or a function(user, previous) of the user's own table and the answer before; nil stops the user); `check(response)` returning false or a message, or raising, counts an answer as an error (without it, a status of 400 or more is one); `rate` sends on a fixed schedule (the open model), else each of `connections` sends when its last answer came. Returns `{requests=, seconds=, rps=, errors={total=, KIND=…}, statuses={[200]=…}, unanswered=, behind=, bytes_received=, messages={{text=, count=}…}, latency=<pekit.histogram>, corrected=<pekit.histogram> (open model), phases={dns=, connect=, tls=, [\"first byte\"]=, total=}}`, latencies in microseconds",
              example: nil, result: nil),
        .init(names: ["pekit.http.all"], call: "`pekit.http.all(list [, options])`",
              returns: "sends every item (a URL, a built request, or a table of request fields and send options as `pekit.http.get`'s `t` with `url=` and `method=`) with at most `concurrency` (default 10) in flight on one thread (libcurl's multi interface, and pekit's plain HTTP/1.1 where it applies); the responses in the order given, a failed one as an error value in its slot (`r.error` the message, `r.url`, `r.method`, `r.code` curl's code; `tostring(r)` the message); `options` are send options for every item plus `concurrency` and `progress = function(info)` (`info.done`, `failed`, `in_flight`, `total`, `elapsed`); items are all checked before anything is sent",
              example: nil, result: nil),
        .init(names: ["pekit.spawn", "pekit.wait", "task.done", "task.failed"], call: "`pekit.spawn(f, ...)`, `pekit.wait(task)`, `pekit.wait({tasks})`, `pekit.wait()`",
              returns: "a task runs `f(...)` as a coroutine; inside it `pekit.http` calls, `pekit.time.sleep` and `pekit.wait` suspend the task instead of blocking, so many tasks' transfers run at once (tasks run inside `pekit.wait` and `pekit.time.sleep`); `wait(task)` returns its results or raises its error, `wait({tasks})` a list of each one's first result (an error value `{error=, traceback=, value=}` for one that failed), `wait()` waits for all; `task.done`, `task.failed`; at the end of `pekit run` the tasks not waited for run to their end, and one that failed unseen fails the run",
              example: "pekit.wait(pekit.spawn(function(a, b) return a + b end, 1, 2))", result: "3"),
        .init(names: ["pekit.har.load", "pekit.har"], call: "`pekit.har.load(path)`",
              returns: "the requests of a HAR 1.2 file (Chrome, Firefox, Safari, Charles, Proxyman exports) as pekit requests, in order, with their recorded headers and bodies (base64 ones decoded; HTTP/2 pseudo-headers left out), and the list of statuses recorded for them; `pekit har list|replay FILE` from the command line",
              example: nil, result: nil),
        .init(names: ["pekit.http.events"], call: "`for ev in pekit.http.events(url [, t]) do … end`",
              returns: "server-sent events as they arrive, each `{type =, data =, id =}` (`id`: the last event ID in force), parsed as the HTML Standard's event-stream algorithm says (CR, LF or CR LF line ends, a BOM, `:` comments, several `data:` lines joined with a line feed, an unfinished event at the end dropped); sent as EventSource sends (`Accept: text/event-stream`, `Cache-Control: no-cache`), and an error unless the answer is a 200 with `Content-Type: text/event-stream`; `t` as `pekit.http.get`'s, and `reconnect = n` opens an ended stream again up to n times after the delay its `retry:` asked (3 s without one), with `Last-Event-ID`; in a task (`pekit.spawn`) waiting lets the other tasks run, so several streams are read at once; leaving the loop stops the transfer (`es:close()` too, `es:last_event_id()` reads the ID)",
              example: nil, result: nil),
        .init(names: ["pekit.http.decode"], call: "`pekit.http.decode(body, content_encoding)`",
              returns: "`body` undone from the codings a Content-Encoding value names (gzip, x-gzip, deflate, br, zstd; identity as it is), the last one first, as libcurl 7.88 reads them: for a body received without `compressed = true` (a hand-written Accept-Encoding); an unknown coding or bytes that do not decode are an error",
              example: "pekit.http.decode(\"abc\", \"identity\")", result: "\"abc\""),
        .init(names: ["pekit.http.curl_version"], call: "`pekit.http.curl_version()`",
              returns: "libcurl's version line (`libcurl/7.88.1 OpenSSL/3.0.19 …`)",
              example: "pekit.http.curl_version():match(\"^libcurl/\") ~= nil", result: "true"),
        .init(names: ["response", "r:header", "r:header_all", "r:json", "r:text"], call: "the response",
              returns: "a table: `status`, `reason`, `http_version`, `headers` (every field in order, `Set-Cookie` each kept; `headers[\"content-type\"]` in any case), `trailers` (fields sent after a chunked body, the same shape; never read for cookies, the status or a redirect), `body` (bytes), `bytes` (received, also with a sink), `url` and `method` (of the final request), `redirects` (`{method=, url=, status=, location=}` per hop), `attempts` (more than 1 after retries), `stopped` (true when a sink function returned false), `timing` (`dns`, `connect`, `tls`, `first_byte`, `total`, seconds), `address`; `r:header(name)`, `r:header_all(name)`, `r:json()`, `r:text()` (the body as UTF-8, converted from the charset its Content-Type names)",
              example: nil, result: nil),
        .init(names: ["pekit.policy.define", "pekit.policy.get", "pekit.policy.list", "pekit.policy"], call: "`pekit.policy.define{…}`, `.get(name)`, `.list()`",
              returns: "define a policy in a script; read one as a table; list every reachable policy",
              example: "pekit.policy.define{name = \"my-api\", extends = \"rfc3986\", space = \"plus\"} return pekit.encode(\"a b\", \"my-api\")", result: "\"a+b\""),
        .init(names: ["pekit.plugins.load", "pekit.plugins.list", "pekit.plugins.reload", "pekit.plugins.path", "pekit.plugins"], call: "`pekit.plugins.load(name)`, `.list()`, `.reload()`, `.path`",
              returns: "a fresh copy of a plugin's table (its functions call into the plugin, under its limits); list plugins (`name`, `kind`, `description`, `file`, `error`); forget loaded ones; the search path (a list you may edit)",
              example: "pekit.plugins.load(\"httpdns\").kind", result: "\"cookie-filter\""),
        .init(names: ["pekit.null", "pekit.ordered", "pekit.set", "pekit.array"], call: "`pekit.null`, `pekit.ordered{ {k, v}, … }`, `pekit.set{…}`, `pekit.array{…}`",
              returns: "values Lua tables cannot say alone: null, key order, sets, empty arrays",
              example: "pekit.query.encode(pekit.ordered{{\"b\", 1}, {\"a\", pekit.array{}}, {\"c\", pekit.null}}, \"qs\")", result: "\"b=1&c=\""),
        .init(names: ["pekit.inspect"], call: "`pekit.inspect(v)`",
              returns: "a readable form of any value (nested, sorted keys, cycles marked)",
              example: "pekit.inspect({b = {1, 2}, a = pekit.null})", result: "\"{ a = pekit.null, b = { 1, 2 } }\""),
        .init(names: ["pekit.version"], call: "`pekit.version`",
              returns: "`\"0.1.0\"`",
              example: "pekit.version", result: "\"0.1.0\""),
    ]

    /// The table of every entry: a call, and what it returns.
    public static var markdownTable: String {
        (["| call | returns |", "|---|---|"] + all.map { "| \($0.call) | \($0.returns) |" }).joined(separator: "\n") + "\n"
    }

    /// docs/reference/lua-api.md: the table, with each example and what it gives (`pekit help
    /// --lua-api` prints it; APIDocsTests runs every example and holds the file to this).
    public static var markdownPage: String {
        var out = """
            # Lua API reference

            <!-- Generated by `pekit help --lua-api` (scripts/docs-generate) from LuaAPIDocs.swift, the reference the REPL's help shows. Do not edit. -->

            Every function a script or the REPL reaches under `pekit` (`require "pekit"` gives the same table). In the REPL,
            `:help NAME` or `help(value)` shows an entry. The guide is [scripting.md](../scripting.md).


            """
        out += markdownTable
        out += "\n## Examples\n\nAs the REPL shows them: each expression after `>`, and its value (APIDocsTests runs every one).\n\n```text\n"
        for doc in all {
            guard let example = doc.example, let result = doc.result else { continue }
            out += "> \(example)\n\(result)\n"
        }
        return out + "```\n"
    }

    /// The modules and other names `:help` knows, for its first screen.
    public static var index: String {
        var seen: [String] = []
        for doc in all {
            for name in doc.names where name.hasPrefix("pekit.") {
                let module = name.split(separator: ".").prefix(2).joined(separator: ".")
                if !seen.contains(module) { seen.append(module) }
            }
        }
        return "help is there for: " + seen.joined(separator: ", ")
            + ",\nand the methods of jars (jar:receive, …), requests (req:raw, …) and responses (r:json, …).\n"
            + ":help NAME or help(value), e.g. :help pekit.query.encode, help(pekit.url.parse), :help jar:receive"
    }

    /// The entries for `name`: the one that names it, or every entry of a module (`pekit.query`).
    public static func lookUp(_ name: String) -> [LuaAPIDoc] {
        let module = all.filter { $0.names.contains { $0.hasPrefix(name + ".") || $0.hasPrefix(name + ":") } }
        if module.count > 1 { return module }
        let exact = all.filter { $0.names.contains(name) }
        return exact.isEmpty ? module : exact
    }

    /// The entry as the terminal shows it: Markdown's backticks and escapes removed.
    public var text: String {
        func plain(_ s: String) -> String { s.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "\\|", with: "|") }
        var out = plain(call) + "\n  " + plain(returns)
        if let example {
            out += "\nexample:\n  > " + example
            if let result { out += "\n  " + result }
        }
        return out
    }
}
