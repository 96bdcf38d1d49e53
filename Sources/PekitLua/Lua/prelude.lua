local pekit, lists = ...
local G = _G
local string, table, math, utf8, coroutine, os, debug = string, table, math, utf8, coroutine, os, debug
local type, pairs, ipairs, next, error, tostring, select = type, pairs, ipairs, next, error, tostring, select
local setmetatable, rawequal, rawget, rawlen = setmetatable, rawequal, rawget, rawlen
local getrawmetatable = debug.getmetatable
-- Captured, and never called as methods: a script may break the string metatable or `string`.
local sformat, sbyte, schar, concat, sort = string.format, string.byte, string.char, table.concat, table.sort
local sgsub, smatch, sfind, slower, ssub = string.gsub, string.match, string.find, string.lower, string.sub
local utf8len, mathtype = utf8.len, math.type

-- jar:receive's `stored` lists wait for their first read to make their cookie tables
-- (cookie_list.c): their metamethods see indexing, #, pairs and assignment; what reaches a
-- table raw (next, the raw functions, the metatable functions, inspect, pekit.array and
-- pekit.ordered) makes them first, so no reader sees a list before its tables are there.
local pending, settle = lists.pending, lists.settle
local function settled(t) if pending[t] then settle(t) end return t end
-- The base library's rawget, rawset, rawlen, getmetatable and setmetatable, in C, making such a
-- list first (the prelude keeps the originals: its own tables are never such lists).
for name, f in next, lists.globals do G[name] = f end

local null_mt = { __name = "pekit.null", __metatable = "pekit.null",
  __tostring = function() return "pekit.null" end,
  __index = function(_, k) error("attempt to index pekit.null (field '" .. tostring(k) .. "')", 2) end,
  __newindex = function() error("pekit.null is read-only", 2) end }
local null = setmetatable({}, null_mt)

-- Ordered tables are plain tables (t.k, t.k = v, t.k = nil, next, rawget behave as on any
-- table) whose key order is kept beside them: orders[t] = { keys = {k1, k2, …}, pos = {[k] = i},
-- n = #keys }. A key absent from the table is when __newindex runs: it goes to the end; a key
-- set to nil is skipped from then on, and one added again goes to the end (as in JavaScript and
-- Python). A slot whose key moved is false. Swift reads the same structure (LuaOrdered.swift).
local ordered_mt = { __name = "pekit.ordered", __metatable = "pekit.ordered" }
local orders = setmetatable({}, { __mode = "k" })

local function order_of(t)
  local o = orders[t]
  if o == nil then o = { keys = {}, pos = {}, n = 0 }; orders[t] = o end
  return o
end

-- Drops the slots of moved and removed keys (amortised: when the list has doubled).
local function compact(t, o)
  local keys, pos, n = {}, {}, 0
  for i = 1, o.n do
    local k = o.keys[i]
    if k ~= false and (t == nil or rawget(t, k) ~= nil) and pos[k] == nil then n = n + 1; keys[n] = k; pos[k] = n end
  end
  o.keys, o.pos, o.n, o.compacted = keys, pos, n, n
end

local function append_key(o, k, t)
  local keys, pos = o.keys, o.pos
  local old = pos[k]
  if old then keys[old] = false end
  local n = o.n + 1
  o.n = n
  keys[n] = k
  pos[k] = n
  if n > 64 and n > 2 * (o.compacted or 0) then compact(t, o) end
end

-- The keys of an ordered table in order: those recorded (still present), then any set with
-- rawset behind the order's back, sorted.
local function ordered_keys(t)
  local out = {}
  local o = orders[t]
  local pos = o and o.pos or {}
  if o then
    local keys = o.keys
    for i = 1, o.n do
      -- A slot is current when its key's position is that slot (a moved key's old one is false).
      local k = keys[i]
      if k and pos[k] == i and rawget(t, k) ~= nil then out[#out + 1] = k end
    end
  end
  local extra = {}
  for k in next, t do if pos[k] == nil then extra[#extra + 1] = k end end
  if #extra > 0 then
    sort(extra, function(a, b)
      local ta, tb = type(a), type(b)
      if ta ~= tb then return ta < tb end
      if ta == "number" or ta == "string" then return a < b end
      return tostring(a) < tostring(b)
    end)
    for _, k in ipairs(extra) do out[#out + 1] = k end
  end
  return out
end

ordered_mt.__newindex = function(t, k, v)
  if type(k) ~= "string" and mathtype(k) ~= "integer" then
    error(sformat("pekit.ordered: a key must be a string or an integer, not %s", k == nil and "nil" or type(k)), 2)
  end
  if v ~= nil then
    rawset(t, k, v)
    append_key(order_of(t), k, t)
  end
end
ordered_mt.__pairs = function(t)
  local keys, i = ordered_keys(t), 0
  return function()
    while true do
      i = i + 1
      local k = keys[i]
      if k == nil then return nil end
      local v = rawget(t, k)
      if v ~= nil then return k, v end
    end
  end, t, nil
end
-- next() walks an ordered table in its remembered order too, as pairs does (scripts and
-- libraries write `next(t) == nil` and `for k, v in next, t`); any other table as Lua's own. The
-- order of a walk is taken when it starts (next(t) or next(t, nil)); a key added during the walk
-- is not visited, as Lua leaves that undefined.
local walks = setmetatable({}, { __mode = "k" })
local function ordered_walk(t)
  local keys, pos = ordered_keys(t), {}
  for i, k in ipairs(keys) do pos[k] = i end
  local walk = { keys = keys, pos = pos }
  walks[t] = walk
  return walk
end
G.next = function(t, k)
  if k == nil and pending[t] then settle(t) end
  if type(t) == "table" and orders[t] then
    local walk = walks[t]
    if k == nil or walk == nil then walk = ordered_walk(t) end
    local i = 0
    if k ~= nil then
      i = walk.pos[k]
      if i == nil then i = ordered_walk(t).pos[k]; walk = walks[t] end
      if i == nil then error("invalid key to 'next'", 2) end
    end
    while true do
      i = i + 1
      local key = walk.keys[i]
      if key == nil then return nil end
      local v = rawget(t, key)
      if v ~= nil then return key, v end
    end
  end
  return next(t, k)
end
local set_mt = { __name = "pekit.set", __metatable = "pekit.set" }
local array_mt = { __name = "pekit.array", __metatable = "pekit.array" }

local function argerror(fname, n, expected, got)
  error(sformat("bad argument #%d to '%s' (%s expected, got %s)", n, fname, expected, got == nil and "no value" or type(got)), 3)
end

function pekit.ordered(list)
  if list == nil then list = {} end
  if type(list) ~= "table" then argerror("pekit.ordered", 1, "list of {key, value} pairs", list) end
  local n = rawlen(settled(list))
  -- A table written as {a = 1} has no order to keep: say so rather than drop its fields.
  for k in next, list do
    if mathtype(k) ~= "integer" or k < 1 or k > n then
      error(sformat("pekit.ordered: field '%s' is not in the list; Lua forgets the order of {a = 1, b = 2}, so write pekit.ordered{ {\"a\", 1}, {\"b\", 2} }", tostring(k)), 2)
    end
  end
  local out, o, first = {}, { keys = {}, pos = {}, n = 0 }, {}
  for i = 1, n do
    local pair = rawget(list, i)
    if type(pair) ~= "table" then error(sformat("pekit.ordered: entry %d must be a {key, value} pair, not a %s", i, type(pair)), 2) end
    local k = rawget(pair, 1)
    if type(k) ~= "string" and mathtype(k) ~= "integer" then
      error(sformat("pekit.ordered: entry %d: the key must be a string or an integer, not %s", i, k == nil and "nil" or type(k)), 2)
    end
    local v = rawget(pair, 2)
    if v == nil then v = null end
    -- A table holds a key once: a second one would silently replace the first.
    if first[k] then
      error(sformat("pekit.ordered: entries %d and %d both have the key %s; a table holds a key once (a list of {key, value} pairs, as params or headers take, may repeat one)",
                    first[k], i, type(k) == "string" and sformat("%q", k) or tostring(k)), 2)
    end
    first[k] = i
    append_key(o, k)
    rawset(out, k, v)
  end
  orders[out] = o
  return setmetatable(out, ordered_mt)
end

function pekit.set(list)
  if type(list) ~= "table" then argerror("pekit.set", 1, "table", list) end
  local out = {}
  for i, v in ipairs(list) do out[i] = v end
  return setmetatable(out, set_mt)
end

function pekit.array(t)
  if t == nil then t = {} end
  if type(t) ~= "table" then argerror("pekit.array", 1, "table", t) end
  if getrawmetatable(settled(t)) ~= nil then error("pekit.array: the table already has a metatable", 2) end
  return setmetatable(t, array_mt)
end

pekit.null = null

-- The pretty printer used by the REPL and by pekit.inspect.
local keywords = {}
for w in ("and break do else elseif end false for function goto if in local nil not or repeat return then true until while"):gmatch("%a+") do keywords[w] = true end

local function quote(s)
  local out = sgsub(s, '[%c"\\\128-\255]', function(c)
    local b = sbyte(c)
    if c == '"' then return '\\"' elseif c == "\\" then return "\\\\"
    elseif c == "\n" then return "\\n" elseif c == "\r" then return "\\r" elseif c == "\t" then return "\\t"
    elseif b >= 128 then return c
    else return sformat("\\%d", b) end
  end)
  if utf8len(s) == nil then  -- not UTF-8: escape the high bytes too, so the terminal shows them
    out = sgsub(out, "[\128-\255]", function(c) return sformat("\\x%02X", sbyte(c)) end)
  end
  return '"' .. out .. '"'
end

local function keyorder(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

local data_mts = {}
local function inspect(value, maxdepth, fold)
  maxdepth = maxdepth or 16
  local path = {}
  local function fmt(v, depth, indent)
    local t = type(v)
    if t == "string" then
      -- The REPL folds a long string: its start, and how long it is.
      if fold and #v > 400 then
        local head = ssub(v, 1, 200)
        while #head > 0 and utf8len(head) == nil and #head > 196 do head = ssub(head, 1, -2) end
        return quote(head) .. sformat(" … (%d bytes)", #v)
      end
      return quote(v)
    end
    if t == "number" then return mathtype(v) == "integer" and sformat("%d", v) or tostring(v) end
    local mt = (t == "table" or t == "userdata") and getrawmetatable(settled(v)) or nil
    if mt == null_mt then return "pekit.null" end
    -- pekit's handles and responses say what they are in one line; other values with a
    -- __tostring (a script's own classes) print as it says; a __name is shown with the table.
    if mt and not data_mts[mt] then
      local summary = rawget(mt, "__summary")
      if summary then return summary(v) end
      if rawget(mt, "__tostring") then return tostring(v) end
    end
    if t ~= "table" then return tostring(v) end
    if path[v] then return "<cycle>" end
    if depth >= maxdepth then return "{...}" end
    path[v] = true
    local items = {}
    local inner = indent .. "  "
    if mt == ordered_mt then
      for _, k in ipairs(ordered_keys(v)) do
        items[#items + 1] = "{" .. fmt(k, depth + 1, inner) .. ", " .. fmt(rawget(v, k), depth + 1, inner) .. "}"
      end
    else
      local n = rawlen(v)
      for i = 1, n do items[#items + 1] = fmt(rawget(v, i), depth + 1, inner) end
      local keys = {}
      for k in next, v do
        if not (mathtype(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
      end
      sort(keys, keyorder)
      for _, k in ipairs(keys) do
        local ks = (type(k) == "string" and smatch(k, "^[%a_][%w_]*$") and not keywords[k]) and k or ("[" .. fmt(k, depth + 1, inner) .. "]")
        items[#items + 1] = ks .. " = " .. fmt(rawget(v, k), depth + 1, inner)
      end
    end
    path[v] = nil
    local name = mt and not data_mts[mt] and rawget(mt, "__name")
    local prefix = (mt == ordered_mt and "pekit.ordered") or (mt == set_mt and "pekit.set") or (mt == array_mt and "pekit.array")
      or (type(name) == "string" and name .. " ") or ""
    if #items == 0 then return prefix .. "{}" end
    local flat = prefix .. "{ " .. concat(items, ", ") .. " }"
    if #flat <= 72 and not sfind(flat, "\n", 1, true) then return flat end
    return prefix .. "{\n" .. inner .. concat(items, ",\n" .. inner) .. "\n" .. indent .. "}"
  end
  return fmt(value, 0, "")
end

function pekit.inspect(value, options)
  local depth = type(options) == "table" and options.depth or nil
  return inspect(value, depth)
end

-- Locking a sandboxed state down (plugins, run --sandbox): an allow-list, as Redis's
-- script_lua.c keeps one. No io, no os but the clock, no load/loadfile/dofile/require, no
-- debug, no package, no string.dump, no collectgarbage. Runs once, after the modules are set up.
local allowed_globals = { "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber",
  "tostring", "type", "xpcall", "rawequal", "rawlen", "rawget", "rawset", "setmetatable", "getmetatable",
  "print", "_VERSION", "_G", "string", "table", "math", "utf8", "coroutine", "os", "pekit" }
local function lockdown(plugin_print, strict)
  local place = strict and "in a plugin" or "in a sandboxed script"
  local keep = {}
  for _, name in ipairs(allowed_globals) do keep[name] = true end
  local osclock = { time = os.time, clock = os.clock, date = os.date, difftime = os.difftime }
  local safe_getmetatable, setmetatable = G.getmetatable, G.setmetatable
  for name in next, G do if not keep[name] then G[name] = nil end end
  G.os = osclock
  -- The string metatable indexes `string`: dump goes from there too, so ("").dump is nil.
  string.dump = nil
  G.getmetatable = function(v)
    if type(v) == "string" then return nil end
    return safe_getmetatable(v)
  end
  local loaded = debug.getregistry()._LOADED
  for name in next, loaded do if not keep[name] then loaded[name] = nil end end
  loaded.os = osclock
  -- Lua runs finalizers with hooks off, so a __gc that loops could never be stopped.
  G.setmetatable = function(t, mt)
    if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
      error("setmetatable: __gc is not allowed " .. place .. " (a finalizer cannot be stopped)", 2)
    end
    return setmetatable(t, mt)
  end
  if plugin_print then G.print = plugin_print end
  if strict then
    setmetatable(G, { __index = function(_, k) error(sformat("undefined global '%s'", tostring(k)), 2) end })
  end
end

-- Request headers: a list of {name, value}, also indexable by name in any case (first match).
local headers_mt = { __name = "pekit.headers", __metatable = "pekit.headers" }
headers_mt.__index = function(t, k)
  if type(k) ~= "string" then return nil end
  local lower = slower(k)
  for i = 1, rawlen(t) do local f = rawget(t, i); if slower(f[1]) == lower then return f[2] end end
end

-- Responses of pekit.http: plain tables with a few methods.
local response_methods = {}
-- r.json() (a dot) passes no response: say how to call it rather than fail inside.
local function is_response(r, method)
  if type(r) ~= "table" or getmetatable(r) ~= "pekit.response" then
    error(sformat("%s is a method of a response: call it with a colon, r:%s", method:match("^[%w_]+"), method), 3)
  end
end
function response_methods:header(name) is_response(self, "header(name)") return self.headers[name] end
function response_methods:header_all(name)
  is_response(self, "header_all(name)")
  local out, lower = {}, slower(name)
  local headers = rawget(self, "headers")
  for i = 1, rawlen(headers) do local f = rawget(headers, i); if slower(f[1]) == lower then out[#out + 1] = f[2] end end
  return out
end
function response_methods:json() is_response(self, "json()") return pekit.json.decode(self.body) end
-- The body as UTF-8 text: converted from the charset Content-Type names (none, utf-8, us-ascii: as it is).
function response_methods:text()
  is_response(self, "text()")
  local charset = smatch(slower(self.headers["content-type"] or ""), "charset%s*=%s*\"?([%w_.:-]+)")
  if charset == nil or charset == "utf-8" or charset == "utf8" or charset == "us-ascii" then return self.body end
  return pekit.text.decode(self.body, charset)
end
local response_mt = { __name = "pekit.response", __metatable = "pekit.response", __index = response_methods,
  __tostring = function(r) return sformat("response %d %s", r.status, r.url) end,
  __summary = function(r)
    return sformat("pekit.response: %d %s, %d bytes, %s %s", rawget(r, "status") or 0, rawget(r, "reason") or "",
      #(rawget(r, "body") or ""), rawget(r, "method") or "?", rawget(r, "url") or "?")
  end }
-- A failed send in a batch: {error = message, method =, url =, code =}.
local error_mt = { __name = "pekit.error", __metatable = "pekit.error",
  __tostring = function(e) return rawget(e, "error") end,
  __summary = function(e) return "pekit.error: " .. tostring(rawget(e, "error")) end }
for _, mt in ipairs({ ordered_mt, set_mt, array_mt, headers_mt }) do data_mts[mt] = true end

return { null_mt = null_mt, ordered_mt = ordered_mt, orders = orders, set_mt = set_mt, array_mt = array_mt,
         null = null, lockdown = lockdown, inspect = inspect, headers_mt = headers_mt,
         response_mt = response_mt, error_mt = error_mt }
