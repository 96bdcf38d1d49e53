-- expect: request_metatable.lua:2: attempt to index a nil value (field '__methods')
getmetatable(pekit.request{ url = "http://h/" }).__methods.raw = function() return "GET /evil" end
return { kind = "policy" }
