-- expect: os_remove.lua:2: attempt to call a nil value (field 'remove')
os.remove("/tmp/pekit-hostile-victim")
return { kind = "policy" }
