-- pekit.url.parse on every line of a file, reading each URL's href (median of 5 runs, ms).
local path = assert(arg[1], "usage: pekit run url_lua.lua URLS.txt")
local lines = {}
for line in io.lines(path) do lines[#lines + 1] = line end
local parse = pekit.url.parse
local failures, length = 0, 0
local function run()
  failures, length = 0, 0
  for i = 1, #lines do
    local u = parse(lines[i])
    if u then length = length + #u.href else failures = failures + 1 end
  end
end
run()
local t = {}
for i = 1, 5 do local s = os.clock(); run(); t[i] = (os.clock() - s) * 1000; collectgarbage() end
table.sort(t)
print(string.format('{"impl":"pekit-lua","ms":%.2f,"failures":%d,"count":%d}', t[3], failures, #lines))
