-- expect: collectgarbage_stop.lua:3: undefined global 'collectgarbage'
-- sandbox: collectgarbage_stop.lua:3: attempt to call a nil value (global 'collectgarbage')
collectgarbage("stop")
return { kind = "policy" }
