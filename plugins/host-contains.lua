-- The naive rule of many iOS cookie managers: send a cookie when the URL's host contains the
-- cookie's domain. UNSAFE, kept for comparison and for replaying what such apps did:
-- "evil-example.com" contains "example.com", so example.com's cookies would leak to it.
return {
  name = "host-contains",
  kind = "cookie-filter",
  description = "UNSAFE naive rule: the URL's host contains the cookie's domain (evil-example.com gets example.com's cookies)",
  match = function(cookie, url)
    return url.host:find(cookie.domain, 1, true) ~= nil
  end,
}
