-- expect: work_jsonpath_nested.lua:6: instruction budget exceeded (an endless loop?)
-- sandbox: skip
-- Filters nested in filters multiply the nodes a query visits: 300 items, three deep.
local list = {}
for i = 1, 300 do list[i] = i end
pekit.json.query(list, "$[?count($[?count($[?@ > 0]) > 0]) > 0]")
return { kind = "policy" }
