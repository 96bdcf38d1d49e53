-- AWS Signature Version 4 canonical query string: every byte but the unreserved ones is
-- escaped (space as %20, never +), with uppercase hex, sorted by encoded key then value.
return {
  name = "aws-sigv4",
  kind = "policy",
  description = "AWS Signature V4 canonical query string (as botocore signs it): unreserved only, %20, sorted by encoded key then value",
  allowed = "unreserved",
  space = "%20",
  order = "bytes",
  arrays = "repeat",
  null = "empty",
}
