-- The built-in policy "php" as a plugin file, written by `pekit plugins export php`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "php").
return {
  name = "php",
  kind = "policy",
  description = "PHP 8.2 http_build_query: a[0]=x, a[b]=x, urlencode (space as +, ~ escaped), nulls skipped, true as 1",
  allowed = pekit.charset.unreserved - "~",
  space = "+",
  order = "given",
  arrays = "indices",
  null = "skip",
  booleans = "numeric",
  numbers = "php",
}
