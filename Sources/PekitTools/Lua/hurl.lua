-- What a test made from a Hurl file runs (pekit test FILE.hurl, pekit import hurl FILE.hurl): an
-- entry's request sent as Hurl sends it (hurl.dev, packages/hurl/src/http/client.rs: query and
-- form values escaped as curl_easy_escape does, names as written; [Cookies] after the jar's;
-- a body's implicit Content-Type), then its captures and asserts, the queries, filters and
-- predicates read as Hurl's docs define them. Variables are typed as Hurl's are (a capture keeps
-- its JSON type; --var text is a number, a boolean or null when it reads as one).
local M = {}
local source, root, jar = "?", ".", nil
local vars, last_done = {}, 0
local null = pekit.null
local json_decode, json_encode, json_query = pekit.json.decode, pekit.json.encode, pekit.json.query
local re = pekit.regex

local T_mt, X_mt = { __name = "hurl.template" }, { __name = "hurl.placeholder" }
local Regex_mt, Bytes_mt = { __name = "hurl.regex" }, { __name = "hurl.bytes" }
local File_mt, Multi_mt = { __name = "hurl.file" }, { __name = "hurl.multiline" }
local Date_mt = { __name = "hurl.date" }

function M.t(parts) return setmetatable(parts, T_mt) end
function M.x(name, line, filters, json) return setmetatable({ name = name, line = line, filters = filters or {}, json = json }, X_mt) end
function M.regex(p) return setmetatable({ pattern = p }, Regex_mt) end
function M.bytes(b) return setmetatable({ bytes = b }, Bytes_mt) end
function M.file(name) return setmetatable({ name = name }, File_mt) end
function M.multiline(text, kind) return setmetatable({ text = text, kind = kind }, Multi_mt) end
local function date(seconds) return setmetatable({ seconds = seconds }, Date_mt) end

-- A failure at a line of the Hurl file (the harness's fail: no traceback, the .hurl line named).
local function fail(line, message)
  -- Line 0: an option of the command line (--hurl-option).
  if line == 0 then _G.fail("--hurl-option: " .. message) end
  _G.fail(message, source .. ":" .. line)
end

-- Hurl's typing of a --variable value.
local function typed(text)
  if #text >= 2 and text:sub(1, 1) == '"' and text:sub(-1) == '"' then return text:sub(2, -2) end
  if text == "null" then return null end
  if text == "true" then return true end
  if text == "false" then return false end
  -- An integer past 64 bits stays the text it is (it is written back the same).
  if text:find("^%-?%d+$") then return math.tointeger(tonumber(text)) or text end
  if text:find("^%-?%d+%.%d+$") then return tonumber(text) + 0.0 end
  return text
end

-- The [Options] lines every entry has first (pekit test --hurl-option, Hurl's command line), the
-- entries to run, whether asserts count.
local defaults, run_only, ignore_asserts = {}, {}, false

function M.setup(path, directory, cookie_jar)
  source, root, jar = path, directory, cookie_jar
  for name, value in pairs(pekit.vars) do
    if name == "hurl-options" then
      for item in value:gmatch("[^\n]+") do
        local n, v = item:match("^([^=]+)=(.*)$")
        defaults[#defaults + 1] = { n, v, 0, cli = true }
      end
    elseif name ~= "http-client-env" then
      vars[name] = typed(value)
    end
  end
  -- The command line's own options (Hurl's --cookie, --from-entry, --to-entry, --ignore-asserts).
  local kept = {}
  for _, opt in ipairs(defaults) do
    if opt[1] == "cookie" then
      local ok, err = pcall(jar.load, jar, opt[2])
      if not ok then _G.fail("--hurl-option cookie=" .. opt[2] .. ": " .. tostring(err)) end
    elseif opt[1] == "from-entry" or opt[1] == "to-entry" then
      run_only[opt[1]] = math.tointeger(tonumber(opt[2])) or _G.fail("--hurl-option " .. opt[1] .. ": expected an entry's number")
    elseif opt[1] == "ignore-asserts" then
      ignore_asserts = opt[2] == "true"
    else
      kept[#kept + 1] = opt
    end
  end
  defaults = kept
end

local function kind(v)
  local mt = getmetatable(v)
  if mt == Bytes_mt then return "bytes" end
  if mt == Date_mt then return "date" end
  if v == null then return "null" end
  local t = type(v)
  if t == "table" then
    if mt == "pekit.array" then return "list" end
    if mt == "pekit.ordered" or next(v) == nil then return "object" end
    local n, count = #v, 0
    for _ in next, v do count = count + 1 end
    return count == n and "list" or "object"
  end
  if t == "number" then return math.type(v) end
  return t
end

-- A value as text, as Hurl renders a placeholder.
local function render(v, line)
  local k = kind(v)
  if k == "string" then return v end
  if k == "integer" then return ("%d"):format(v) end
  if k == "float" then return tostring(v) end
  if k == "boolean" then return v and "true" or "false" end
  if k == "null" then return "null" end
  if k == "date" then
    -- As Hurl writes a date (RFC 3339, microseconds, UTC).
    local whole = math.floor(v.seconds)
    return os.date("!%Y-%m-%dT%H:%M:%S", whole) .. ("%.6f"):format(v.seconds - whole):sub(2) .. "Z"
  end
  fail(line, "a " .. k .. " cannot be written into text")
end

local function shown(v)
  local k = kind(v)
  if k == "string" then return ("%q"):format(v):gsub("\\\n", "\\n") end
  if k == "bytes" then return "hex," .. (v.bytes:gsub(".", function(c) return ("%02x"):format(c:byte()) end)) .. ";" end
  if k == "date" then return pekit.time.format(v.seconds, "iso8601") end
  if k == "list" or k == "object" then
    local ok, text = pcall(json_encode, v)
    return ok and text or tostring(v)
  end
  if v == nil then return "none" end
  return render(v, 0)
end

local filters = {}
local function apply(value, list, line)
  for _, f in ipairs(list or {}) do
    local run = filters[f[1]]
    if not run then fail(line, "the filter " .. f[1] .. " is not one pekit runs") end
    if value == nil then fail(line, "the filter " .. f[1] .. " has no value to read (the query found nothing)") end
    value = run(value, line, table.unpack(f, 2))
  end
  return value
end

local function uuid()
  local b = { pekit.crypto.random(16):byte(1, 16) }
  b[7] = (b[7] & 0x0F) | 0x40
  b[9] = (b[9] & 0x3F) | 0x80
  return ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x"):format(table.unpack(b))
end

-- A placeholder's value, typed.
local function expression(x)
  local v
  if x.name == "newUuid" then v = uuid()
  elseif x.name == "newDate" then v = date(pekit.time.now())
  else
    v = vars[x.name]
    if v == nil then
      fail(x.line, ("the variable {{%s}} is not set (Hurl's --variable: --var %s=VALUE here; a capture or `variable:` option of an earlier entry)"):format(x.name, x.name))
    end
  end
  return apply(v, x.filters, x.line)
end

local function text_of(template, line)
  if type(template) == "string" then return template end
  local out = {}
  for i, part in ipairs(template) do
    if type(part) == "string" then out[i] = part else
      local s = render(expression(part), part.line)
      if part.json then s = json_encode(s):sub(2, -2) end
      out[i] = s
    end
  end
  return table.concat(out)
end

local function read_file(name, line)
  local path = name:sub(1, 1) == "/" and name or root .. "/" .. name
  local f = io.open(path, "rb")
  if not f then fail(line, "cannot read " .. path .. " (file," .. name .. ";)") end
  local bytes = f:read("a")
  f:close()
  return bytes
end

-- A GraphQL query (and its variables' JSON) as the JSON body Hurl sends for it.
local function graphql(text, variables, line)
  local body = '{"query":' .. json_encode((text:gsub("%s+$", "")))
  if variables then
    local ok, decoded = pcall(json_decode, variables)
    if not ok then fail(line, "the GraphQL variables are not JSON") end
    body = body .. ',"variables":' .. json_encode(decoded)
  end
  return body .. "}"
end

-- A ``` string's bytes: GraphQL as its JSON body, hex and base64 decoded, others as written.
local function multiline(text, kind_, variables, line)
  if kind_ == "graphql" then return graphql(text, variables, line) end
  if kind_ == "hex" or kind_ == "base64" then
    local ok, bytes = pcall(pekit.crypto[kind_].decode, (text:gsub("%s", "")))
    if not ok then fail(line, "the ```" .. kind_ .. " string is not " .. kind_) end
    return bytes
  end
  return text
end

-- A predicate's value or a filter's argument, evaluated.
local function value_of(v, line)
  local mt = getmetatable(v)
  if mt == T_mt then return text_of(v, line) end
  if mt == X_mt then return expression(v) end
  if mt == Multi_mt then
    local bytes = multiline(text_of(v.text, line), v.kind, nil, line)
    return (v.kind == "hex" or v.kind == "base64") and M.bytes(bytes) or bytes
  end
  if mt == File_mt then return M.bytes(read_file(text_of(v.name, line), line)) end
  return v
end

-- Dates: Hurl's formats (chrono's strftime) for toDate and format.
local months = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" }
local days = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" }
local function days_from_civil(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = (y >= 0 and y or y - 399) // 400
  local yoe = y - era * 400
  local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
  local doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
  return era * 146097 + doe - 719468
end

local function parse_date(text, format, line)
  if format == "%+" then
    local ok, t = pcall(pekit.time.parse, text, "iso8601")
    if not ok then fail(line, ("toDate: %q is not an ISO 8601 date"):format(text)) end
    return date(t)
  end
  local f = { Y = 1970, m = 1, d = 1, H = 0, M = 0, S = 0, frac = 0, offset = 0 }
  local pos, i = 1, 1
  local function take(pattern, what)
    local s, e = text:find("^" .. pattern, pos)
    if not s then fail(line, ("toDate: %q does not match %q (at %s)"):format(text, format, what)) end
    local got = text:sub(s, e)
    pos = e + 1
    return got
  end
  while i <= #format do
    local c = format:sub(i, i)
    if c == "%" then
      local d = format:sub(i + 1, i + 1)
      i = i + 2
      if d == "Y" then f.Y = tonumber(take("[+-]?%d%d%d%d+", "%Y"))
      elseif d == "m" then f.m = tonumber(take("%d%d?", "%m"))
      elseif d == "d" or d == "e" then if d == "e" then take(" ?", "%e") end f.d = tonumber(take("%d%d?", "%d"))
      elseif d == "H" then f.H = tonumber(take("%d%d?", "%H"))
      elseif d == "M" then f.M = tonumber(take("%d%d?", "%M"))
      elseif d == "S" then f.S = tonumber(take("%d%d?", "%S"))
      elseif d == "j" then local n = tonumber(take("%d%d?%d?", "%j")) f.m, f.d = 1, n
      elseif d == "b" or d == "h" then
        local name = take("%a%a%a", "%b")
        for k, n in ipairs(months) do if n:lower() == name:lower() then f.m = k end end
      elseif d == "a" then take("%a%a%a", "%a")
      elseif d == "Z" then take("%a+", "%Z")
      elseif d == "z" then
        local sign, hh, mm = take("[+-]%d%d:?%d%d", "%z"):match("([+-])(%d%d):?(%d%d)")
        f.offset = (sign == "-" and -1 or 1) * (tonumber(hh) * 3600 + tonumber(mm) * 60)
      elseif d == "." and format:sub(i, i) == "f" then
        i = i + 1
        local frac = text:match("^%.(%d+)", pos)
        if frac then pos = pos + #frac + 1 f.frac = tonumber("0." .. frac) end
      elseif d == "s" then f.epoch = tonumber(take("%-?%d+", "%s"))
      elseif d == "%" then take("%%", "%%")
      else fail(line, "toDate: the format directive %" .. d .. " is not one pekit reads") end
    else
      take(c:gsub("%p", "%%%0"), "'" .. c .. "'")
      i = i + 1
    end
  end
  if f.epoch then return date(f.epoch) end
  local seconds = days_from_civil(f.Y, f.m, 1) * 86400 + (f.d - 1) * 86400 + f.H * 3600 + f.M * 60 + f.S + f.frac - f.offset
  return date(seconds)
end

local function format_date(d, format)
  local whole = math.floor(d.seconds)
  local frac = d.seconds - whole
  local out = os.date("!*t", whole)
  return (format:gsub("%%(%.?)(%a)", function(dot, c)
    if dot == "." and c == "f" then
      if frac == 0 then return "" end
      return ("%.9f"):format(frac):sub(2):gsub("0+$", "")
    end
    if c == "Y" then return ("%04d"):format(out.year) end
    if c == "m" then return ("%02d"):format(out.month) end
    if c == "d" then return ("%02d"):format(out.day) end
    if c == "e" then return ("%2d"):format(out.day) end
    if c == "H" then return ("%02d"):format(out.hour) end
    if c == "M" then return ("%02d"):format(out.min) end
    if c == "S" then return ("%02d"):format(out.sec) end
    if c == "j" then return ("%03d"):format(out.yday) end
    if c == "b" then return months[out.month] end
    if c == "a" then return days[out.wday] end
    if c == "A" then return os.date("!%A", whole) end
    if c == "B" then return os.date("!%B", whole) end
    if c == "Z" then return "UTC" end
    if c == "z" then return "+0000" end
    if c == "s" then return tostring(whole) end
    return dot .. "%" .. c
  end))
end

local html_entities = { amp = "&", lt = "<", gt = ">", quot = '"', apos = "'", nbsp = "\194\160" }

local function list(t) return getmetatable(t) == "pekit.array" and t or pekit.array(t) end
local function to_text(v, line, what)
  if type(v) == "string" then return v end
  if kind(v) == "bytes" then return v.bytes end
  fail(line, what .. " reads text, and got " .. kind(v) .. " " .. shown(v))
end
local function pattern_of(p, line)
  p = value_of(p, line)
  if getmetatable(p) == Regex_mt then return p.pattern end
  return p
end

filters.count = function(v, line)
  local k = kind(v)
  if k == "list" then return #v end
  if k == "object" then local n = 0 for _ in pairs(v) do n = n + 1 end return n end
  if k == "bytes" then return #v.bytes end
  fail(line, "count reads a list, and got " .. k)
end
filters.nth = function(v, line, n)
  if kind(v) ~= "list" then fail(line, "nth reads a list, and got " .. kind(v)) end
  local i = n < 0 and #v + n + 1 or n + 1
  if v[i] == nil then fail(line, ("nth %d: the list has %d item%s"):format(n, #v, #v == 1 and "" or "s")) end
  return v[i]
end
filters.first = function(v, line) return filters.nth(v, line, 0) end
filters.last = function(v, line) return filters.nth(v, line, -1) end
filters.regex = function(v, line, p)
  local text = to_text(v, line, "regex")
  return re.match(pattern_of(p, line), text)
end
filters.replace = function(v, line, p, by)
  local text, with = to_text(v, line, "replace"), value_of(by, line)
  if getmetatable(p) == Regex_mt then return (re.replace(p.pattern, text, (with:gsub("%$", "$$")))) end
  local pattern = value_of(p, line)
  local out, start = {}, 1
  while true do
    local s, e = text:find(pattern, start, true)
    if not s or pattern == "" then break end
    out[#out + 1] = text:sub(start, s - 1) .. with
    start = e + 1
  end
  out[#out + 1] = text:sub(start)
  return table.concat(out)
end
filters.replaceRegex = function(v, line, p, by) return (re.replace(pattern_of(p, line), to_text(v, line, "replaceRegex"), value_of(by, line))) end
filters.split = function(v, line, sep)
  local text, s = to_text(v, line, "split"), value_of(sep, line)
  local out, start = {}, 1
  while true do
    local a, b = text:find(s, start, true)
    if not a or s == "" then break end
    out[#out + 1] = text:sub(start, a - 1)
    start = b + 1
  end
  out[#out + 1] = text:sub(start)
  return list(out)
end
filters.toInt = function(v, line)
  local k = kind(v)
  if k == "integer" then return v end
  if k == "float" then return math.tointeger(v < 0 and math.ceil(v) or math.floor(v)) end
  if k == "string" and v:find("^%s*[+-]?%d+%s*$") then return math.tointeger(tonumber(v)) end
  fail(line, "toInt: " .. shown(v) .. " is not an integer")
end
filters.toFloat = function(v, line)
  local n = tonumber(type(v) == "string" and v or (type(v) == "number" and v) or nil)
  if n == nil then fail(line, "toFloat: " .. shown(v) .. " is not a number") end
  return n + 0.0
end
filters.toString = function(v, line) return render(v, line) end
filters.toDate = function(v, line, f) return parse_date(to_text(v, line, "toDate"), value_of(f, line), line) end
filters.format = function(v, line, f)
  if kind(v) ~= "date" then fail(line, "format reads a date (from toDate), and got " .. kind(v)) end
  return format_date(v, value_of(f, line))
end
filters.daysAfterNow = function(v, line)
  if kind(v) ~= "date" then fail(line, "daysAfterNow reads a date, and got " .. kind(v)) end
  return math.tointeger((v.seconds - pekit.time.now()) // 86400)
end
filters.daysBeforeNow = function(v, line)
  if kind(v) ~= "date" then fail(line, "daysBeforeNow reads a date, and got " .. kind(v)) end
  return math.tointeger((pekit.time.now() - v.seconds) // 86400)
end
-- Hurl's set (runner/filter/url_encode.rs): all but letters, digits and -._~/ escaped.
filters.urlEncode = function(v, line) return pekit.encode(to_text(v, line, "urlEncode"), { allowed = "-._~/" }) end
filters.urlDecode = function(v, line) return pekit.decode(to_text(v, line, "urlDecode")) end
filters.htmlEscape = function(v, line)
  return (to_text(v, line, "htmlEscape"):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#x27;" }))
end
filters.htmlUnescape = function(v, line)
  -- Numeric references with or without their semicolon (as the HTML Standard reads them), named
  -- ones with it.
  local text = to_text(v, line, "htmlUnescape")
  text = text:gsub("&#[xX](%x+);?", function(hex) return utf8.char(tonumber(hex, 16)) end)
  text = text:gsub("&#(%d+);?", function(dec) return utf8.char(tonumber(dec)) end)
  return (text:gsub("&(%a+);", function(name) return html_entities[name] end))
end
local function base64(name, alphabet, decode)
  filters[name] = function(v, line)
    local text = to_text(v, line, name)
    if not decode then return pekit.crypto[alphabet].encode(text) end
    local ok, bytes = pcall(pekit.crypto[alphabet].decode, text)
    if not ok then fail(line, name .. ": " .. shown(text) .. " is not " .. alphabet) end
    return M.bytes(bytes)
  end
end
base64("base64Decode", "base64", true)
base64("base64Encode", "base64", false)
base64("base64UrlSafeDecode", "base64url", true)
base64("base64UrlSafeEncode", "base64url", false)
filters.toHex = function(v, line) return (to_text(v, line, "toHex"):gsub(".", function(c) return ("%02x"):format(c:byte()) end)) end
filters.decode = function(v, line, charset)
  local name = value_of(charset, line)
  local ok, text = pcall(pekit.text.decode, to_text(v, line, "decode"), name)
  if not ok then fail(line, "decode " .. shown(name) .. ": " .. tostring(text)) end
  return text
end
filters.utf8Decode = function(v, line) return to_text(v, line, "utf8Decode") end
filters.utf8Encode = function(v, line) return M.bytes(to_text(v, line, "utf8Encode")) end
-- XPath on text (HTML or XML, as Hurl reads a body by its Content-Type); a node set is its
-- nodes' string values, an empty one nothing.
local function xpath(text, expression, html, line)
  local ok, result = pcall(pekit.xml.xpath, text, expression, { html = html })
  if not ok then fail(line, "xpath " .. shown(expression) .. ": " .. tostring(result)) end
  if type(result) == "table" and #result == 0 then return nil end
  return result
end
filters.xpath = function(v, line, expression)
  local text = to_text(v, line, "xpath")
  return xpath(text, value_of(expression, line), text:find("^%s*<!DOCTYPE html") ~= nil or text:find("<html", 1, true) ~= nil, line)
end
filters.jsonpath = function(v, line, path)
  local ok, doc = pcall(json_decode, to_text(v, line, "jsonpath"))
  if not ok then fail(line, "jsonpath: the value is not JSON") end
  return M.jsonpath(doc, value_of(path, line))
end
filters.urlQueryParam = function(v, line, name)
  local u = pekit.url.parse(to_text(v, line, "urlQueryParam"))
  if not u then fail(line, "urlQueryParam: not a URL") end
  local want = value_of(name, line)
  for _, pair in ipairs(u.query) do if pair[1] == want then return pair[2] end end
  return nil
end
filters.location = function(v, line)
  if type(v) == "table" and v.location then return v.location end
  fail(line, "location reads a redirect (from the redirects query)")
end

-- Hurl's JSONPath takes dot names RFC 9535 does not (`$.profile-id`, `$.[0]`): written as brackets.
local function standard_path(path)
  local out, i, quote = {}, 1, nil
  while i <= #path do
    local c = path:sub(i, i)
    if quote then
      if c == "\\" then out[#out + 1] = path:sub(i, i + 1) i = i + 2 goto next end
      if c == quote then quote = nil end
      out[#out + 1] = c
    elseif c == "'" or c == '"' then quote = c out[#out + 1] = c
    elseif c == "." and path:sub(i + 1, i + 1) == "[" then
      i = i + 1 -- `$.[0]` is `$[0]`
      goto next
    elseif c == "." and path:sub(i + 1, i + 1) ~= "." then
      local name = path:match("^[%w_%-]+", i + 1)
      if name and name:find("-", 1, true) then
        out[#out + 1] = "['" .. name .. "']"
        i = i + 1 + #name
        goto next
      end
      out[#out + 1] = c
    else out[#out + 1] = c end
    i = i + 1
    ::next::
  end
  return table.concat(out)
end

function M.jsonpath(doc, path)
  path = standard_path(path)
  local nodes = json_query(doc, path)
  if pekit.json.is_singular(path) then return nodes[1] end
  return list(nodes)
end

-- The request -------------------------------------------------------------------------------

-- Hurl's content type for a multipart file given none (runner/multipart.rs: by extension).
local mime = { gif = "image/gif", jpg = "image/jpeg", jpeg = "image/jpeg", png = "image/png", svg = "image/svg+xml",
  txt = "text/plain", htm = "text/html", html = "text/html", pdf = "application/pdf", xml = "application/xml",
  json = "application/json", js = "text/javascript", css = "text/css", csv = "text/csv", zip = "application/zip" }

local function escape(v) return pekit.encode(v, "rfc3986") end

local function rendered_pairs(items)
  local out = {}
  for i, item in ipairs(items or {}) do out[i] = { text_of(item[1], item[3]), text_of(item[2], item[3]) } end
  return out
end

local function encoded(pairs_)
  local parts = {}
  for i, p in ipairs(pairs_) do parts[i] = p[1] .. "=" .. escape(p[2]) end
  return table.concat(parts, "&")
end

local function flag(text, name, line)
  if text == "true" then return true elseif text == "false" then return false end
  fail(line, name .. ": expected true or false, got " .. shown(text))
end

local function integer(text, name, line)
  local n = math.tointeger(tonumber(text))
  if not n then fail(line, name .. ": expected an integer, got " .. shown(text)) end
  return n
end

-- A duration in milliseconds ("100", "100ms", "2s", "1m"; `unit` when none is written).
local function duration(text, name, line, unit)
  local n, u = text:match("^(%d+)(%a*)$")
  if not n then fail(line, name .. ": expected a duration (100, 100ms, 2s, 1m), got " .. shown(text)) end
  u = u ~= "" and u or unit
  local scale = ({ ms = 1, s = 1000, m = 60000 })[u]
  if not scale then fail(line, name .. ": the unit " .. u .. " is not ms, s or m") end
  return tonumber(n) * scale
end

-- Options pekit does not take, each with why (checked before anything is sent).
local refused = {
  ["http1.0"] = "pekit sends HTTP/1.1 and HTTP/2 only", http3 = "pekit has no HTTP/3",
  cacert = "not yet: a CA file for one request", cert = "not yet: client certificates", key = "not yet: client certificates",
  ["aws-sigv4"] = "not yet: write pekit.sign in Lua", ["unix-socket"] = "not yet: Unix sockets", ["limit-rate"] = "not yet: rate limits in bytes",
  pinnedpubkey = "not yet: pinned keys",
}

-- The entry's options, read: the send's options, and what the entry does around the send.
local function read_options(req)
  -- Hurl's own User-Agent (the 6.1.1 release's), where the file names none.
  local o = { send = { jar = jar, follow = false }, fields = { user_agent = "hurl/6.1.1" }, headers = {}, retry = 0, interval = 1000, ["repeat"] = 1 }
  local all = {}
  for _, opt in ipairs(defaults) do all[#all + 1] = opt end
  for _, opt in ipairs(req.options or {}) do all[#all + 1] = opt end
  for _, opt in ipairs(all) do
    local name, line = opt[1], opt[3]
    if refused[name] then fail(line, "the option " .. name .. " is not taken: " .. refused[name]) end
    if name == "variable" then vars[opt.var] = value_of(opt[2], line) else
      local text = render(value_of(opt[2], line), line)
      if name == "location" then o.send.follow = flag(text, name, line)
      elseif name == "location-trusted" then
        if flag(text, name, line) then o.send.follow, o.send.location_trusted = true, true end
      elseif name == "max-redirs" then
        local n = integer(text, name, line)
        o.send.max_redirects = n < 0 and 1000 or n
      elseif name == "insecure" then o.send.insecure = flag(text, name, line)
      elseif name == "compressed" then o.fields.compressed = flag(text, name, line)
      elseif name == "http1.1" then if flag(text, name, line) then o.send.http = "1.1" end
      elseif name == "http2" then if flag(text, name, line) then o.send.http = "2" end
      elseif name == "ipv4" then if flag(text, name, line) then o.send.ip_version = "4" end
      elseif name == "ipv6" then if flag(text, name, line) then o.send.ip_version = "6" end
      elseif name == "proxy" then o.send.proxy = text
      elseif name == "connect-timeout" then o.send.connect_timeout = duration(text, name, line, "s") / 1000
      elseif name == "max-time" then o.send.timeout = duration(text, name, line, "s") / 1000
      elseif name == "path-as-is" then o.fields.path_as_is = flag(text, name, line)
      elseif name == "connect-to" or name == "resolve" then
        local h1, p1, h2, p2
        if name == "connect-to" then h1, p1, h2, p2 = text:match("^([^:]*):(%d*):([^:]*):(%d*)$")
        else h1, p1, h2 = text:match("^([^:]+):(%d+):(.+)$") p2 = p1 end
        if not h1 then fail(line, name .. ": expected " .. (name == "resolve" and "HOST:PORT:ADDRESS" or "HOST1:PORT1:HOST2:PORT2") .. ", got " .. shown(text)) end
        o.send.connect = o.send.connect or {}
        o.send.connect[h1 .. ":" .. p1] = h2 .. ":" .. p2
      elseif name == "user" then o.user = text
      elseif name == "netrc-file" then o.netrc, o.netrc_required = text, true
      elseif name == "netrc" or name == "netrc-optional" then
        if flag(text, name, line) then o.netrc, o.netrc_required = (os.getenv("HOME") or "") .. "/.netrc", name == "netrc" end
      elseif name == "user-agent" and opt.cli then o.fields.user_agent = text
      elseif name == "header" then
        local n, v = text:match("^([^:]+):%s*(.*)$")
        if not n then fail(line, "header: expected NAME: VALUE, got " .. shown(text)) end
        o.headers[#o.headers + 1] = { n, v }
      elseif name == "delay" then o.delay = duration(text, name, line, "ms")
      elseif name == "retry" then o.retry = integer(text, name, line)
      elseif name == "retry-interval" then o.interval = duration(text, name, line, "ms")
      elseif name == "repeat" then o["repeat"] = integer(text, name, line)
      elseif name == "skip" then o.skip = flag(text, name, line)
      elseif name == "output" then o.output = text
      elseif name ~= "verbose" and name ~= "very-verbose" then
        -- (verbose and very-verbose: pekit test shows the exchange of every failure)
        fail(line, name .. " is not an option of Hurl's that pekit takes")
      end
    end
  end
  return o
end

local function has(headers, name)
  for _, h in ipairs(headers) do if h[1]:lower() == name then return true end end
  return false
end

-- The login:password a .netrc file gives the URL's host (its `machine` entry, else `default`),
-- as libcurl reads the file; nil when it names none (or, optional, when there is no file).
local function netrc_user(path, url, required, line)
  local f = io.open(path, "r")
  if not f then
    if required then fail(line, "cannot read the .netrc file " .. path) end
    return nil
  end
  local words = {}
  for word in f:read("a"):gmatch("%S+") do words[#words + 1] = word end
  f:close()
  local host = (pekit.url.parse(url) or {}).hostname
  local found, current = nil, nil
  local i = 1
  while i <= #words do
    local w = words[i]
    if w == "machine" then current = { host = words[i + 1] } i = i + 2
    elseif w == "default" then current = { host = false } i = i + 1
    elseif (w == "login" or w == "password") and current then current[w] = words[i + 1] i = i + 2
    else i = i + 1 end
    if current and current.login and current.password and not found and (current.host == host or current.host == false) then found = current end
  end
  return found and (found.login .. ":" .. found.password) or nil
end

-- The request's fields for pekit.request, as Hurl's client builds the request.
local function request_fields(req, o)
  local url = text_of(req.url, req.line)
  local query = rendered_pairs(req.query)
  if #query > 0 then
    url = url .. (url:sub(-1) == "?" and "" or (url:find("?", 1, true) and "&" or "?")) .. encoded(query)
  end
  local headers = rendered_pairs(req.headers)
  for _, h in ipairs(o.headers) do headers[#headers + 1] = h end
  -- The URL as libcurl reads it (dot segments removed unless path-as-is), as Hurl sends it; the
  -- jar's Cookie field where libcurl writes it.
  local fields = { method = req.method, url = url, headers = headers, url_as_curl = true, jar = jar }
  for k, v in pairs(o.fields) do fields[k] = v end
  local content_type
  if req.form and #req.form > 0 then
    fields.body = encoded(rendered_pairs(req.form))
    content_type = "application/x-www-form-urlencoded"
  elseif req.multipart and #req.multipart > 0 then
    local parts = {}
    for i, p in ipairs(req.multipart) do
      local line = p[#p]
      if p.file then
        local path = text_of(p.file, line)
        local filename = path:match("[^/]*$")
        local type_ = p.type and text_of(p.type, line) or mime[(filename:match("%.([^.]+)$") or ""):lower()] or "application/octet-stream"
        parts[i] = { name = text_of(p[1], line), data = read_file(path, line), filename = filename, type = type_ }
      else
        parts[i] = { name = text_of(p[1], line), value = text_of(p[2], line) }
      end
    end
    fields.multipart = parts
  elseif req.body then
    local b, line = req.body, req.line
    local k = b[1]
    if k == "json" then fields.body, content_type = text_of(b[2], line), "application/json"
    elseif k == "xml" then fields.body, content_type = b[2], "application/xml"
    elseif k == "text" then fields.body = text_of(b[2], line)
    elseif k == "bytes" then fields.body, content_type = b[2], "application/octet-stream"
    elseif k == "file" then fields.body = read_file(text_of(b[2], line), line)
    elseif k == "multiline" then
      fields.body = multiline(text_of(b[2], line), b.type, b.variables and text_of(b.variables, line), line)
      content_type = ({ json = "application/json", xml = "application/xml", graphql = "application/json",
                        hex = "application/octet-stream", base64 = "application/octet-stream" })[b.type]
    end
  end
  -- The Content-Type Hurl sets: the body's implicit one, else none (no default of curl's or pekit's).
  if not has(headers, "content-type") and not fields.multipart then
    if content_type then headers[#headers + 1] = { "Content-Type", content_type } else headers[#headers + 1] = { "Content-Type", false } end
  end
  local cookies = rendered_pairs(req.cookies)
  if #cookies > 0 then
    local parts = {}
    for i, c in ipairs(cookies) do parts[i] = c[1] .. "=" .. c[2] end
    fields.cookie = table.concat(parts, "; ")
  end
  local user = o.user
  if not user and o.netrc then user = netrc_user(o.netrc, url, o.netrc_required, req.line) end
  local auth = rendered_pairs(req.basic_auth)
  if #auth > 0 then user = auth[1][1] .. ":" .. auth[1][2] end
  if user and not has(headers, "authorization") then
    headers[#headers + 1] = { "Authorization", "Basic " .. pekit.crypto.base64.encode(user) }
  end
  return fields
end

-- The response -------------------------------------------------------------------------------

local function headers_named(r, name)
  local out = {}
  for _, h in ipairs(r.headers) do if h[1]:lower() == name:lower() then out[#out + 1] = h[2] end end
  return out
end

local function json_of(r, line)
  if r._json == nil then
    local ok, doc = pcall(json_decode, r.body)
    if not ok then fail(line, "the response body is not JSON") end
    r._json = { doc }
  end
  return r._json[1]
end

-- The body as text, decoded by the charset its Content-Type names (UTF-8 when none), as Hurl reads it.
function M.text_body(r, line)
  local ok, text = pcall(r.text, r)
  if not ok then fail(line, "the body cannot be read as text: " .. tostring(text)) end
  return text
end

local cookie_attributes = { Value = "value", Expires = "expires", ["Max-Age"] = "max_age", Domain = "domain", Path = "path",
  Secure = "secure", HttpOnly = "http_only", SameSite = "same_site" }

local queries = {}
queries.status = function(r) return r.status end
queries.version = function(r) return r.http_version end
queries.url = function(r) return r.url end
queries.ip = function(r)
  local address = r.address or ""
  return address:match("^%[(.*)%]:%d+$") or address:match("^([^:]*):%d+$") or address
end
queries.body = function(r, line) return M.text_body(r, line) end
queries.bytes = function(r) return M.bytes(r.body) end
queries.sha256 = function(r) return M.bytes(pekit.crypto.sha256(r.body)) end
queries.md5 = function(r) return M.bytes(pekit.crypto.md5(r.body)) end
queries.duration = function(r) return math.tointeger(math.floor(r.timing.total * 1000)) end
queries.redirects = function(r)
  local out = {}
  for i, hop in ipairs(r.redirects or {}) do out[i] = { location = hop.location, status = hop.status } end
  return list(out)
end
queries.header = function(r, line, name)
  local values = headers_named(r, value_of(name, line))
  if #values == 0 then return nil end
  if #values == 1 then return values[1] end
  return list(values)
end
queries.cookie = function(r, line, spec)
  spec = value_of(spec, line)
  local name, attribute = spec:match("^([^%[]+)%[(.-)%]$")
  name, attribute = name or spec, attribute or "Value"
  local field = cookie_attributes[attribute]
  if not field then fail(line, "cookie \"" .. spec .. "\": " .. attribute .. " is not a cookie attribute (Value, Expires, Max-Age, Domain, Path, Secure, HttpOnly, SameSite)") end
  local found
  for _, header in ipairs(headers_named(r, "set-cookie")) do
    local ok, c = pcall(pekit.cookies.parse, header)
    if ok and c.name == name then found = c end
  end
  if not found then return nil end
  local v = found[field]
  if field == "expires" and v then return date(v) end
  if (field == "secure" or field == "http_only") and not v then return nil end
  return v
end
queries.jsonpath = function(r, line, path) return M.jsonpath(json_of(r, line), value_of(path, line)) end
queries.regex = function(r, line, p) return re.match(pattern_of(p, line), M.text_body(r, line)) end
queries.variable = function(_, line, name) return vars[value_of(name, line)] end
queries.xpath = function(r, line, expression)
  local html = (headers_named(r, "content-type")[1] or ""):lower():find("html", 1, true) ~= nil
  return xpath(M.text_body(r, line), value_of(expression, line), html, line)
end
queries.certificate = function(_, line) fail(line, "certificate is not taken yet") end

local function query(r, q, line)
  local run = queries[q[1]]
  return run(r, line, q[2])
end

local function describe(q, fs, predicate, expected, line)
  local parts = { q[1] }
  if q[2] ~= nil then parts[#parts + 1] = shown(value_of(q[2], line)) end
  for _, f in ipairs(fs or {}) do parts[#parts + 1] = f[1] end
  parts[#parts + 1] = predicate
  if expected ~= nil then parts[#parts + 1] = shown(expected) end
  return table.concat(parts, " ")
end

-- Predicates ---------------------------------------------------------------------------------

local function equal(a, b)
  local ka, kb = kind(a), kind(b)
  if (ka == "integer" or ka == "float") and (kb == "integer" or kb == "float") then return a == b end
  if ka == "bytes" or kb == "bytes" then
    return (ka == "bytes" and a.bytes or a) == (kb == "bytes" and b.bytes or b)
  end
  if ka ~= kb then return false end
  if ka == "date" then return a.seconds == b.seconds end
  if ka == "list" then
    if #a ~= #b then return false end
    for i = 1, #a do if not equal(a[i], b[i]) then return false end end
    return true
  end
  if ka == "object" then
    for k, v in pairs(a) do if not equal(v, b[k]) then return false end end
    for k in pairs(b) do if a[k] == nil then return false end end
    return true
  end
  return a == b
end

local function comparable(a, b)
  local ka, kb = kind(a), kind(b)
  local na, nb = ka == "integer" or ka == "float", kb == "integer" or kb == "float"
  if na and nb then return a, b end
  if ka == "string" and kb == "string" then return a, b end
  if ka == "date" and kb == "date" then return a.seconds, b.seconds end
  return nil
end

local function bytes_or_text(v) return kind(v) == "bytes" and v.bytes or v end

local predicates = {
  ["=="] = equal,
  ["!="] = function(v, e) return v ~= nil and not equal(v, e) end,
  [">"] = function(v, e) local a, b = comparable(v, e) return a ~= nil and a > b end,
  [">="] = function(v, e) local a, b = comparable(v, e) return a ~= nil and a >= b end,
  ["<"] = function(v, e) local a, b = comparable(v, e) return a ~= nil and a < b end,
  ["<="] = function(v, e) local a, b = comparable(v, e) return a ~= nil and a <= b end,
  startsWith = function(v, e)
    local a, b = bytes_or_text(v), bytes_or_text(e)
    return type(a) == "string" and type(b) == "string" and a:sub(1, #b) == b
  end,
  endsWith = function(v, e)
    local a, b = bytes_or_text(v), bytes_or_text(e)
    return type(a) == "string" and type(b) == "string" and (#b == 0 or a:sub(-#b) == b)
  end,
  contains = function(v, e)
    if kind(v) == "list" then for _, item in ipairs(v) do if equal(item, e) then return true end end return false end
    local a, b = bytes_or_text(v), bytes_or_text(e)
    return type(a) == "string" and type(b) == "string" and a:find(b, 1, true) ~= nil
  end,
  includes = function(v, e)
    if kind(v) ~= "list" then return false end
    for _, item in ipairs(v) do if equal(item, e) then return true end end
    return false
  end,
  matches = function(v, e, line)
    if type(v) ~= "string" then return false end
    return re.test(pattern_of(e, line), v)
  end,
  exists = function(v) return v ~= nil end,
  isEmpty = function(v)
    local k = kind(v)
    if k == "list" or k == "object" then return next(v) == nil end
    if k == "string" then return v == "" end
    if k == "bytes" then return v.bytes == "" end
    return false
  end,
  isInteger = function(v) return kind(v) == "integer" end,
  isFloat = function(v) return kind(v) == "float" end,
  isNumber = function(v) return type(v) == "number" end,
  isBoolean = function(v) return type(v) == "boolean" end,
  isString = function(v) return type(v) == "string" end,
  isCollection = function(v) local k = kind(v) return k == "list" or k == "object" or k == "bytes" end,
  isList = function(v) return kind(v) == "list" end,
  isObject = function(v) return kind(v) == "object" end,
  isDate = function(v) return kind(v) == "date" end,
  isIsoDate = function(v)
    return type(v) == "string" and re.test("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$", v)
  end,
  isIpv4 = function(v) return type(v) == "string" and re.test("^(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}$", v) end,
  isIpv6 = function(v) return type(v) == "string" and v:find(":", 1, true) ~= nil and pekit.url.parse("http://[" .. v .. "]/") ~= nil end,
  isUuid = function(v) return type(v) == "string" and re.test("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$", v) end,
}

local function check(a, r)
  local line = a.line
  local ok, err = pcall(function()
    local v = apply(query(r, a[1], line), a[2], line)
    local name = a[3]
    local negate = name:sub(1, 4) == "not "
    if negate then name = name:sub(5) end
    local expected
    if a[4] ~= nil then expected = value_of(a[4], line) end
    local passed = predicates[name](v, expected, line)
    if negate then passed = not passed end
    if not passed then
      fail(line, ("assert failed: %s (got %s)"):format(describe(a[1], a[2], a[3], expected, line), shown(v)))
    end
  end)
  return ok, err
end

-- The response's implicit asserts (version, status, headers, body), then the captures, then
-- the asserts, each failure kept: every failure of the entry is told, as Hurl tells them.
local function verify(r, res)
  local errors = {}
  if ignore_asserts then
    -- --ignore-asserts: the captures only, as Hurl keeps them.
    res = { version = "HTTP", captures = res.captures }
  end
  local function add(line, message) errors[#errors + 1] = { where = source .. ":" .. line, message = message } end
  local function caught(err, line)
    if type(err) == "table" and err.where then errors[#errors + 1] = err else add(line, tostring(err)) end
  end
  if res.version ~= "HTTP" and "HTTP/" .. r.http_version ~= res.version and not (res.version == "HTTP/2" and r.http_version == "2.0") then
    add(res.line, ("expected %s, got HTTP/%s"):format(res.version, r.http_version))
  end
  if res.status and r.status ~= res.status then add(res.line, ("expected the status %d, got %d"):format(res.status, r.status)) end
  for _, h in ipairs(res.headers or {}) do
    local name, want = text_of(h[1], h[3]), text_of(h[2], h[3])
    local values = headers_named(r, name)
    local found = false
    for _, v in ipairs(values) do if v == want then found = true end end
    if not found then add(h[3], ("the header %s: expected %s, got %s"):format(name, shown(want), #values == 0 and "none" or shown(table.concat(values, ", ")))) end
  end
  if #errors > 0 then return errors end
  for _, c in ipairs(res.captures or {}) do
    local line = c[#c]
    local name = text_of(c[1], line)
    local ok, err = pcall(function()
      local v = apply(query(r, c[2], line), c[3], line)
      if v == nil then fail(line, "the capture " .. name .. " found nothing") end
      -- (`redact` is read, not applied: pekit test hides --secret values, not captured ones.)
      vars[name] = v
    end)
    if not ok then caught(err, line) return errors end
  end
  for _, a in ipairs(res.asserts or {}) do
    local ok, err = check(a, r)
    if not ok then caught(err, a.line) end
  end
  if res.body then
    local b, line = res.body, res.body_line
    local k, want, same = b[1], nil, nil
    if k == "json" then
      local ok, doc = pcall(json_decode, r.body)
      want = text_of(b[2], line)
      same = ok and equal(doc, json_decode(want))
    elseif k == "xml" then want = b[2] same = r.body == want
    elseif k == "bytes" then want = b[2] same = r.body == want
    elseif k == "file" then want = read_file(text_of(b[2], line), line) same = r.body == want
    elseif k == "multiline" then
      want = multiline(text_of(b[2], line), b.type, b.variables and text_of(b.variables, line), line)
      same = (b.type == "hex" or b.type == "base64") and r.body == want or M.text_body(r, line) == want
    else want = text_of(b[2], line) same = M.text_body(r, line) == want end
    if not same then add(line, ("the body: expected %s, got %s"):format(shown(want), shown(r.body))) end
  end
  return errors
end

-- One entry: its options, its request sent (again while `retry` allows, after `retry-interval`),
-- its response checked; `repeat` runs it so many times. An entry after a failed one is skipped.
function M.entry(n, req, res)
  if n == 1 then last_done = 0 end
  if (run_only["from-entry"] and n < run_only["from-entry"]) or (run_only["to-entry"] and n > run_only["to-entry"]) then
    last_done = n
    skip("not run: outside --from-entry/--to-entry")
  end
  if last_done < n - 1 then skip("not run: an earlier entry failed (Hurl stops a file at its first failure)") end
  for _, command in ipairs(req.cookie_storage or {}) do
    if command[1] == "clear" then jar:clear() else
      -- A Netscape cookie line: domain, subdomains, path, secure, expires, name, value.
      local f = {}
      for field in command[2]:gmatch("%S+") do f[#f + 1] = field end
      if #f < 6 then fail(req.line, "@cookie_storage_set: expected a Netscape cookie line (domain, subdomains, path, secure, expires, name, value)") end
      local expires = tonumber(f[5])
      jar:set{ domain = f[1], path = f[3], secure = f[4] == "TRUE", expires = expires ~= 0 and expires or nil, name = f[6], value = f[7] or "" }
    end
  end
  local o = read_options(req)
  if o.skip then last_done = n skip("skip: true (line " .. req.line .. ")") end
  for _ = 1, o["repeat"] do
    local attempts = 0
    while true do
      if o.delay then pekit.time.sleep(o.delay / 1000) end
      local r = pekit.http.send(pekit.request(request_fields(req, o)), o.send)
      -- Hurl's queries read the body decoded, whoever asked for its coding.
      local coding = table.concat(headers_named(r, "content-encoding"), ",")
      if coding ~= "" and not o.fields.compressed then
        local ok, body = pcall(pekit.http.decode, r.body, coding)
        if not ok then fail(req.line, "the body does not decode: " .. tostring(body)) end
        r.body = body
      end
      local errors = res and verify(r, res) or {}
      if o.output then
        local f = o.output == "-" and io.stdout or io.open(o.output, "wb")
        if not f then fail(req.line, "output: cannot write " .. o.output) end
        f:write(r.body)
        if f ~= io.stdout then f:close() end
      end
      if #errors == 0 then break end
      attempts = attempts + 1
      if o.retry >= 0 and attempts > o.retry then
        -- Every failure of the entry, the first one's line the test's.
        local lines = { errors[1].message }
        for i = 2, #errors do lines[i] = errors[i].where .. ": " .. errors[i].message end
        _G.fail(table.concat(lines, "\n"), errors[1].where)
      end
      pekit.time.sleep(o.interval / 1000)
    end
  end
  last_done = n
end

return M
