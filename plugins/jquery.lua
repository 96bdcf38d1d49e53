-- The built-in policy "jquery" as a plugin file, written by `pekit plugins export jquery`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "jquery").
return {
  name = "jquery",
  kind = "policy",
  description = "jQuery 3 jQuery.param: a[]=x, a[0][b]=x for nested elements, encodeURIComponent (space as %20)",
  allowed = pekit.charset.unreserved + "!'()*",
  order = "given",
  arrays = "indices-when-nested",
  numbers = "javascript",
}
