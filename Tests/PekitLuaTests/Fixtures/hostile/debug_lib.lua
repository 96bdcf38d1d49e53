-- expect: debug_lib.lua:3: undefined global 'debug'
-- sandbox: debug_lib.lua:3: attempt to index a nil value (global 'debug')
debug.sethook()
return { kind = "policy" }
