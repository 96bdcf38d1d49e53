-- Drops cookies by name or by domain, with Lua patterns:
--   pekit.cookies.jar{ filter = { "deny", names = { "^_ga", "^_gid$" }, domains = { "%.tracker%.example$" } } }
return {
  name = "deny",
  kind = "cookie-filter",
  description = "refuse cookies whose name or domain matches a Lua pattern (options names = {...}, domains = {...})",
  new = function(options)
    local names, domains = options.names or {}, options.domains or {}
    return {
      accept = function(cookie, url)
        for _, pattern in ipairs(names) do if cookie.name:find(pattern) then return false end end
        for _, pattern in ipairs(domains) do if cookie.domain:find(pattern) then return false end end
        return true
      end,
    }
  end,
}
