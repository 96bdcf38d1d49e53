-- Plain Lua work with no call into pekit (arithmetic in a loop), timed inside the script: run by
-- `pekit run` and by `lua5.4`, it shows what the host costs the Lua VM itself. Prints one JSON line.
local n = 30000000
local start = os.clock()
local x = 0
for i = 1, n do x = x + i % 7 end
print(string.format('{"ms":%.1f,"check":%d}', (os.clock() - start) * 1000, x))
