-- expect: ok
pekit.plugins.path[1] = "/tmp"
table.insert(pekit.plugins.path, 1, "/tmp/evil")
return { kind = "policy" }
