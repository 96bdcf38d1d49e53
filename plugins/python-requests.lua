-- The built-in policy "python-requests" as a plugin file, written by `pekit plugins export python-requests`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "python-requests").
return {
  name = "python-requests",
  kind = "policy",
  description = "requests (urlencode doseq=True): quote_plus, lists as repeated keys, None skipped, True/False",
  space = "+",
  order = "given",
  arrays = "repeat",
  null = "skip",
  booleans = "capitalized",
  numbers = "python",
}
