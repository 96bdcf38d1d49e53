-- Alamofire 5's URLEncodedFormEncoder() (URLEncodedFormParameterEncoder.default) with its
-- defaults: alphabetizeKeyValuePairs sorts the encoded "key=value" text of each map's entries
-- and each array's items, at every level; nil is dropped (.dropKey); numbers are Swift's
-- description (3.0, 1e+20); .brackets arrays, .numeric booleans, afURLQueryAllowed escaping.
-- Checked against Alamofire 5.12.0 itself (Tests/PekitLuaTests/Fixtures/make_query_vectors.py).
return {
  name = "alamofire-form",
  kind = "policy",
  description = "Alamofire 5 URLEncodedFormEncoder defaults: encoded pairs sorted at every level, a[]/a[b], booleans as 1/0, nil dropped, Swift's numbers",
  extends = "alamofire",
  order = "pairs",
  null = "skip",
  numbers = "swift",
}
