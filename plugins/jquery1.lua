-- jQuery 1.x and 2.x jQuery.param(obj) (traditional = false): encodeURIComponent escaping with
-- %20 turned into + (jQuery 3 keeps %20: see jquery.lua),
-- a[]=x for plain elements but a[0][b]=x for elements that are objects or arrays, null as "a=".
return {
  name = "jquery1",
  kind = "policy",
  description = "jQuery 1.x/2.x jQuery.param: a[]=x, a[0][b]=x for nested elements, encodeURIComponent with + for space",
  allowed = pekit.charset.alphanumerics + "-_.!~*'()",
  space = "+",
  order = "given",
  objects = "brackets",
  null = "empty",
  booleans = "literal",
  numbers = "javascript",  -- String(x): 1e20 is 100000000000000000000
  -- The rule jQuery's buildParams applies: an index only when the element is itself nested.
  arrays = function(key, index, nested)
    if nested then return key .. "[" .. (index - 1) .. "]" end
    return key .. "[]"
  end,
}
