-- Runs string.find, match, gmatch and gsub on random patterns and subjects and prints every
-- result (or error message), one case a line. PatternTests runs it in lua5.4 (Lua's own C
-- matcher) and in pekit (its stoppable matcher) with the same seed: the outputs must be equal.
local seed, count = tonumber(arg[1]) or 1, tonumber(arg[2]) or 1000
math.randomseed(seed)
local random = math.random
local atoms = { "a", "b", "c", ".", "%a", "%d", "%s", "%w", "%x", "%p", "%u", "%l", "%c", "%g", "%A", "%D",
  "%S", "%W", "%%", "%.", "%]", "[ab]", "[^ab]", "[a-c]", "[%d_]", "[]]", "[^]]", "[%a-]", "[a-]", "[-a]",
  "%bab", "%b()", "%b", "%f[%w]", "%f[%W]", "%f[a]", "%f", "(", ")", "()", "%1", "%2", "%0", "^", "$", "-",
  "*", "+", "?", "[", "%", "x", "\0", "[\0-\31]", "%z" }
local quantifiers = { "", "", "", "*", "+", "-", "?" }
local chars = { "a", "b", "c", "1", "2", " ", "_", "(", ")", "]", "%", "\0", "x", "\255", "A", "." }
local inits = { false, 1, 2, -1, -3, 0, 5, 20, 2.5 }

local function pattern()
  local parts = {}
  for i = 1, random(1, 6) do
    local atom = atoms[random(#atoms)]
    parts[#parts + 1] = atom .. quantifiers[random(#quantifiers)]
  end
  return table.concat(parts)
end

local function subject()
  local parts = {}
  for i = 1, random(0, 12) do parts[#parts + 1] = chars[random(#chars)] end
  return table.concat(parts)
end

local function show(...)
  local out = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    out[#out + 1] = type(v) == "string" and string.format("%q", v) or tostring(v)
  end
  return table.concat(out, ",")
end

local function try(f, ...)
  local results = table.pack(pcall(f, ...))
  if not results[1] then return "error " .. string.format("%q", tostring(results[2])) end
  return show(table.unpack(results, 2, results.n))
end

local function all_matches(s, p, init)
  local out, n = {}, 0
  for a, b, c in string.gmatch(s, p, init) do
    n = n + 1
    out[#out + 1] = show(a, b, c)
    if n >= 30 then break end
  end
  return table.concat(out, ";")
end

local replacement_table = { a = "T", ["1"] = 7, b = false }
for i = 1, count do
  local p, s = pattern(), subject()
  local init = inits[random(#inits)] or nil
  local plain = random(4) == 1
  print(i, string.format("%q %q", s, p), tostring(init),
    try(string.find, s, p, init, plain),
    try(string.match, s, p, init),
    try(all_matches, s, p, init),
    try(string.gsub, s, p, "<%0|%1>"),
    try(string.gsub, s, p, "[%%]", random(0, 3)),
    try(string.gsub, s, p, function(...) return select("#", ...) % 2 == 0 and show(...) or nil end),
    try(string.gsub, s, p, replacement_table),
    try(string.gsub, s, p, "%2"))
end
