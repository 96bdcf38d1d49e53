-- The default policy: RFC 3986 section 2.3 unreserved characters only.
return {
  name = "rfc3986",
  kind = "policy",
  description = "RFC 3986 section 2.3: only unreserved characters are left unescaped; space as %20",
  allowed = "unreserved",
  space = "%20",
  order = "ascending",
  arrays = "brackets",
  objects = "brackets",
  null = "empty",
  booleans = "literal",
}
