-- expect: instruction budget exceeded (an endless loop?)
-- sandbox: skip
local s = ("a"):rep(20000)
for i = 1, 1000 do
  coroutine.resume(coroutine.create(function() return s:match(("a*"):rep(10) .. "b") end))
end
return { kind = "policy" }
