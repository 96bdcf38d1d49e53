-- Alamofire 5's URLEncoding with its defaults (.brackets arrays, .numeric booleans): top-level
-- keys sorted (nested maps go out in Dictionary order, which Swift seeds per process: pekit
-- sorts them too), escaped with CharacterSet.afURLQueryAllowed, which is AFNetworking's set;
-- NSNull written as its description, "<null>". Checked against Alamofire 5.12.0 itself
-- (Tests/PekitLuaTests/Fixtures/make_query_vectors.py).
return {
  name = "alamofire",
  kind = "policy",
  description = "Alamofire 5 URLEncoding defaults: sorted keys, a[]/a[b], booleans as 1/0, null as <null>, AFNetworking's escaping",
  extends = "afnetworking",
  null = { text = "<null>" },
  booleans = "numeric",
  -- HTTPHeaders.default: Alamofire's own q format (1.0, 0.9…), and the codings URLSession decodes.
  accept_language = "alamofire",
  headers = { ["Accept-Encoding"] = "br;q=1.0, gzip;q=0.9, deflate;q=0.8" },
}
