-- expect: not enough memory (the limit is 16 MB)
-- sandbox: skip
local function f(n) return f(n + 1) + 1 end
f(1)
return { kind = "policy" }
