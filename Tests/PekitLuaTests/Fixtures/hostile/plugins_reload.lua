-- expect: plugins_reload.lua:3: pekit.plugins.reload: not allowed in a plugin (it loads plugin files)
-- sandbox: ok
pekit.plugins.reload()
return { kind = "policy" }
