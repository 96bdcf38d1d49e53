-- What a test made from a .http file uses (pekit test FILE.http, pekit import http FILE.http):
-- its variables, resolved as a variable of the command line (--var), then of the file
-- (@name = value), then of the environment chosen with --env NAME (http-client.env.json, and
-- http-client.private.env.json over it, beside the .http file), then the dynamic ones
-- ({{$uuid}}, {{$timestamp}}, {{$isoTimestamp}}, {{$randomInt}}); and the files its bodies name.
local M = {}
local dir, source, file_vars, environment, resolving = ".", "?", {}, nil, {}

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

-- The chosen environment's variables (private ones over public ones), read once.
local function environment_vars()
  if environment then return environment end
  environment = {}
  local name = pekit.vars["http-client-env"]
  if name == nil then return environment end
  local found = false
  for _, file in ipairs({ "http-client.env.json", "http-client.private.env.json" }) do
    local text = read(dir .. "/" .. file)
    if text then
      local ok, all = pcall(pekit.json.decode, text)
      if not ok then error(dir .. "/" .. file .. ": " .. tostring(all), 0) end
      local env = all[name]
      if env ~= nil then
        found = true
        for k, v in pairs(env) do environment[k] = type(v) == "string" and v or pekit.json.encode(v) end
      end
    end
  end
  if not found then error(("%s: no environment %q in %s/http-client.env.json or http-client.private.env.json"):format(source, name, dir), 0) end
  return environment
end

function M.setup(directory, name, vars)
  dir, source, file_vars, environment = directory, name, vars, nil
end

local dynamic = {
  ["$uuid"] = function()
    local b = { pekit.crypto.random(16):byte(1, 16) }
    b[7] = (b[7] & 0x0F) | 0x40
    b[9] = (b[9] & 0x3F) | 0x80
    return ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x"):format(table.unpack(b))
  end,
  ["$timestamp"] = function() return tostring(os.time()) end,
  ["$isoTimestamp"] = function() return os.date("!%Y-%m-%dT%H:%M:%SZ") end,
  ["$randomInt"] = function() return tostring(math.random(0, 1000)) end,
}

-- {{name}}'s value; `line` is the .http file's line that uses it.
function M.var(name, line)
  local v = pekit.vars[name]
  if v == nil and file_vars[name] ~= nil then
    -- A file variable is read when used; one that names itself would never end.
    if resolving[name] then error(("%s:%d: the variable @%s names itself"):format(source, line, name), 0) end
    resolving[name] = true
    local ok, value = pcall(file_vars[name])
    resolving[name] = nil
    if not ok then error(value, 0) end
    v = value
  end
  if v == nil then v = environment_vars()[name] end
  if v == nil and dynamic[name] then v = dynamic[name]() end
  if v == nil then
    error(("%s:%d: the variable {{%s}} is not set (an @%s = … line, --var %s=…, or http-client.env.json with --env NAME)"):format(source, line, name, name, name, name), 0)
  end
  return v
end

-- A target (or a Host field's value) with http as its scheme when it names none.
function M.url(text, line)
  if text == "" then error(("%s:%d: a target that starts with / needs a Host field"):format(source, line), 0) end
  if text:find("^%a[%w+.-]*://") then return text end
  return "http://" .. text
end

-- A body's `< ./file` line: the file's bytes, by its path from the .http file's directory.
function M.file(path, line)
  local full = path:sub(1, 1) == "/" and path or dir .. "/" .. path
  local bytes = read(full)
  if bytes == nil then error(("%s:%d: cannot read %s (named by < %s)"):format(source, line, full, path), 0) end
  return bytes
end

return M
