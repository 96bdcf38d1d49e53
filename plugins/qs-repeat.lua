-- qs.stringify with { arrayFormat: 'repeat' }.
return {
  name = "qs-repeat",
  kind = "policy",
  description = "qs 6.11 qs.stringify with arrayFormat 'repeat'",
  extends = "qs",
  arrays = "repeat",         -- a=1&a=2
}
