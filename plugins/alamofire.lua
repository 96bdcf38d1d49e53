-- Alamofire's URLEncoding with its defaults (.brackets arrays, .numeric booleans): keys sorted,
-- escaped with CharacterSet.afURLQueryAllowed, which is AFNetworking's set.
return {
  name = "alamofire",
  kind = "policy",
  description = "Alamofire 5 URLEncoding defaults: sorted keys, a[]/a[b], booleans as 1/0, AFNetworking's escaping",
  extends = "afnetworking",
  null = "empty",
  booleans = "numeric",
}
