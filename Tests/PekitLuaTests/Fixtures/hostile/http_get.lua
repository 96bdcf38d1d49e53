-- expect: http_get.lua:2: pekit.http.get: not allowed in a plugin (it sends over the network)
pekit.http.get("http://127.0.0.1:9/")
return { kind = "policy" }
