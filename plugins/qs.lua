-- The built-in policy "qs" as a plugin file, written by `pekit plugins export qs`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "qs").
return {
  name = "qs",
  kind = "policy",
  description = "qs 6.11 qs.stringify defaults: a[0]=x indices, a[b]=x, RFC 3986 escaping, order kept",
  order = "given",
  arrays = "indices",
  numbers = "javascript",
}
