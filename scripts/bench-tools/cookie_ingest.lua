-- Cookie ingest from Lua: N cookies received, 10 Set-Cookie values a domain, each with Path,
-- Domain, Max-Age, Secure, HttpOnly and SameSite: the values and URLs cookies_peer.py gives
-- Python's extract_cookies. Prints µs a cookie as JSON. Usage: pekit run cookie_ingest.lua N
-- (PEKIT_BENCH_SKIP=1: the values made, none received; under callgrind, the difference between
-- the two runs is what receiving costs.)
local n = tonumber(arg[1] or "1000")
local jar = pekit.cookies.jar{ public_suffixes = true }
local batches = {}
for d = 0, n // 10 - 1 do
  local values = {}
  for c = 0, 9 do
    values[c + 1] = ("c%d=value%d_%d; Path=/app; Domain=site%d.example.com; Max-Age=86400; Secure; HttpOnly; SameSite=Lax"):format(c, d, c, d)
  end
  batches[#batches + 1] = { ("https://www.site%d.example.com/app/page"):format(d), values }
end
local start = os.clock()
if os.getenv("PEKIT_BENCH_SKIP") == nil then
  for _, b in ipairs(batches) do jar:receive(b[1], b[2]) end
end
local seconds = os.clock() - start
print(('{"cookies": %d, "us_per_cookie": %.2f, "kept": %d}'):format(n, seconds / n * 1e6, #jar))
