-- WHATWG application/x-www-form-urlencoded, as URLSearchParams and HTML forms write it.
return {
  name = "form",
  kind = "policy",
  description = "WHATWG URL Standard application/x-www-form-urlencoded (URLSearchParams): *-._ and alphanumerics, space as +",
  allowed = "form",
  space = "+",             -- and a literal "+" is always %2B
  order = "given",
  arrays = "repeat",
  null = "empty",
}
