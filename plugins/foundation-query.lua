-- Foundation's URLComponents.queryItems: urlQueryAllowed minus "&" and "=".
-- Note that "+" is left as it is, which many servers read as a space.
return {
  name = "foundation-query",
  kind = "policy",
  description = "Foundation URLComponents.queryItems (Apple and swift-corelibs-foundation): urlQueryAllowed minus & and =; '+' is left as it is",
  allowed = pekit.charset.query - "&=",
  space = "%20",
  order = "given",         -- queryItems keep the order they were given
  arrays = "repeat",
  null = "key",            -- URLQueryItem(name:, value: nil) gives the name alone
}
