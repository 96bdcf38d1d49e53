-- AFNetworking's AFQueryStringPairsFromDictionary and AFPercentEscapedStringFromString:
-- URLQueryAllowedCharacterSet minus the general delimiters ":#[]@" and the sub-delimiters
-- "!$&'()*+,;=", so "?" and "/" stay as they are (RFC 3986 section 3.4).
return {
  name = "afnetworking",
  kind = "policy",
  description = "AFNetworking 3/4 AFQueryStringFromParameters: query-allowed minus :#[]@!$&'()*+,;= (so / and ? stay), sorted keys, a[]/a[b], null as key alone",
  allowed = pekit.charset.query - ":#[]@!$&'()*+,;=",
  space = "%20",
  order = "ascending",     -- keys compared as strings at every level
  arrays = "brackets",     -- families[]=father
  objects = "brackets",    -- phone[home]=xx
  null = "key",            -- [NSNull null] gives the key alone
  booleans = "numeric",    -- NSNumber's description of YES is 1
  numbers = "objc",        -- NSNumber's description: %0.16g, so 3.0 is 3 and 0.1 + 0.2 is 0.3
  -- AFHTTPRequestSerializer's default field: the locale's languages, q from 1 down by 0.1.
  accept_language = "afnetworking",
}
