-- The built-in policy "rack" as a plugin file, written by `pekit plugins export rack`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "rack").
return {
  name = "rack",
  kind = "policy",
  description = "Rack 2.2 build_nested_query (Rails): a[]=x, a[b]=x, brackets literal, space as +, nil as key alone",
  allowed = pekit.charset.form,
  space = "+",
  order = "given",
  null = "key",
  encode_keys = "segments",
}
