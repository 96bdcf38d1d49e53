-- expect: <tostring failed: instruction budget exceeded (an endless loop?)>
-- sandbox: skip
error(setmetatable({}, { __tostring = function() while true do end end }))
