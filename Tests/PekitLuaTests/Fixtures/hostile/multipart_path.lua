-- expect: multipart_path.lua:2: pekit.request: multipart[1].path: not allowed in a plugin (it reads or writes files)
local r = pekit.request{ url = "http://127.0.0.1:9/", method = "POST", multipart = { { name = "f", path = "/etc/passwd" } } }
return { kind = "policy", description = tostring(#r.body) }
