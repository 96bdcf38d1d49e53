-- The qs package's stringify with its defaults (Node.js): a[0]=x, a[b]=x, RFC 3986 escaping,
-- keys in the order given, null as "a=", empty arrays and objects left out.
return {
  name = "qs",
  kind = "policy",
  description = "qs 6.11 qs.stringify defaults: a[0]=x indices, a[b]=x, RFC 3986 escaping, order kept",
  allowed = "unreserved",
  space = "%20",
  order = "given",
  arrays = "indices",
  objects = "brackets",
  null = "empty",
  booleans = "literal",
  numbers = "javascript",  -- String(x): 1e20 is 100000000000000000000
  empty = "skip",
}
