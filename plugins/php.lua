-- PHP's http_build_query() with its defaults (PHP_QUERY_RFC1738): urlencode() escaping
-- (alphanumerics and -_. only; space as +), a[0]=x indices, nulls left out, booleans as 1/0.
return {
  name = "php",
  kind = "policy",
  description = "PHP 8.2 http_build_query: a[0]=x, a[b]=x, urlencode (space as +, ~ escaped), nulls skipped, true as 1",
  allowed = pekit.charset.alphanumerics + "-_.",
  space = "+",
  order = "given",
  arrays = "indices",
  objects = "brackets",
  null = "skip",
  booleans = "numeric",
  numbers = "php",          -- precision 14: 1.0E+20, 0.33333333333333
}
