-- expect: os_execute.lua:2: attempt to call a nil value (field 'execute')
os.execute("touch /tmp/pekit-hostile-owned")
return { kind = "policy" }
