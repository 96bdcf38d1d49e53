-- N sequential GET requests over one kept-alive connection, from a Lua loop.
-- Prints JSON: the count, the bytes received and each request's time (curl's total, seconds).
local url, n = arg[1], tonumber(arg[2]) or 10000
local times, bytes = {}, 0
for i = 1, n do
  local r = pekit.http.get(url)
  if r.status ~= 200 then error("status " .. r.status) end
  bytes = bytes + #r.body
  times[i] = r.timing.total
end
print(string.format('{"requests":%d,"bytes":%d,"times":[%s]}', n, bytes, table.concat(times, ",")))
