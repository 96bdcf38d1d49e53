-- The built-in policy "alamofire-form" as a plugin file, written by `pekit plugins export alamofire-form`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "alamofire-form").
return {
  name = "alamofire-form",
  kind = "policy",
  description = "Alamofire 5 URLEncodedFormEncoder defaults: encoded pairs sorted at every level, a[]/a[b], booleans as 1/0, nil dropped, Swift's numbers",
  allowed = pekit.charset.afnetworking,
  order = "pairs",
  null = "skip",
  booleans = "numeric",
  numbers = "swift",
  headers = { ["Accept-Encoding"] = "br;q=1.0, gzip;q=0.9, deflate;q=0.8" },
  accept_language = "alamofire",
}
