-- HTTPDNS "IP direct connect": requests go to an IP address, but cookies belong to the host
-- name behind it. With hosts = { ["203.0.113.7"] = "api.example.com" }, a cookie received from
-- http://203.0.113.7/ is stored under api.example.com, and requests to the name, or to any IP
-- of the same host, send it.
--   pekit.cookies.jar{ filter = { "httpdns", hosts = { ["203.0.113.7"] = "api.example.com" } } }
--   pekit cookies header jar.txt http://203.0.113.7/ --filter 'httpdns:hosts=203.0.113.7=api.example.com'
return {
  name = "httpdns",
  kind = "cookie-filter",
  description = "IP direct connect: cookies for an IP address are kept under the host name it stands for (option hosts = {ip = name})",
  new = function(options)
    -- Without hosts it would do nothing, silently: a mistake to say, not to ignore.
    if type(options.hosts) ~= "table" or next(options.hosts) == nil then
      error("httpdns needs the option hosts = { [\"IP\"] = \"name\" } (command line: --filter 'httpdns:hosts=IP=NAME')", 2)
    end
    local hosts = {}
    for ip, name in pairs(options.hosts or {}) do
      if type(ip) ~= "string" or type(name) ~= "string" then
        error("httpdns: hosts must map IP address strings to host name strings", 2)
      end
      hosts[ip:lower()] = name:lower()
    end
    return {
      host = function(url) return hosts[url.host] end,
    }
  end,
}
