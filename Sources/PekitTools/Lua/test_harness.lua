local pekit, hooks, chunk, options = ...
local G = _G
local type, tostring, select, pairs, ipairs, next = type, tostring, select, pairs, ipairs, next
local setmetatable, getmetatable, error, xpcall, pcall = setmetatable, getmetatable, error, xpcall, pcall
local sformat, sfind, smatch, ssub, concat, sort = string.format, string.find, string.match, string.sub, table.concat, table.sort
local traceback, getinfo, floor, tonumber, max = debug.traceback, debug.getinfo, math.floor, tonumber, math.max
local encode, query, null = pekit.json.encode, pekit.json.query, pekit.null

local tests, befores, afters = {}, {}, {}
local OUTPUT_LIMIT = options.output_limit
local MAX_TIME, REQUEST_TIMEOUT = options.max_time or 0, options.request_timeout
local file_skip, running
local failure_mt = { __name = "pekit.test.failure", __tostring = function(f) return f.where .. ": " .. f.message end }
local skip_mt = { __name = "pekit.test.skip" }

-- Where the caller `level` frames above the caller of `where` is: "file:line", line.
local function where(level)
  local info = getinfo(level + 2, "Sl")
  if info and info.currentline and info.currentline > 0 then return info.short_src .. ":" .. info.currentline, info.currentline end
  return "?", nil
end

function G.test(name, a, b)
  local opts, fn = nil, a
  if type(a) == "table" then opts, fn = a, b end
  if type(name) ~= "string" then error("test: the first argument is the test's name (a string)", 2) end
  if type(fn) ~= "function" then error("test \"" .. name .. "\": expected a function after the name", 2) end
  local _, line = where(1)
  tests[#tests + 1] = { name = name, fn = fn, jar = opts and opts.jar, line = line }
end

local function hook(list, what)
  return function(fn)
    if type(fn) ~= "function" then error(what .. ": expected a function", 2) end
    list[#list + 1] = fn
  end
end
G.before_each, G.after_each = hook(befores, "before_each"), hook(afters, "after_each")

function G.skip(why)
  why = why == nil and "" or tostring(why)
  if running then error(setmetatable({ why = why }, skip_mt), 0) end
  file_skip = why
end

-- fail(message [, at]): fails the running test with `message`, no traceback; it names the
-- caller's line, or `at` ("file:line") where the failure is another file's (a .hurl file's).
function G.fail(message, at)
  if at == nil then
    local w, line = where(1)
    error(setmetatable({ message = tostring(message), where = w, line = line }, failure_mt), 0)
  end
  at = tostring(at)
  error(setmetatable({ message = tostring(message), where = at, line = tonumber(smatch(at, ":(%d+)$")) }, failure_mt), 0)
end

-- Values as a failure shows them: JSON where it can, tostring otherwise.
local function shown(v)
  if v == nil then return "nothing" end
  if type(v) == "string" then return sformat("%q", v):gsub("\\\n", "\\n") end
  local ok, text = pcall(encode, v)
  return ok and text or tostring(v)
end

local function cut(s, n)
  n = n or 200
  if #s <= n then return sformat("%q", s):gsub("\\\n", "\\n") end
  return (sformat("%q", ssub(s, 1, n)):gsub("\\\n", "\\n")) .. sformat("… (%d bytes)", #s)
end

local function fail(message, detail)
  local w, line = where(2)
  error(setmetatable({ message = message, where = w, line = line, detail = detail }, failure_mt), 0)
end

-- What a value is in JSON: a decoded array or object keeps its kind (pekit.array, pekit.ordered);
-- a plain table is an array when its keys are 1..n and it has some, an object otherwise (an
-- empty {} is an object, as pekit.json.encode writes it: pekit.array{} is the empty array).
local function kind(v)
  local t = type(v)
  if t ~= "table" then return t end
  if v == null then return "null" end
  local mt = getmetatable(v)
  if mt == "pekit.array" then return "array" end
  if mt == "pekit.ordered" then return "object" end
  if mt ~= nil then return "table" end
  if next(v) == nil then return "object" end
  local n, count = #v, 0
  for _ in next, v do count = count + 1 end
  return count == n and "array" or "object"
end

-- Deep equality of JSON values: the same kind ([] is not {}), arrays item by item, objects by
-- their keys (order aside), numbers by value.
local function same(a, b)
  if a == b then return true end
  local ka = kind(a)
  if ka ~= kind(b) or (ka ~= "array" and ka ~= "object" and ka ~= "table") then return false end
  if ka == "array" then
    if #a ~= #b then return false end
    for i = 1, #a do if not same(a[i], b[i]) then return false end end
    return true
  end
  for k, v in pairs(a) do if not same(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end

-- A line diff (longest common subsequence) of two lists of lines.
local function diff_lines(a, b)
  local n, m, L = #a, #b, {}
  for i = n + 1, 1, -1 do L[i] = {} for j = m + 1, 1, -1 do
    if i > n or j > m then L[i][j] = 0 elseif a[i] == b[j] then L[i][j] = L[i + 1][j + 1] + 1
    else L[i][j] = max(L[i + 1][j], L[i][j + 1]) end
  end end
  local out, i, j = { "  --- expected", "  +++ got" }, 1, 1
  while i <= n or j <= m do
    -- What was expected and is not there comes first, as a unified diff writes it.
    if i <= n and j <= m and a[i] == b[j] then out[#out + 1] = "    " .. a[i]; i, j = i + 1, j + 1
    elseif i <= n and (j > m or L[i + 1][j] >= L[i][j + 1]) then out[#out + 1] = "  - " .. a[i]; i = i + 1
    else out[#out + 1] = "  + " .. b[j]; j = j + 1 end
  end
  return concat(out, "\n")
end

-- A line diff of two values' pretty JSON.
local function diff(expected, got)
  local function lines(v)
    local ok, text = pcall(encode, v, { pretty = true })
    local out = {}
    for line in ((ok and text or tostring(v)) .. "\n"):gmatch("(.-)\n") do out[#out + 1] = line end
    return out
  end
  return diff_lines(lines(expected), lines(got))
end

-- An HTTP message's lines, each shown as Lua would quote it (CR, LF and other bytes visible).
local function message_lines(bytes)
  local out = {}
  for line in (bytes .. "\r\n"):gmatch("(.-)\r\n") do out[#out + 1] = (sformat("%q", line):gsub("\\\n", "\\n")) end
  return out
end

local function plural(n, word) return n .. " " .. word .. (n == 1 and "" or "s") end

-- Predicates (`is.*` in a test file), as Hurl's asserts have them: each says what it wants in
-- words ("be greater than 3") and tests a value, `present` false where there is none (a JSONPath
-- that selects nothing, a header the response lacks).
local predicate_mt = { __name = "pekit.test.predicate" }
predicate_mt.__tostring = function(p) return "is." .. p.name end
local function predicate(name, wants, test) return setmetatable({ name = name, wants = wants, test = test }, predicate_mt) end
local function is_predicate(v) return getmetatable(v) == predicate_mt end

local is = {}
local function present_and(test) return function(v, present) return present and test(v) end end
local function text_test(name, verb, f)
  is[name] = function(want)
    if type(want) ~= "string" then error(sformat("is.%s: expected a string, got %s", name, type(want)), 2) end
    return predicate(name, verb .. " " .. shown(want), present_and(function(v) return type(v) == "string" and f(v, want) end))
  end
end
text_test("contains", "contain", function(v, w) return sfind(v, w, 1, true) ~= nil end)
text_test("starts_with", "start with", function(v, w) return ssub(v, 1, #w) == w end)
text_test("ends_with", "end with", function(v, w) return #w == 0 or ssub(v, -#w) == w end)
is.matches = function(pattern)
  if type(pattern) ~= "string" then error("is.matches: expected a Lua pattern (a string), got " .. type(pattern), 2) end
  local ok, err = pcall(sfind, "", pattern)
  if not ok then error("is.matches: " .. tostring(err):gsub("^.-:%d+: ", ""), 2) end
  return predicate("matches", "match the Lua pattern " .. shown(pattern), present_and(function(v) return type(v) == "string" and sfind(v, pattern) ~= nil end))
end
is.eq = function(want) return predicate("eq", "be " .. shown(want), present_and(function(v) return same(want, v) end)) end
is.ne = function(want) return predicate("ne", "not be " .. shown(want), function(v, present) return not present or not same(want, v) end) end
local function order_test(name, words, f)
  is[name] = function(want)
    if type(want) ~= "number" and type(want) ~= "string" then error(sformat("is.%s: expected a number or a string, got %s", name, type(want)), 2) end
    return predicate(name, words .. " " .. shown(want), present_and(function(v) return type(v) == type(want) and f(v, want) end))
  end
end
order_test("lt", "be less than", function(v, w) return v < w end)
order_test("le", "be at most", function(v, w) return v <= w end)
order_test("gt", "be greater than", function(v, w) return v > w end)
order_test("ge", "be at least", function(v, w) return v >= w end)
is.includes = function(want)
  return predicate("includes", "include " .. shown(want), present_and(function(v)
    if kind(v) ~= "array" then return false end
    for _, item in ipairs(v) do if same(want, item) then return true end end
    return false
  end))
end
is.exists = predicate("exists", "exist", function(_, present) return present end)
is.missing = predicate("missing", "be missing", function(_, present) return not present end)
is.empty = predicate("empty", "be empty", present_and(function(v)
  local k = kind(v)
  return (k == "string" and v == "") or ((k == "array" or k == "object") and next(v) == nil)
end))
local function kind_test(name, words, f) is[name] = predicate(name, words, present_and(f)) end
kind_test("string", "be a string", function(v) return type(v) == "string" end)
kind_test("number", "be a number", function(v) return type(v) == "number" end)
kind_test("integer", "be an integer", function(v) return math.type(v) == "integer" or (math.type(v) == "float" and v == floor(v) and v == v) end)
kind_test("float", "be a number with a fraction", function(v) return math.type(v) == "float" and v ~= floor(v) end)
kind_test("boolean", "be a boolean", function(v) return type(v) == "boolean" end)
kind_test("null", "be null", function(v) return v == null end)
kind_test("list", "be a list", function(v) return kind(v) == "array" end)
kind_test("object", "be an object", function(v) return kind(v) == "object" end)
kind_test("collection", "be a list or an object", function(v) local k = kind(v) return k == "array" or k == "object" end)
-- count(n) or count(predicate): the items of a list or an object, or a string's bytes.
is.count = function(want)
  local inner = is_predicate(want) and want or is.eq(want)
  if not is_predicate(want) and math.type(want) ~= "integer" then error("is.count: expected a whole number or a predicate, got " .. shown(want), 2) end
  local p = predicate("count", is_predicate(want) and "have a count that would " .. want.wants or "have " .. plural(want, "item"), nil)
  p.test = function(v, present)
    if not present then return false end
    local k, n = kind(v), nil
    if k == "string" then n = #v elseif k == "array" or k == "object" then n = 0 for _ in pairs(v) do n = n + 1 end end
    p.counted = n
    return n ~= nil and inner.test(n, true)
  end
  return p
end
is["not"] = function(p)
  if not is_predicate(p) then error("is.not: expected a predicate (is.…), got " .. type(p), 2) end
  return predicate("not", "not " .. p.wants, function(v, present) return not p.test(v, present) end)
end
G.is = is

-- How an expectation takes what it is given for a text (a body, a header, a Cookie header): a
-- string means "contains" (Hurl's `contains`: not a Lua pattern, so dates, UUIDs and
-- `no-cache` are themselves); `is.eq(s)` is equality, `is.matches(p)` a Lua pattern; a
-- predicate or a function (true to pass; false, or false and why, to fail) as it is.
local function text_predicate(want, what)
  if is_predicate(want) then return want end
  if type(want) == "string" then return is.contains(want) end
  if type(want) == "function" then return want end
  error(sformat("%s: expected a string (contained), a predicate (is.eq, is.matches, …) or a function, got %s", what, type(want)), 3)
end

-- Whether `value` passes `p` (a predicate or a function), and the words for a failure.
local function check(p, value, present)
  if type(p) == "function" then
    local ok, why = p(value)
    if ok then return true end
    local info = getinfo(p, "S")
    local name = sformat("satisfy the function at %s:%d", info.short_src, info.linedefined)
    return false, why ~= nil and name .. " (" .. tostring(why) .. ")" or name
  end
  if p.test(value, present) then return true end
  return false, p.wants, p.counted
end

-- expect(response)
local Response = {}
Response.__index = Response

function Response:status(want)
  local got = self.value.status
  if type(want) == "number" then
    if got ~= want then fail(sformat("expected status %d, got %d", want, got)) end
  elseif type(want) == "string" and smatch(want, "^%dxx$") then
    if floor(got / 100) ~= want:byte(1) - 48 then fail(sformat("expected status %s, got %d", want, got)) end
  elseif type(want) == "string" and smatch(want, "^%d+%-%d+$") then
    local low, high = smatch(want, "^(%d+)%-(%d+)$")
    if got < tonumber(low) or got > tonumber(high) then fail(sformat("expected status %s, got %d", want, got)) end
  elseif type(want) == "table" then
    for _, s in ipairs(want) do if s == got then return self end end
    local names = {}
    for i, s in ipairs(want) do names[i] = tostring(s) end
    local list = #names > 1 and concat(names, ", ", 1, #names - 1) .. " or " .. names[#names] or (names[1] or "")
    fail(sformat("expected status %s, got %d", list, got))
  else
    error("expect(response):status: expected a status, a list of them, \"2xx\" or a range \"200-299\"", 2)
  end
  return self
end

function Response:header(name, want)
  local got = self.value:header(name)
  if want == nil then
    if got == nil then fail(sformat("expected a header %s, the response has none", name)) end
    return self
  end
  local p = text_predicate(want, "expect(response):header")
  local ok, wants = check(p, got, got ~= nil)
  if not ok then
    if got == nil then fail(sformat("expected header %s to %s, the response has none", name, wants)) end
    fail(sformat("expected header %s to %s, got %s", name, wants, shown(got)))
  end
  return self
end

-- The values a JSONPath selects, compared as RFC 9535 has them: a singular query (names and
-- indexes only, §2.3.5) selects at most one node, which is compared; any other query selects a
-- node list, which is compared as a list. Each failure says which of the two it was.
function Response:json(path, want)
  local ok, doc = pcall(self.value.json, self.value)
  if not ok then fail("expected a JSON body: " .. (tostring(doc):gsub("^.-pekit%.json%.decode: ", ""))) end
  local qok, nodes = pcall(query, doc, path)
  if not qok then error(nodes, 2) end
  local singular = pekit.json.is_singular(path)
  local what = singular and path or path .. " (a node list)"
  local got, present
  if singular then got, present = nodes[1], #nodes > 0 else got, present = nodes, true end
  if want == nil then
    if #nodes == 0 then fail(sformat("expected %s to match something, it matches nothing", path)) end
    return self
  end
  local p = (is_predicate(want) or type(want) == "function") and want or is.eq(want)
  local passed, wants, counted = check(p, got, present)
  if not passed then
    if not present then fail(sformat("expected %s to %s, it matches nothing", what, wants)) end
    local detail = is_predicate(p) and p.name == "eq" and type(want) == "table" and type(got) == "table" and diff(want, got) or nil
    local shown_got = counted and sformat("%s (a count of %d)", shown(got), counted) or shown(got)
    fail(sformat("expected %s to %s, got %s", what, wants, shown_got), detail)
  end
  return self
end

function Response:body(want)
  local body = self.value.body
  local p = text_predicate(want, "expect(response):body")
  local ok, wants = check(p, body, true)
  if not ok then fail(sformat("expected the body to %s, got %s", wants, cut(body))) end
  return self
end

function Response:time_under(seconds)
  local took = self.value.timing.total
  if not (took < seconds) then fail(sformat("expected the response in under %g s, it took %.3f s", seconds, took)) end
  return self
end

function Response:redirects(n)
  local got = #self.value.redirects
  if got ~= n then fail(sformat("expected %s, got %d", plural(n, "redirect"), got)) end
  return self
end

function Response:cookie(name)
  local set = {}
  for _, line in ipairs(self.value:header_all("Set-Cookie")) do
    local pair = smatch(line, "^[ \t]*([^;]*)")
    set[#set + 1] = smatch(pair, "^([^=]*)=") or ""
    if set[#set] == name then return self end
  end
  fail(sformat("expected the response to set the cookie %s, it set %s", name, #set == 0 and "none" or concat(set, ", ")))
end

-- expect(jar)
local Jar = {}
Jar.__index = Jar

local function explanation(jar, url)
  local out = {}
  for _, v in ipairs(jar:explain(url)) do out[#out + 1] = "  cookie " .. (v.cookie.name == "" and "(no name)" or v.cookie.name) .. ": " .. v.reason end
  return #out > 0 and concat(out, "\n") or "  (the jar is empty)"
end

function Jar:sends(url, want)
  local got = self.value:header(url)
  local p = want == nil and is.exists or text_predicate(want, "expect(jar):sends")
  local ok, wants = check(p, got, got ~= nil)
  if not ok then
    fail(sformat("expected the jar's Cookie header for %s to %s, it sends %s", url, wants, got and shown(got) or "nothing"), explanation(self.value, url))
  end
  return self
end

function Jar:holds(name)
  local names = {}
  for _, c in ipairs(self.value:all()) do
    if c.name == name then return self end
    names[#names + 1] = c.name
  end
  fail(sformat("expected the jar to hold a cookie %s, it holds %s", name, #names == 0 and "none" or concat(names, ", ")))
end

function Jar:explains(url, rules)
  if rules == nil then
    -- No rules to hold it to: the explanation goes into the test's output, which its report keeps.
    G.print("the jar, for " .. url .. ":\n" .. explanation(self.value, url))
    return self
  end
  local verdicts = {}
  for _, v in ipairs(self.value:explain(url)) do verdicts[v.cookie.name] = v end
  local names = {}
  for name in pairs(rules) do names[#names + 1] = name end
  sort(names)
  for _, name in ipairs(names) do
    local v = verdicts[name]
    if v == nil then fail(sformat("expected a verdict on the cookie %s for %s, the jar holds none of that name", name, url), explanation(self.value, url)) end
    if v.rule ~= rules[name] then
      fail(sformat("expected the cookie %s to be %s for %s, it is %s (%s)", name, rules[name], url, v.rule, v.reason), explanation(self.value, url))
    end
  end
  return self
end

-- expect(request)
local Request = {}
Request.__index = Request

function Request:read_by(server, part)
  local req = self.value
  local text
  if part == "body" then text = req.body or "" else text = smatch(req.url, "%?([^#]*)") or "" end
  local read = pekit.query.decode(text, server)
  return setmetatable({ value = read, server = server, part = part or "query" }, {
    __index = { equals = function(reading, want)
      if not same(want, reading.value) then
        fail(sformat("expected %s to read %s from the %s, it reads %s", reading.server, shown(want), reading.part, shown(reading.value)), diff(want, reading.value))
      end
      return reading
    end } })
end

function Request:same_as_curl(command)
  local ok, theirs = pcall(hooks.curl_raw, command)
  if not ok then error((tostring(theirs):gsub("^pekit test%.curl_raw: ", "")), 2) end
  local ours = self.value:raw()
  if ours ~= theirs then
    fail("expected the bytes curl sends for that command line, the request differs", diff_lines(message_lines(theirs), message_lines(ours)))
  end
  return self
end

function G.expect(value)
  local kind = getmetatable(value)
  if kind == "pekit.cookies.jar" then return setmetatable({ value = value }, Jar) end
  if kind == "pekit.request" then return setmetatable({ value = value }, Request) end
  if type(value) == "table" and type(value.status) == "number" and value.headers ~= nil then return setmetatable({ value = value }, Response) end
  error("expect: expected a response, a cookie jar or a request, got " .. type(value), 2)
end

-- Errors in a test: failures keep their place; anything else gets its message and traceback.
local function handler(e)
  local mt = getmetatable(e)
  if mt == failure_mt or mt == skip_mt then return e end
  -- The harness's own frames (from its xpcall down) say nothing of the test.
  local tb = traceback(nil, 2):gsub("\n\t%[C%]: in function 'xpcall'.*$", "")
  return { message = tostring(e), traceback = tb }
end

-- os.exit in a test file would end pekit itself: the other files would not run and no report
-- would be written, so a failing run could exit 0. Here it is a failure of the test that called
-- it (of the file, at its top level), as pytest takes SystemExit and go test os.Exit; a pcall
-- around it does not undo that. os is one table: whatever reaches it gets this exit.
local exited
G.os.exit = function(code)
  -- The nearest Lua code that led here (pcall(os.exit) is called from C).
  local w, line, level = "?", nil, 1
  repeat w, line = where(level) level = level + 1 until w ~= "?" or level > 20
  local shown_code = code == nil and "" or tostring(code)
  local e = setmetatable({ message = sformat("os.exit(%s) called: a test may not end the run", shown_code), where = w, line = line }, failure_mt)
  exited = exited or e
  error(e, 0)
end

local short_src
local function line_of(e)
  local line = smatch(e.message, "^" .. short_src:gsub("%p", "%%%0") .. ":(%d+):")
  if not line and e.traceback then line = smatch(e.traceback, short_src:gsub("%p", "%%%0") .. ":(%d+):") end
  return tonumber(line)
end

-- A fresh environment for a test: the globals it sets are its own (reads fall through to the
-- file's), so no test leaks globals into the next. Its _ENV upvalue is pointed at a new table.
local getupvalue, upvaluejoin = debug.getupvalue, debug.upvaluejoin
local function isolated(fn)
  for i = 1, 255 do
    local name = getupvalue(fn, i)
    if name == nil then break end
    if name == "_ENV" then
      local env = setmetatable({}, { __index = G })
      upvaluejoin(fn, i, function() return env end, 1)
      break
    end
  end
  return fn
end

local function run_one(t, iteration, count)
  local record = { name = t.name, iteration = iteration, iterations = count, line = t.line }
  -- What the test prints, its last OUTPUT_LIMIT bytes: a test that prints 300 MB keeps a tail,
  -- and how much it dropped, not the whole in memory.
  local output, first, last, kept, cut = {}, 1, 0, 0, 0
  local jar = t.jar or pekit.cookies.jar()
  hooks.begin(jar, short_src .. ": " .. (count > 1 and sformat("%s [%d/%d]", t.name, iteration, count) or t.name))
  local saved_print = G.print
  G.print = function(...)
    local parts = {}
    for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
    local line = concat(parts, "\t") .. "\n"
    last = last + 1
    output[last] = line
    kept = kept + #line
    while kept > OUTPUT_LIMIT and first < last do
      kept, cut = kept - #output[first], cut + #output[first]
      output[first] = nil
      first = first + 1
    end
  end
  running = record
  local context = { name = t.name, iteration = iteration, jar = jar }
  local started = hooks.clock()
  local ok, err = true, nil
  -- --max-time: the hooks before and the test, then the hooks after (cleanup runs even after a
  -- test that ran out of time), each within the limit; the limit set again first thing after.
  hooks.limit(MAX_TIME, sformat("the test ran past --max-time %g s", MAX_TIME))
  for _, h in ipairs(befores) do ok, err = xpcall(h, handler, context) if not ok then break end end
  if ok then ok, err = xpcall(isolated(t.fn), handler, context) end
  hooks.limit(MAX_TIME, sformat("after_each ran past --max-time %g s", MAX_TIME))
  for _, h in ipairs(afters) do
    local hok, herr = xpcall(h, handler, context)
    if ok and not hok then ok, err = hok, herr end
  end
  -- A task the test spawned and nothing waited for ends here, under this test: its output is
  -- this test's, and its failure fails this test (pekit run fails the script so).
  local task_error = hooks.tasks()
  hooks.limit(0)
  if task_error and (ok or getmetatable(err) == skip_mt) then ok, err = false, { message = task_error } end
  record.seconds = hooks.clock() - started
  if exited then ok, err, exited = false, exited, nil end
  running = nil
  G.print = saved_print
  record.output = concat(output, "", first, last)
  if #record.output > OUTPUT_LIMIT then
    -- One line longer than the limit: its end.
    cut = cut + #record.output - OUTPUT_LIMIT
    record.output = ssub(record.output, -OUTPUT_LIMIT)
  end
  record.output_cut = cut
  local mt = getmetatable(err)
  if ok then
    record.status = "passed"
  elseif mt == skip_mt then
    record.status, record.message = "skipped", err.why
  elseif mt == failure_mt then
    record.status, record.message, record.line = "failed", err.where .. ": " .. err.message, err.line or t.line
    record.detail = err.detail
  else
    record.status, record.message, record.traceback = "failed", err.message, err.traceback
    record.line = line_of(err) or t.line
  end
  if record.status == "failed" or (options.all_exchanges and record.status == "passed") then record.exchange = hooks.exchange() end
  if record.status == "failed" then
    -- A send cut short by the run's own limit says which limit that was.
    if REQUEST_TIMEOUT and sfind(record.message or "", "(curl error 28)", 1, true) then
      record.message = record.message .. sformat(" (pekit test gives a send that names no timeout %g s: --timeout)", REQUEST_TIMEOUT)
    end
  end
  hooks.finish()
  return record
end

short_src = options.short_src
local loaded, load_error = xpcall(chunk, handler)
if exited then loaded, load_error, exited = false, { message = tostring(exited) }, nil end
if not loaded then
  return { error = load_error.message, traceback = load_error.traceback, line = line_of(load_error) }
end
local records = {}
for iteration = 1, options.iterations do
  for _, t in ipairs(tests) do
    if options.filter == nil or sfind(t.name, options.filter) then
      if file_skip then
        records[#records + 1] = { name = t.name, iteration = iteration, iterations = options.iterations, line = t.line,
                                  status = "skipped", message = file_skip, seconds = 0, output = "" }
      else
        if hooks.stopped() then return { tests = records, stopped = true } end
        local record = run_one(t, iteration, options.iterations)
        records[#records + 1] = record
        if record.status == "failed" and options.fail_fast then hooks.stop() return { tests = records, stopped = true } end
      end
    end
  end
end
return { tests = records }
