-- What a test made from a Postman collection uses (pekit test COLLECTION.json, pekit import
-- postman): its variables, resolved as Postman resolves them, narrowest first: --var (Postman's
-- local and data variables), the request's folders' and its own `variable`, the environment
-- (--environment FILE), the collection's `variable`, the globals (--globals FILE), then the
-- dynamic ones ({{$guid}}, {{$randomUUID}}, {{$timestamp}}, {{$isoTimestamp}}, {{$randomInt}});
-- a value holding {{other}} is read again, as Postman does. And the request's URL, query and
-- url-encoded body as Postman's curl code generator writes them (postman-code-generators,
-- codegens/curl), so that what is sent is what that curl command sends.
local M = {}
local dir, source, collection_vars, scope, files = ".", "?", {}, {}, {}

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

-- An environment or globals file's enabled values (Postman's export: {values = {{key, value, enabled}}}).
local function variables_file(option)
  if files[option] then return files[option] end
  local out = {}
  local path = pekit.vars[option]
  if path ~= nil then
    local text = read(path)
    if text == nil then error(("--%s: cannot read %s"):format(option:sub(9), path), 0) end
    local ok, all = pcall(pekit.json.decode, text)
    if not ok then error(path .. ": " .. tostring(all), 0) end
    if type(all) ~= "table" or type(all.values) ~= "table" then
      error(("%s: not a Postman %s file (no values list)"):format(path, option:sub(9)), 0)
    end
    for _, v in ipairs(all.values) do
      if type(v) == "table" and type(v.key) == "string" and v.enabled ~= false then
        out[v.key] = type(v.value) == "string" and v.value or (v.value == nil and "" or pekit.json.encode(v.value))
      end
    end
  end
  files[option] = out
  return out
end

function M.setup(directory, name, vars)
  dir, source, collection_vars, files = directory, name, vars, {}
end

-- The request's own variables (its folders' and its `variable`), for the test that sends it.
function M.scope(vars) scope = vars end

local function uuid()
  local b = { pekit.crypto.random(16):byte(1, 16) }
  b[7] = (b[7] & 0x0F) | 0x40
  b[9] = (b[9] & 0x3F) | 0x80
  return ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x"):format(table.unpack(b))
end

local dynamic = {
  ["$guid"] = uuid,
  ["$randomUUID"] = uuid,
  ["$timestamp"] = function() return tostring(os.time()) end,
  ["$isoTimestamp"] = function() return os.date("!%Y-%m-%dT%H:%M:%S.000Z") end,
  ["$randomInt"] = function() return tostring(math.random(0, 1000)) end,
}

local function lookup(name)
  local v = pekit.vars[name]
  if v == nil then v = scope[name] end
  if v == nil then v = variables_file("postman-environment")[name] end
  if v == nil then v = collection_vars[name] end
  if v == nil then v = variables_file("postman-globals")[name] end
  return v
end

-- {{name}}'s value; `place` is the request's place in the collection ($.item[0]).
function M.var(name, place, depth)
  depth = depth or 0
  local v = lookup(name)
  if v == nil and dynamic[name] then return dynamic[name]() end
  if v == nil then
    if name:sub(1, 1) == "$" then
      error(("%s: %s: Postman's dynamic variable {{%s}} is not one pekit makes ($guid, $randomUUID, $timestamp, $isoTimestamp, $randomInt): give it with --var '%s=…'"):format(source, place, name, name), 0)
    end
    error(("%s: %s: the variable {{%s}} is not set (--var %s=…, --environment FILE, or the collection's variables)"):format(source, place, name, name), 0)
  end
  -- A value may name other variables; Postman reads them again, up to 19 levels.
  if depth < 19 and v:find("{{", 1, true) then
    v = v:gsub("{{([^{}]*)}}", function(inner) return M.var(inner, place, depth + 1) end)
  end
  return v
end

-- encodeURIComponent, then what the code generator's encodeParam keeps as written: [ ] { } + %,
-- and ' as %27.
local function encode_param(s)
  return (s:gsub("[^%w%-_%.!~%*'%(%)%[%]{}%+%%]", function(c) return ("%%%02X"):format(c:byte()) end):gsub("'", "%%27"))
end

-- encodeURIComponent: what the code generator writes a url-encoded field's name with.
local function encode_component(s)
  return (s:gsub("[^%w%-_%.!~%*'%(%)]", function(c) return ("%%%02X"):format(c:byte()) end))
end

-- curl's escape of --data-urlencode's content: all but ALPHA DIGIT - . _ ~ as %XX, and a space
-- as + (curl 7.88's tool_paramhlp.c).
local function curl_escape(s)
  return (s:gsub("[^%w%-%._~ ]", function(c) return ("%%%02X"):format(c:byte()) end):gsub(" ", "+"))
end

-- The URL as the code generator writes it (getUrlStringfromUrlObject): the scheme, credentials,
-- host, port, the path with each `:name` segment's variable put in, the enabled query
-- parameters encoded, the fragment.
function M.url(u)
  local out = {}
  if u.protocol then out[#out + 1] = u.protocol:sub(-3) == "://" and u.protocol or u.protocol .. "://" end
  if u.user and u.user ~= "" then
    out[#out + 1] = (u.password and u.password ~= "") and (u.user .. ":" .. u.password .. "@") or (u.user .. "@")
  end
  if u.host then out[#out + 1] = u.host end
  if u.port then out[#out + 1] = ":" .. u.port end
  if u.path then
    local segments = {}
    for i, segment in ipairs(u.path) do
      local name = segment:match("^:([^:]+)")
      local value = name and u.variables[name]
      if value and value ~= "" then segment = value .. segment:sub(#name + 2) end
      segments[i] = segment
    end
    out[#out + 1] = "/" .. table.concat(segments, "/")
  end
  local query = {}
  for _, p in ipairs(u.query or {}) do
    -- A parameter written with no value (`?flag`) stays so, as the Postman app sends it.
    query[#query + 1] = p[2] == nil and encode_param(p[1]) or encode_param(p[1]) .. "=" .. encode_param(p[2])
  end
  if #query > 0 then out[#out + 1] = "?" .. table.concat(query, "&") end
  if u.hash then out[#out + 1] = "#" .. u.hash end
  return table.concat(out)
end

-- A url-encoded body as the code generator's --data-urlencode 'name=value' options send it: the
-- name by encodeURIComponent, the value by curl.
function M.urlencoded(fields)
  local out = {}
  for i, f in ipairs(fields) do out[i] = encode_component(f[1]) .. "=" .. curl_escape(f[2]) end
  return table.concat(out, "&")
end

-- A GraphQL body as the code generator writes it: {"query": …, "variables": …}, the variables
-- read as JSON ({} when they do not parse).
function M.graphql(query, variables)
  local ok, decoded = pcall(pekit.json.decode, variables or "")
  local vars = ok and pekit.json.encode(decoded) or "{}"
  return '{"query":' .. pekit.json.encode(query) .. ',"variables":' .. vars .. "}"
end

-- A file a body or a form field names: by its path, from the collection's directory when relative.
function M.path(path)
  return path:sub(1, 1) == "/" and path or dir .. "/" .. path
end

function M.file(path, place)
  local full = M.path(path)
  local bytes = read(full)
  if bytes == nil then error(("%s: %s: cannot read %s (the body's file)"):format(source, place, full), 0) end
  return bytes
end

return M
