-- OAuth 1.0 (RFC 5849): section 3.6 percent-encoding (unreserved only, uppercase hex, %20),
-- and section 3.4.1.3.2 parameter normalisation (sort by encoded name, then encoded value).
return {
  name = "oauth1",
  kind = "policy",
  description = "OAuth 1.0 (RFC 5849 section 3.6): unreserved only, %20, pairs sorted by encoded name then value",
  allowed = "unreserved",
  space = "%20",
  order = "bytes",
  arrays = "repeat",
  null = "empty",
}
