-- Drops cookies by name or by domain, with Lua patterns:
--   pekit.cookies.jar{ filter = { "deny", names = { "^_ga", "^_gid$" }, domains = { "%.tracker%.example$" } } }
return {
  name = "deny",
  kind = "cookie-filter",
  description = "refuse cookies whose name or domain matches a Lua pattern (options names = {...}, domains = {...})",
  new = function(options)
    local names, domains = options.names or {}, options.domains or {}
    -- One pattern given as a string (deny:names=^_ga on the command line) is a list of one.
    if type(names) == "string" then names = { names } end
    if type(domains) == "string" then domains = { domains } end
    if next(names) == nil and next(domains) == nil then
      error("deny needs the option names = {patterns} or domains = {patterns} (command line: --filter 'deny:names=^_ga')", 2)
    end
    return {
      accept = function(cookie, url)
        for _, pattern in ipairs(names) do if cookie.name:find(pattern) then return false end end
        for _, pattern in ipairs(domains) do if cookie.domain:find(pattern) then return false end end
        return true
      end,
    }
  end,
}
