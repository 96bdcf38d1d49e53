-- expect: pattern_find.lua:4: instruction budget exceeded (an endless loop?)
-- sandbox: skip
local s = ("a"):rep(20000)
local found = s:find(("a*"):rep(20) .. "b")
return { kind = "policy", description = tostring(found) }
