-- expect: plugins_load.lua:3: pekit.plugins.load: not allowed in a plugin (it loads plugin files)
-- sandbox: ok
local other = pekit.plugins.load("rfc3986")
return { kind = "policy" }
