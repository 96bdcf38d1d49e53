-- expect: os_getenv.lua:2: attempt to call a nil value (field 'getenv')
local home = os.getenv("HOME")
return { kind = "policy" }
