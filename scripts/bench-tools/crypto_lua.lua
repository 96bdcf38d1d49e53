-- pekit.crypto throughput on 1 MB and a SigV4-signed request from Lua (medians of 5 runs).
local function median(fn)
  fn(); local t = {}
  for i = 1, 5 do local s = os.clock(); fn(); t[i] = os.clock() - s end
  table.sort(t); return t[3]
end
local mb = string.rep("pekit benchmark ", 65536)  -- 1 MiB
local n = 200
local sha = median(function() for _ = 1, n do pekit.crypto.sha256(mb) end end)
local mac = median(function() for _ = 1, n do pekit.crypto.hmac("sha256", "key", mb) end end)
local keys = { access_key = "AKIDEXAMPLE", secret_key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region = "us-east-1", service = "iam", time = 1764504000 }
local m = 20000
local sign = median(function()
  for _ = 1, m do pekit.sign.aws_sigv4(pekit.request{ url = "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08" }, keys) end
end)
print(string.format('{"impl":"pekit-lua","sha256_mbps":%.1f,"hmac_mbps":%.1f,"sigv4_us":%.2f}', n / sha, n / mac, sign / m * 1e6))
