-- Calls every pekit entry point on the main thread, inside a coroutine and inside a coroutine
-- inside a coroutine, and returns the cases whose results differ (a call from a coroutine must
-- work on the coroutine's own stack) and how many cases ran. Runs in a script and as a plugin:
-- in a plugin the functions that need files or the network are refused, the same way on every
-- thread. The local server's base URL comes as a global, when there is one.
local base = rawget(_G, "PEKIT_TEST_BASE") or "http://127.0.0.1:9"
local cases = {}
local function case(name, f) cases[#cases + 1] = { name, f } end

local jar = pekit.cookies.jar{ public_suffixes = false, now = 1000 }
jar:receive("https://www.example.com/a/b", { "sid=1; Path=/", "pref=x; Domain=example.com", "old=1; Max-Age=1" })

case("encode default", function() return pekit.encode("a b/ü&") end)
case("encode name", function() return pekit.encode("a b[]", "afnetworking") end)
case("encode options", function() return pekit.encode("a b/*", { space = "+", allowed = "/", lower = true }) end)
case("encode charset", function() return pekit.encode("a-b_c", pekit.charset.letters + "-") end)
case("encode keep", function() return pekit.encode("a%20b c", { keep_escapes = true }) end)
case("decode", function() return pekit.decode("a+b%20c", { plus = true }) end)
case("decode strict", function() return pekit.decode("100%zz", { strict = true }) end)
case("decode policy", function() return pekit.decode("a+b", "form") end)
case("charset ops", function() return tostring((pekit.charset("abc") - "b") + pekit.charset.none), pekit.charset.query:contains("?") end)
case("charset call", function() return tostring(pekit.charset("[]")), pekit.charset.letters:chars() end)
case("query.encode name", function() return pekit.query.encode({ b = { 1, 2 }, a = { x = pekit.null } }, "afnetworking") end)
case("query.encode table", function() return pekit.query.encode({ b = 1, a = { 1, 2 } }, { arrays = "indices", space = "+" }) end)
case("query.encode order fn", function()
  return pekit.query.encode({ b = 1, a = 2, c = 3 }, { order = function(x, y) return x > y end })
end)
case("query.encode arrays fn", function()
  return pekit.query.encode({ a = { 1, 2 } }, { arrays = function(key, i) return key .. "_" .. i end })
end)
case("query.encode objects fn", function()
  return pekit.query.encode({ a = { b = 1 } }, { objects = function(prefix, key) return prefix .. ":" .. key end })
end)
case("query.encode ordered", function() return pekit.query.encode(pekit.ordered{ { "z", 1 }, { "a", pekit.set{ "x", "y" } } }, "qs") end)
case("query.pairs", function() return pekit.query.pairs({ a = { 1, pekit.null } }, "php") end)
case("query.decode", function() return pekit.query.decode("zz=1&a[]=2&a[]=3") end)
case("query.decode options", function() return pekit.query.decode("b=1&a=2&a=3", { ordered = true, server = "qs", depth = 1 }) end)
case("query.decode server", function() return pekit.query.decode("a.b=1&c[]=2", { server = "php" }) end)
case("query.compare", function() return pekit.query.compare({ s = "a b", l = { 1, 2 } }, { "rfc3986", "form", "php" }) end)
case("query.check", function() return pekit.query.check({ a = { 1, 2 } }, "qs", "rack") end)
case("json", function() return pekit.json.encode({ a = 1, b = { true, pekit.null } }), pekit.json.decode('{"x":[1,{"y":null}]}') end)
case("json error", function() return pekit.json.decode("[1,") end)
case("histogram", function()
  local h = pekit.histogram{ digits = 2 }
  h:record(1500, 3) h:record_corrected(40000, 10000)
  return h:count(), h:percentile(50), h:max(), #h:distribution(), pcall(h.record, h, -1)
end)
case("policy.get", function() return pekit.policy.get("afnetworking") end)
case("policy.define", function() return pekit.policy.define{ name = "co-test", extends = "rfc3986", allowed = "[]", order = function(a, b) return a < b end } end)
case("policy.define used", function() return pcall(pekit.encode, "[x y]", "co-test") end)
case("policy.list", function() local n = 0 for _ in ipairs(pekit.policy.list()) do n = n + 1 end return n > 5 end)
case("plugins.load", function() return pekit.plugins.load("httpdns").kind end)
case("plugins.load fn", function() return pcall(function() return pekit.plugins.load("httpdns").new({ hosts = { ["1.2.3.4"] = "a.example" } }).host({ host = "1.2.3.4" }) end) end)
case("plugins.list", function() local kinds = {} for _, p in ipairs(pekit.plugins.list()) do kinds[p.kind] = true end return kinds end)
case("cookies.parse", function() return pekit.cookies.parse("a=b; Path=/x; Secure; SameSite=Lax; Max-Age=10") end)
case("jar header", function() return jar:header("https://www.example.com/a/c") end)
case("jar cookies", function() local out = {} for _, c in ipairs(jar:cookies("https://shop.example.com/")) do out[#out + 1] = c.name end return out end)
case("jar explain", function() local out = {} for _, v in ipairs(jar:explain("https://www.example.com/")) do out[#out + 1] = v.cookie.name .. ":" .. tostring(v.sent) .. ":" .. v.reason end table.sort(out) return out end)
case("jar receive", function()
  local j = pekit.cookies.jar{ public_suffixes = false, now = 0 }
  local r = j:receive("http://x.example/", { "a=1", "b=2; Domain=other.example" })
  return #r.stored, r.rejected, j:header("http://x.example/"), #j, tostring(j)
end)
case("jar set delete clock", function()
  local j = pekit.cookies.jar{ public_suffixes = false, now = 5 }
  j:set{ name = "n", value = "v", domain = "x.example" }
  local before = j:header("http://x.example/")
  local deleted = j:delete("http://x.example/", "n")
  return before, deleted, j:clock(), j:clock(7), #j:all(), j:expire()
end)
case("jar inline filter", function()
  local j = pekit.cookies.jar{ public_suffixes = false, filter = { match = function(cookie, url) return cookie.name ~= "hidden" end,
    host = function(url) if url.host == "1.2.3.4" then return "x.example" end end } }
  j:receive("http://1.2.3.4/", { "a=1", "hidden=2" })
  return j:header("http://x.example/")
end)
case("jar plugin filter", function()
  local j = pekit.cookies.jar{ public_suffixes = false, filter = { "httpdns", hosts = { ["1.2.3.4"] = "x.example" } } }
  j:receive("http://1.2.3.4/", "a=1")
  return j:header("http://x.example/")
end)
case("jar save", function() return pcall(function() return jar:save("/nonexistent-dir/jar.txt") end) end)
case("jar load", function() return pcall(function() return jar:load("/nonexistent-dir/jar.txt") end) end)
case("request", function()
  local r = pekit.request{ method = "POST", url = "http://h.example/p", params = { b = 2, a = { 1, 2 } }, policy = "afnetworking",
    headers = { ["X-A"] = "1", Accept = false }, jar = jar }
  return r.method, r.url, r.target, r.body, r.headers, r.headers["content-type"], r:raw(), r:curl(), r:json(), tostring(r)
end)
case("request json body", function() return pekit.request{ method = "PUT", url = "http://h/", json = pekit.ordered{ { "z", 1 }, { "a", pekit.array{} } } }:raw() end)
case("request multipart", function() return pekit.request{ method = "POST", url = "http://h/", boundary = "B", multipart = { { name = "a", value = "1" }, { name = "f", filename = "x.txt", data = "x" } } }:raw() end)
case("request connect", function() return pekit.request{ url = "https://api.example.com/", connect = { ["api.example.com:443"] = "127.0.0.1:8443" } }:curl() end)
case("request policy table", function() return pekit.request{ url = "http://h/", params = { s = "a b" }, policy = { space = "+" } }.url end)
case("request error", function() return pekit.request{ url = "http://h/", parms = {} } end)
case("write_body", function() return pcall(function() return pekit.request{ url = "http://h/", body = "x" }:write_body("/nonexistent-dir/x") end) end)
case("http.get", function() local r = pekit.http.get(base .. "/echo?a=1", { headers = { ["X-T"] = "1" } }) return r.status, r:json().target end)
case("http.post sink", function()
  local chunks = {}
  local r = pekit.http.post(base .. "/echo", { body = "abc", sink = function(chunk) chunks[#chunks + 1] = #chunk end })
  return r.status, #chunks > 0
end)
case("http.send jar", function()
  local j = pekit.cookies.jar{ public_suffixes = false }
  local r = pekit.http.send(pekit.request{ url = base .. "/cookies/set?co=1", jar = j })
  return r.status, j:header(base .. "/")
end)
case("req:send", function() return pekit.request{ url = base .. "/echo" }:send({ timeout = 5 }).status end)
case("http error", function() return pekit.http.get("http://127.0.0.1:9/", { connect_timeout = 1 }) end)
case("url.parse", function() local u = pekit.url.parse("HTTP://H.example:80/a/./b?q#f") return u, u.href, u.host, u.pathname, u.search, u.origin end)
case("url.parse failure", function() return pekit.url.parse("http://h:99999/") end)
case("url.parse base", function() return pekit.url.parse("../c", "http://h/a/b/e").href, pekit.url.parse("x", pekit.url.parse("http://h/a/b")).href end)
case("url setters", function() local u = pekit.url.parse("http://h/") u.pathname = "/p q" u.query = { { "a", "1" } } return u.href, u:resolve("//o/").href end)
case("inspect", function() return pekit.inspect({ b = pekit.set{ 1 }, a = { 1, 2 }, c = pekit.null }) end)
case("values", function() return pekit.ordered{ { "b", 1 } }, pekit.set{ 2, 1 }, pekit.array(), pekit.null end)

local function result(f)
  local packed = table.pack(pcall(f))
  for i = 1, packed.n do packed[i] = pekit.inspect(packed[i]) end
  -- curl says how long a refused connection took ("after 0 ms", "after 1 ms"): not compared.
  return (table.concat(packed, " ", 1, packed.n):gsub("after %d+ ms", "after N ms"))
end

local problems = {}
for _, c in ipairs(cases) do
  local name, f = c[1], c[2]
  local main = result(f)
  local inside = coroutine.wrap(function() return result(f) end)()
  local nested = coroutine.wrap(function() return coroutine.wrap(function() return result(f) end)() end)()
  -- A coroutine that yields between calls: its stack moves under pekit's feet if pekit used the wrong one.
  local co = coroutine.create(function() coroutine.yield(1) local r = result(f) coroutine.yield(r) return r end)
  coroutine.resume(co)
  local _, resumed = coroutine.resume(co)
  if main ~= inside or main ~= nested or main ~= resumed then
    problems[#problems + 1] = name .. "\n  main:      " .. main .. "\n  coroutine: " .. inside .. "\n  nested:    " .. nested .. "\n  resumed:   " .. tostring(resumed)
  end
end
return problems, #cases
