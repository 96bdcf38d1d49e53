-- expect: work_table_shift.lua:6: instruction budget exceeded (an endless loop?)
-- sandbox: skip
-- table.insert at the front moves every item: a call is charged the list's length.
local t = {}
for i = 1, 100000 do t[i] = i end
while true do table.insert(t, 1, 0); table.remove(t, 1) end
