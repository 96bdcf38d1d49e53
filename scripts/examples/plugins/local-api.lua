-- A cookie filter for an API run on this machine: requests go to 127.0.0.1, but the API's
-- cookies belong to api.example.com; and Google Analytics' cookies (_ga, _ga_*) are dropped.
--   pekit cookies receive jar.txt http://127.0.0.1:8080/login 'sid=1; Path=/' --filter local-api --plugins scripts/examples/plugins
return {
  kind = "cookie-filter",
  description = "drop _ga* cookies; cookies from 127.0.0.1 belong to api.example.com",
  -- host(url): the name a URL's cookies are kept and matched under (nil: the URL's own host).
  host = function(url)
    if url.host == "127.0.0.1" then return "api.example.com" end
  end,
  -- accept(cookie, url): false refuses a cookie before it is stored.
  accept = function(cookie, url)
    return cookie.name:find("^_ga") == nil
  end,
}
