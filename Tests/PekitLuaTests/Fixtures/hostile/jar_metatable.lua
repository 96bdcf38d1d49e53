-- expect: jar_metatable.lua:2: attempt to index a nil value (field '__index')
getmetatable(pekit.cookies.jar{ public_suffixes = false }).__index.header = function() return "sid=attacker" end
return { kind = "policy" }
