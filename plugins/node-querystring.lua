-- node's querystring.stringify (Express's extended: false side; checked against node 20):
-- encodeURIComponent escaping (space as %20), keys in the order given, a list as the key repeated,
-- null as "a=". querystring writes a nested object as an empty value; nested tables are written
-- as a[b] here so that nothing is silently dropped.
return {
  name = "node-querystring",
  kind = "policy",
  description = "node querystring.stringify: encodeURIComponent (space as %20), lists as repeated keys, null as a=",
  allowed = pekit.charset.alphanumerics + "-_.!~*'()",
  space = "%20",
  order = "given",
  arrays = "repeat",
  objects = "brackets",
  null = "empty",
  booleans = "literal",
  numbers = "javascript",  -- String(x): 1e20 is 100000000000000000000
}
