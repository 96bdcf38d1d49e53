-- The built-in policy "qs-comma" as a plugin file, written by `pekit plugins export qs-comma`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "qs-comma").
return {
  name = "qs-comma",
  kind = "policy",
  description = "qs 6.11 qs.stringify with arrayFormat 'comma'",
  order = "given",
  arrays = "comma",
  numbers = "javascript",
}
