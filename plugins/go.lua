-- Go's net/url url.Values.Encode() (checked against Go 1.19): keys sorted by their bytes (the
-- values of one key keep their order), each escaped with url.QueryEscape (only unreserved
-- characters kept, space as +), a list as the key repeated. Go has no nesting: nested tables are
-- written as a[b] here so that nothing is silently dropped.
return {
  name = "go",
  kind = "policy",
  description = "Go 1.19 url.Values.Encode: keys sorted, url.QueryEscape (space as +), lists as repeated keys",
  allowed = "unreserved",
  space = "+",
  order = "ascending",
  arrays = "repeat",
  objects = "brackets",
  null = "empty",
  booleans = "literal",
}
