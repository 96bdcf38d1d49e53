-- expect: globals_metatable.lua:4: instruction budget exceeded (an endless loop?)
-- sandbox: skip
setmetatable(_G, { __index = function() while true do end end })
return { kind = "policy", allowed = undefined_name }
