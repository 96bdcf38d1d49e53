-- expect: work_table_sort.lua:6: instruction budget exceeded (an endless loop?)
-- sandbox: skip
-- table.sort compares n log n times in C, with no instruction in between.
local t = {}
for i = 1, 200000 do t[i] = (i * 7919) % 200000 end
while true do table.sort(t) end
