-- expect: instruction budget exceeded (an endless loop?)
-- sandbox: skip
while true do pcall(function() while true do end end) end
