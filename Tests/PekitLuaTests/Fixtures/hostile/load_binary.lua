-- expect: load_binary.lua:3: undefined global 'load'
-- sandbox: load_binary.lua:3: attempt to call a nil value (global 'load')
local f = load("\27Lua\84\0", "x", "b")
return { kind = "policy" }
