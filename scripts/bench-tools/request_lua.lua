-- 100,000 GET requests with 20 parameters each, from Lua (the URL read back from each).
local n = tonumber(arg[1]) or 100000
local params = {}
for i = 1, 20 do params["key" .. i] = "value " .. i .. " & 汉字" end
local clock = os.clock
local t = clock()
local total = 0
for i = 1, n do
  local req = pekit.request{ url = "https://api.example.com/v1/items", params = params, policy = "afnetworking" }
  total = total + #req.url
end
local elapsed = clock() - t
print(string.format('{"impl":"pekit-lua","requests":%d,"per_second":%.0f,"url_bytes":%d}', n, n / elapsed, total // n))
