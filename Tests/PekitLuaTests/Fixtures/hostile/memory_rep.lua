-- expect: not enough memory (the limit is 16 MB)
-- sandbox: skip
local s = ("x"):rep(1 << 30)
return { kind = "policy" }
