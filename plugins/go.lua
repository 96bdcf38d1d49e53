-- The built-in policy "go" as a plugin file, written by `pekit plugins export go`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "go").
return {
  name = "go",
  kind = "policy",
  description = "Go 1.19 url.Values.Encode: keys sorted, url.QueryEscape (space as +), lists as repeated keys",
  space = "+",
  arrays = "repeat",
}
