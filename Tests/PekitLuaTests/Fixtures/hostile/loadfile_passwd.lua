-- expect: loadfile_passwd.lua:3: undefined global 'loadfile'
-- sandbox: loadfile_passwd.lua:3: attempt to call a nil value (global 'loadfile')
loadfile("/etc/passwd")
return { kind = "policy" }
