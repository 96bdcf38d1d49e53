-- The built-in policy "oauth1" as a plugin file, written by `pekit plugins export oauth1`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "oauth1").
return {
  name = "oauth1",
  kind = "policy",
  description = "OAuth 1.0 (RFC 5849 section 3.6): unreserved only, %20, pairs sorted by encoded name then value",
  order = "bytes",
  arrays = "repeat",
}
