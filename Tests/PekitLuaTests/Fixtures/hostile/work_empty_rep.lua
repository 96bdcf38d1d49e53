-- expect: work_empty_rep.lua:4: instruction budget exceeded (an endless loop?)
-- sandbox: skip
-- An empty string repeated a billion times makes nothing, but loops a billion times.
local s = string.rep("", 1e9)
return { kind = "policy" }
