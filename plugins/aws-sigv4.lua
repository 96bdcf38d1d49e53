-- The built-in policy "aws-sigv4" as a plugin file, written by `pekit plugins export aws-sigv4`
-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit
-- uses the built-in policy itself while this file is unchanged; an edited file is read as a
-- plugin. To start a policy of your own, copy it under another name (or write extends = "aws-sigv4").
return {
  name = "aws-sigv4",
  kind = "policy",
  description = "AWS Signature V4 canonical query string (as botocore signs it): unreserved only, %20, sorted by encoded key then value",
  order = "bytes",
  arrays = "repeat",
}
