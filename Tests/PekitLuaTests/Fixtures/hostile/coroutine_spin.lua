-- expect: instruction budget exceeded (an endless loop?)
-- sandbox: skip
while true do coroutine.resume(coroutine.create(function() while true do end end)) end
