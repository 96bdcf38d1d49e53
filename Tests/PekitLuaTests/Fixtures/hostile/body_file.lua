-- expect: body_file.lua:2: pekit.request: field "body_file": not allowed in a plugin (it reads or writes files)
local r = pekit.request{ url = "http://127.0.0.1:9/", method = "POST", body_file = "/etc/passwd" }
return { kind = "policy", description = tostring(#r.body) }
