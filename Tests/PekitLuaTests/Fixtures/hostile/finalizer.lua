-- expect: finalizer.lua:2: setmetatable: __gc is not allowed in a plugin (a finalizer cannot be stopped)
setmetatable({}, { __gc = function() while true do end end })
return { kind = "policy" }
