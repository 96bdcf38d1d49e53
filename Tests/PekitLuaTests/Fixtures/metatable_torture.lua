-- Gives every table pekit reads (parameters, options, headers, policy fields, parts, mappings,
-- filters) metatables whose every metamethod errors, yields or loops, and checks that pekit
-- gives exactly the answer it gives for the same tables without them: pekit reads its
-- arguments raw, so none of these may run (one that loops would hang the test). Returns the
-- differences and the number of comparisons.
local behaviours = {
  error = function() error("metamethod ran", 0) end,
  yield = function() coroutine.yield("metamethod ran") end,
  loop = function() while true do end end,
}
local events = { "__index", "__newindex", "__pairs", "__len", "__tostring", "__eq", "__lt", "__le", "__concat", "__call", "__close" }

local function hostile(t, behaviour)
  local mt = {}
  for _, e in ipairs(events) do mt[e] = behaviour end
  return setmetatable(t, mt)
end

-- Each case builds its arguments with `wrap` applied to every table pekit reads.
local cases = {
  { "query.encode params", function(w) return pekit.query.encode(w{ b = w{ 1, 2 }, a = w{ x = "y" } }, "afnetworking") end },
  { "query.encode policy table", function(w) return pekit.query.encode({ a = 1 }, w{ policy = "qs", arrays = "indices", space = "+" }) end },
  { "query.pairs", function(w) return pekit.query.pairs(w{ a = w{ 1, pekit.null } }, "php") end },
  { "query.decode options", function(w) return pekit.query.decode("a[]=1&b=2", w{ server = "qs", depth = 3, ordered = true }) end },
  { "query.compare list", function(w) return pekit.query.compare(w{ s = "a b" }, w{ "rfc3986", "form" }) end },
  { "query.check", function(w) return pekit.query.check(w{ a = w{ 1, 2 } }, w{ policy = "qs" }, "rack") end },
  { "encode options", function(w) return pekit.encode("a b/", w{ space = "+", allowed = "/", lower = true }) end },
  { "decode options", function(w) return pekit.decode("a+b%zz", w{ plus = true, strict = false }) end },
  { "json.encode", function(w) return pekit.json.encode(w{ a = w{ 1, 2 }, b = w{ c = true } }) end },
  { "ordered values", function(w) return pekit.query.encode(pekit.ordered{ { "b", w{ 1 } }, { "a", 2 } }, "qs") end },
  { "policy.define", function(w) return pekit.policy.define(w{ name = "torture", extends = "rfc3986", allowed = "[]",
      headers = w{ ["X-A"] = "1" }, methods_in_query = w{ "GET" } }) end },
  { "cookies.jar options", function(w)
      local j = pekit.cookies.jar(w{ public_suffixes = false, now = 100 })
      j:receive("https://x.example/", w{ "a=1", "b=2; Secure" })
      return j:header("https://x.example/", w{ http_only = true, same_site = "same-site" })
    end },
  { "jar:set", function(w)
      local j = pekit.cookies.jar{ public_suffixes = false, now = 0 }
      j:set(w{ name = "n", value = "v", domain = "x.example", path = "/" })
      return j:header("http://x.example/")
    end },
  { "jar plugin filter options", function(w)
      local j = pekit.cookies.jar{ public_suffixes = false, filter = w{ "httpdns", hosts = w{ ["1.2.3.4"] = "x.example" } } }
      j:receive("http://1.2.3.4/", "a=1")
      return j:header("http://x.example/")
    end },
  { "request", function(w)
      local r = pekit.request(w{ method = "POST", url = "http://h/", params = w{ a = w{ 1 } }, headers = w{ ["X-A"] = "1" },
        policy = w{ space = "+" }, auth = w{ user = "u", password = "p" }, connect = w{ ["h:80"] = "127.0.0.1:8080" } })
      return r:raw(), r:curl()
    end },
  { "request multipart", function(w)
      return pekit.request(w{ method = "POST", url = "http://h/", boundary = "B",
        multipart = w{ w{ name = "a", value = "1" }, w{ name = "f", data = "x", filename = "f.txt" } } }):raw()
    end },
  { "request json", function(w) return pekit.request(w{ method = "PUT", url = "http://h/", json = w{ a = w{ b = pekit.null } } }):raw() end },
  { "send options", function(w) return pcall(pekit.http.get, "http://127.0.0.1:9/", w{ connect_timeout = 1, follow = false, headers = w{ A = "b" } }) end },
}

local function run(f, wrap)
  local packed = table.pack(pcall(f, wrap))
  for i = 1, packed.n do packed[i] = pekit.inspect(packed[i]) end
  -- curl says how long a refused connection took ("after 0 ms", "after 1 ms"): not compared.
  return (table.concat(packed, " ", 1, packed.n):gsub("after %d+ ms", "after N ms"))
end

local problems, comparisons = {}, 0
for _, case in ipairs(cases) do
  local plain = run(case[2], function(t) return t end)
  for name, behaviour in pairs(behaviours) do
    local wrapped = run(case[2], function(t) return hostile(t, behaviour) end)
    local inside = coroutine.wrap(function() return run(case[2], function(t) return hostile(t, behaviour) end) end)()
    comparisons = comparisons + 2
    if wrapped ~= plain or inside ~= plain then
      problems[#problems + 1] = case[1] .. " with metamethods that " .. name .. ":\n  plain:   " .. plain .. "\n  hostile: " .. wrapped .. "\n  in a coroutine: " .. tostring(inside)
    end
  end
end
return problems, comparisons
