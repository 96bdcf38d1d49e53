-- expect: dofile_passwd.lua:3: undefined global 'dofile'
-- sandbox: dofile_passwd.lua:3: attempt to call a nil value (global 'dofile')
dofile("/etc/passwd")
return { kind = "policy" }
