-- The built-in policy "alamofire" as a plugin file, written by `pekit plugins export alamofire`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "alamofire").
return {
  name = "alamofire",
  kind = "policy",
  description = "Alamofire 5 URLEncoding defaults: sorted keys, a[]/a[b], booleans as 1/0, null as <null>, AFNetworking's escaping",
  allowed = pekit.charset.afnetworking,
  null = { text = "<null>" },
  booleans = "numeric",
  numbers = "objc",
  headers = { ["Accept-Encoding"] = "br;q=1.0, gzip;q=0.9, deflate;q=0.8" },
  accept_language = "alamofire",
}
