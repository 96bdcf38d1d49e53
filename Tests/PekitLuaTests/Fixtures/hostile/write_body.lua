-- expect: write_body.lua:2: request.write_body: not allowed in a plugin (it reads or writes files)
pekit.request{ url = "http://127.0.0.1:9/", method = "POST", body = "#!/bin/sh\necho owned\n" }:write_body("/tmp/pekit-hostile.sh")
return { kind = "policy" }
