-- Rack::Utils.build_nested_query (Ruby on Rails): a[]=x, a[b]=x, each key segment escaped with
-- URI.encode_www_form_component (space as +) and the brackets between them left as they are,
-- nil as the key alone.
return {
  name = "rack",
  kind = "policy",
  description = "Rack 2.2 build_nested_query (Rails): a[]=x, a[b]=x, brackets literal, space as +, nil as key alone",
  allowed = "form",
  space = "+",
  order = "given",
  arrays = "brackets",
  objects = "brackets",
  null = "key",
  booleans = "literal",
  encode_keys = "segments",
}
