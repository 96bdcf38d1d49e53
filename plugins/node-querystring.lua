-- The built-in policy "node-querystring" as a plugin file, written by `pekit plugins export node-querystring`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "node-querystring").
return {
  name = "node-querystring",
  kind = "policy",
  description = "node querystring.stringify: encodeURIComponent (space as %20), lists as repeated keys, null as a=",
  allowed = pekit.charset.unreserved + "!'()*",
  order = "given",
  arrays = "repeat",
  numbers = "javascript",
}
