-- The built-in policy "rfc3986" as a plugin file, written by `pekit plugins export rfc3986`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "rfc3986").
return {
  name = "rfc3986",
  kind = "policy",
  description = "RFC 3986 section 2.3: only unreserved characters are left unescaped; space as %20",
}
