-- expect: jar_save.lua:2: jar.save: not allowed in a plugin (it reads or writes files)
pekit.cookies.jar{ public_suffixes = false }:save("/tmp/pekit-hostile-jar.txt")
return { kind = "policy" }
