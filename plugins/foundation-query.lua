-- The built-in policy "foundation-query" as a plugin file, written by `pekit plugins export foundation-query`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "foundation-query").
return {
  name = "foundation-query",
  kind = "policy",
  description = "Foundation URLComponents.queryItems (Apple and swift-corelibs-foundation): urlQueryAllowed minus & and =; '+' is left as it is",
  allowed = pekit.charset.query - "&=",
  order = "given",
  arrays = "repeat",
  null = "key",
}
