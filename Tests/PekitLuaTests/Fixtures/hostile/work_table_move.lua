-- expect: work_table_move.lua:4: instruction budget exceeded (an endless loop?)
-- sandbox: skip
-- table.move walks every slot of its range, filled or not.
table.move({}, 1, 1e12, 1, {})
return { kind = "policy" }
