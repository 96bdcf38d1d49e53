-- jQuery 3.x jQuery.param(obj) (traditional = false), checked against jQuery 3.6.1:
-- encodeURIComponent escaping (space as %20: jQuery 3 stopped turning it into +), a[]=x for plain
-- elements but a[0][b]=x for elements that are objects or arrays, null as "a=".
return {
  name = "jquery",
  kind = "policy",
  description = "jQuery 3 jQuery.param: a[]=x, a[0][b]=x for nested elements, encodeURIComponent (space as %20)",
  extends = "jquery1",
  space = "%20",
}
