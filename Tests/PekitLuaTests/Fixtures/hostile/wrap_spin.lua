-- expect: instruction budget exceeded (an endless loop?)
-- sandbox: skip
local function spin() while true do coroutine.yield() end end
while true do
  local co = coroutine.wrap(spin)
  for i = 1, 10 do pcall(co) end
end
