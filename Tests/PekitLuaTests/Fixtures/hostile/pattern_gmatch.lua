-- expect: pattern_gmatch.lua:4: instruction budget exceeded (an endless loop?)
-- sandbox: skip
local s = ("a"):rep(20000)
for m in s:gmatch(("a?"):rep(30) .. "b") do end
return { kind = "policy" }
