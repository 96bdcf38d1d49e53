-- expect: memory_results.lua:4: pekit.encode: not enough memory (the limit is 16 MB)
-- sandbox: skip
local kept = {}
for i = 1, 40 do kept[i] = pekit.encode(("\0"):rep(1 << 20) .. i) end
return { kind = "policy" }
