-- N GET requests with C in flight at once (pekit.http.all). Prints JSON: the count, the bytes
-- received, the seconds from the first request to the last answer, and each request's time
-- (curl's total, seconds).
local url, n, c = arg[1], tonumber(arg[2]) or 20000, tonumber(arg[3]) or 50
local list = {}
for i = 1, n do list[i] = url end
local t0 = pekit.time.now()
local rs = pekit.http.all(list, { concurrency = c })
local elapsed = pekit.time.now() - t0
local times, bytes = {}, 0
for i, r in ipairs(rs) do
  if r.error then error(r.error) end
  if r.status ~= 200 then error("status " .. r.status) end
  bytes = bytes + #r.body
  times[i] = r.timing.total
end
print(string.format('{"requests":%d,"bytes":%d,"elapsed":%.6f,"times":[%s]}', n, bytes, elapsed, table.concat(times, ",")))
