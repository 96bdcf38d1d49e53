-- pekit.encode from Lua on one large input (issue 70): the first call of a fresh process, the
-- next four, then the steady state as lua_call.lua measures it (7 runs of 15 calls, each run
-- timed as a whole, the median). Prints one JSON line. Usage: pekit run encode_lua.lua FILE
local f = assert(io.open(arg[1], "rb"))
local input = f:read("a")
f:close()
local mb = #input / 1e6
local function rate(seconds, calls) return mb * (calls or 1) / seconds end
local clock = pekit.time.now
local t
local firsts = {}
for i = 1, 5 do
  t = clock()
  local r = pekit.encode(input)
  firsts[i] = rate(clock() - t)
end
local runs = {}
for i = 1, 7 do
  t = clock()
  for _ = 1, 15 do local r = pekit.encode(input) end
  runs[i] = rate(clock() - t, 15)
end
table.sort(runs)
print(('{"first": %.1f, "second_to_fifth": [%.1f, %.1f, %.1f, %.1f], "sustained": %.1f}'):format(
  firsts[1], firsts[2], firsts[3], firsts[4], firsts[5], runs[4]))
