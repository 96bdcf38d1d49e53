-- expect: not enough memory (the limit is 16 MB)
-- sandbox: skip
local t = {}
for i = 1, 1e9 do t[i] = i end
return { kind = "policy" }
