-- expect: io_open.lua:3: undefined global 'io'
-- sandbox: io_open.lua:3: attempt to index a nil value (global 'io')
local f = io.open("/etc/passwd")
return { kind = "policy" }
