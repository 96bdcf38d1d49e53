-- expect: (error object is a table value; describing it failed: instruction budget exceeded (an endless loop?))
-- sandbox: skip
error(setmetatable({}, { __tostring = function() while true do end end }))
