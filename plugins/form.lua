-- The built-in policy "form" as a plugin file, written by `pekit plugins export form`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "form").
return {
  name = "form",
  kind = "policy",
  description = "WHATWG URL Standard application/x-www-form-urlencoded (URLSearchParams): *-._ and alphanumerics, space as +",
  allowed = pekit.charset.form,
  space = "+",
  order = "given",
  arrays = "repeat",
}
