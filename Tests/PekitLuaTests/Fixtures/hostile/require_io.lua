-- expect: require_io.lua:3: undefined global 'require'
-- sandbox: require_io.lua:3: attempt to call a nil value (global 'require')
local io = require("io")
return { kind = "policy" }
