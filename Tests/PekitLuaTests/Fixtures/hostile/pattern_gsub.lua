-- expect: pattern_gsub.lua:4: instruction budget exceeded (an endless loop?)
-- sandbox: skip
local s = ("a"):rep(20000)
local out = string.gsub(s, "(a-)(a-)(a-)(a-)b", "x")
return { kind = "policy", description = out }
