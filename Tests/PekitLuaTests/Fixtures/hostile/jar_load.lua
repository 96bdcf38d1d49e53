-- expect: jar_load.lua:2: jar.load: not allowed in a plugin (it reads or writes files)
pekit.cookies.jar{ public_suffixes = false }:load("/dev/zero")
return { kind = "policy" }
