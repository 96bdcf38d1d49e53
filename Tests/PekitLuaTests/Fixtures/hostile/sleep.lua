-- expect: sleep.lua:3: pekit.time.sleep: not allowed in a plugin (it waits, and a plugin's call must end within its budget)
-- sandbox: ok
pekit.time.sleep(0.001)
return { kind = "policy" }
