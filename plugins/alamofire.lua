-- Alamofire's URLEncoding with its defaults (.brackets arrays, .numeric booleans): keys sorted,
-- escaped with CharacterSet.afURLQueryAllowed, which is AFNetworking's set.
return {
  name = "alamofire",
  kind = "policy",
  description = "Alamofire 5 URLEncoding defaults: sorted keys, a[]/a[b], booleans as 1/0, AFNetworking's escaping",
  extends = "afnetworking",
  null = "empty",
  booleans = "numeric",
  -- HTTPHeaders.default: Alamofire's own q format (1.0, 0.9…), and the codings URLSession decodes.
  accept_language = "alamofire",
  headers = { ["Accept-Encoding"] = "br;q=1.0, gzip;q=0.9, deflate;q=0.8" },
}
