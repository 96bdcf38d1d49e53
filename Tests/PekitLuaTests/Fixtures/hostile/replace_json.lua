-- expect: ok
-- The plugin has its own pekit: replacing its functions changes nothing outside it.
pekit.json.encode = function() return "pwned" end
pekit.encode = nil
rawset(pekit, "query", nil)
return { kind = "policy" }
