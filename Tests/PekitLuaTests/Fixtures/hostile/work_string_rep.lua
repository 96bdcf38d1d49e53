-- expect: work_string_rep.lua:5: instruction budget exceeded (an endless loop?)
-- sandbox: skip
-- One instruction that makes a megabyte: the bytes a call makes are charged, not just the
-- instructions (before, this loop made a terabyte within its budget).
while true do local s = ("x"):rep(1 << 20) end
