-- expect: package_loaded.lua:3: undefined global 'package'
-- sandbox: package_loaded.lua:3: attempt to index a nil value (global 'package')
local io = package.loaded.io
return { kind = "policy" }
