-- plugins/my-backend.lua
return {
  kind = "policy",                  -- or "cookie-filter"
  description = "our API: brackets stay literal",
  extends = "afnetworking",         -- start from another policy (default: rfc3986)
  allowed = pekit.charset.afnetworking + "[]",  -- a charset, a set name, or extra characters
  space = "%20",                    -- or "+"
  lower = false,                    -- lower-case hex digits
  order = "ascending",              -- "bytes" | "pairs" | "given" | function(a, b)   (query flattener)
  arrays = "brackets",              -- "indices" | "repeat" | "comma" | "indices-when-nested" | function(key, i, nested)
  objects = "brackets",             -- "dots" | function(prefix, key)
  null = "key",                     -- "empty" | "skip" | { text = "<null>" }
  booleans = "literal",             -- "numeric" | "capitalized"
  numbers = "shortest",             -- "javascript" (qs: 1e20 as 100000000000000000000) | "python" | "objc" (%0.16g) | "php" | "swift"
  -- also: encode_keys, encode_values (true | false | a charset), separator, assign, empty, prefix
}
