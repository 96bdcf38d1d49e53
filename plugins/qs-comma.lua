-- qs.stringify with { arrayFormat: 'comma' }.
return {
  name = "qs-comma",
  kind = "policy",
  description = "qs 6.11 qs.stringify with arrayFormat 'comma'",
  extends = "qs",
  arrays = "comma",          -- a=1%2C2 (qs escapes the joining comma too)
}
