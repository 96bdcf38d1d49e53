-- Python requests' query and form encoding (requests.get(url, params=...), checked against
-- requests 2.x on Python 3.11): urlencode(doseq=True) with quote_plus (only unreserved characters
-- kept, space as +), keys in the order given, a list as the key repeated, None left out (also
-- inside lists), True and False as Python writes them. requests does not nest (it would send a
-- dict's keys as values); nested tables are written as a[b] here.
return {
  name = "python-requests",
  kind = "policy",
  description = "requests (urlencode doseq=True): quote_plus, lists as repeated keys, None skipped, True/False",
  allowed = "unreserved",
  space = "+",
  order = "given",
  arrays = "repeat",
  objects = "brackets",
  null = "skip",
  booleans = "capitalized",
  numbers = "python",      -- str(): integers exact, 1e+16, 3.0
}
