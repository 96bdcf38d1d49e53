-- Cookie ingest from Lua: N cookies received, 10 Set-Cookie values a domain, each with Domain,
-- Path, Max-Age, Secure, HttpOnly and SameSite; prints µs a cookie as JSON. Usage: pekit run cookie_ingest.lua N
local n = tonumber(arg[1] or "1000")
local jar = pekit.cookies.jar{ public_suffixes = true }
local batches = {}
for d = 0, n // 10 - 1 do
  local values = {}
  for i = 1, 10 do
    values[i] = ("c%d=v%d; Domain=site%d.example; Path=/p%d; Max-Age=86400; Secure; HttpOnly; SameSite=Lax"):format(i, d, d, i % 3)
  end
  batches[#batches + 1] = { ("https://www.site%d.example/"):format(d), values }
end
local start = os.clock()
for _, b in ipairs(batches) do jar:receive(b[1], b[2]) end
local seconds = os.clock() - start
print(('{"cookies": %d, "us_per_cookie": %.2f, "kept": %d}'):format(n, seconds / n * 1e6, #jar:all()))
