-- The default cookie rules: RFC 6265 as the jar implements it, with nothing added.
return {
  name = "rfc6265",
  kind = "cookie-filter",
  description = "RFC 6265 domain and path matching, nothing added (the default)",
}
