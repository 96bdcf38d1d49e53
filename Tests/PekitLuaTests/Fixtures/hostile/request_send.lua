-- expect: request_send.lua:2: request.send: not allowed in a plugin (it sends over the network)
pekit.request{ url = "http://127.0.0.1:9/", method = "POST", body = "secret" }:send()
return { kind = "policy" }
