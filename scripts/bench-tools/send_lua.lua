-- N sequential GET requests over one kept-alive connection, from a Lua loop.
-- Prints JSON: the count, the bytes received, the seconds from the first request to the last
-- answer, and each request's time (curl's total, seconds).
local url, n = arg[1], tonumber(arg[2]) or 10000
local times, bytes = {}, 0
local t0 = pekit.time.now()
for i = 1, n do
  local r = pekit.http.get(url)
  if r.status ~= 200 then error("status " .. r.status) end
  bytes = bytes + #r.body
  times[i] = r.timing.total
end
local elapsed = pekit.time.now() - t0
print(string.format('{"requests":%d,"bytes":%d,"elapsed":%.6f,"times":[%s]}', n, bytes, elapsed, table.concat(times, ",")))
