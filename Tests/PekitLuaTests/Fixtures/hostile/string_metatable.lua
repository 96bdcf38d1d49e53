-- expect: string_metatable.lua:2: attempt to index a nil value
getmetatable("").__index = function() error("owned") end
return { kind = "policy" }
