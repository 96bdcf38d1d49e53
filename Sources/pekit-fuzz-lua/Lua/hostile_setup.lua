HOSTILE = {}
for _, e in ipairs { "__index", "__newindex", "__pairs", "__len", "__eq", "__lt", "__le", "__concat", "__call" } do
  -- Longer than any string the generator makes (23 bytes), so no value can look like it.
  HOSTILE[e] = function() error("pekit-fuzz: hostile metamethod " .. e .. " ran") end
end
HOSTILE.__tostring = function() coroutine.yield() end
