-- The built-in policy "afnetworking" as a plugin file, written by `pekit plugins export afnetworking`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "afnetworking").
return {
  name = "afnetworking",
  kind = "policy",
  description = "AFNetworking 3/4 AFQueryStringFromParameters: query-allowed minus :#[]@!$&'()*+,;= (so / and ? stay), sorted keys, a[]/a[b], null as key alone",
  allowed = pekit.charset.afnetworking,
  null = "key",
  booleans = "numeric",
  numbers = "objc",
  accept_language = "afnetworking",
}
