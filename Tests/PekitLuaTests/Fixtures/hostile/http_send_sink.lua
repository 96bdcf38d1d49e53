-- expect: http_send_sink.lua:2: pekit.http.send: not allowed in a plugin (it sends over the network)
pekit.http.send({ url = "http://127.0.0.1:9/" }, { sink = "/tmp/pekit-hostile-sink" })
return { kind = "policy" }
