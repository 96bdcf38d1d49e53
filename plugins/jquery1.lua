-- The built-in policy "jquery1" as a plugin file, written by `pekit plugins export jquery1`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "jquery1").
return {
  name = "jquery1",
  kind = "policy",
  description = "jQuery 1.x/2.x jQuery.param: a[]=x, a[0][b]=x for nested elements, encodeURIComponent with + for space",
  allowed = pekit.charset.unreserved + "!'()*",
  space = "+",
  order = "given",
  arrays = "indices-when-nested",
  numbers = "javascript",
}
