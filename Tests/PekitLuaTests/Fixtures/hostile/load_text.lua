-- expect: load_text.lua:3: undefined global 'load'
-- sandbox: load_text.lua:3: attempt to call a nil value (global 'load')
local f = load("return io")
return { kind = "policy" }
