-- expect: custom error object
error(setmetatable({}, { __tostring = function() return "custom error object" end }))
