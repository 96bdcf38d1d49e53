-- expect: memory_query.lua:5: pekit.query.encode: not enough memory (the limit is 16 MB)
-- sandbox: skip
local kept, params = {}, {}
for i = 1, 1000 do params["k" .. i] = ("v"):rep(300) end
for i = 1, 1000 do kept[i] = pekit.query.encode(params) end
return { kind = "policy" }
