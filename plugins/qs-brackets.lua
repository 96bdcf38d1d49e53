-- qs.stringify with { arrayFormat: 'brackets' }.
return {
  name = "qs-brackets",
  kind = "policy",
  description = "qs 6.11 qs.stringify with arrayFormat 'brackets'",
  extends = "qs",
  arrays = "brackets",       -- a[]=1&a[]=2
}
