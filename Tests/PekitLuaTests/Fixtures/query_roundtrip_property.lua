-- Property: for random nested parameters and each (policy, server) pair, pekit.query.check reports
-- no problem exactly when query.decode(query.encode(t, policy), server) gives t back (a server
-- that raises gives nothing back).
-- Usage: pekit run query_roundtrip_property.lua SEED COUNT (returns mismatches, lossy, exact)
local seed, count = ...
math.randomseed(tonumber(seed) or 1)
local alphabet = { "a", "b", "z", "0", "1", " ", "&", "=", "[", "]", "+", "%", ".", ",", "é", "漢", "?" }
local function str(min)
  local n = math.random(min or 0, 6)
  local t = {}
  for i = 1, n do t[i] = alphabet[math.random(#alphabet)] end
  return table.concat(t)
end
local function value(depth)
  local r = math.random(depth > 2 and 1 or 3)
  if r == 1 then return str() end
  if r == 2 then
    local a = {}
    for i = 1, math.random(1, 4) do a[i] = value(depth + 1) end
    return a
  end
  local m, any = {}, false
  for i = 1, math.random(1, 3) do m["k" .. str()] = value(depth + 1); any = true end
  return m
end
local function same(a, b)
  if type(a) ~= type(b) or b == pekit.null then return false end
  if type(a) ~= "table" then return a == b end
  for k, v in pairs(a) do if not same(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
local pairs_ = { { "qs", "qs" }, { "qs-brackets", "qs" }, { "qs-repeat", "qs" }, { "php", "php" }, { "rack", "rack" } }
local bad, lossy, exact = 0, 0, 0
for n = 1, tonumber(count) or 300 do
  local t = { root = value(0) }
  for _, pc in ipairs(pairs_) do
    local q = pekit.query.encode(t, pc[1])
    local ok, back = pcall(pekit.query.decode, q, { server = pc[2] })
    local problems = pekit.query.check(t, pc[1], pc[2])
    local equal = ok and same(t, back)
    if equal then exact = exact + 1 else lossy = lossy + 1 end
    if equal ~= (#problems == 0) then
      bad = bad + 1
      if bad <= 6 then
        print(pc[1], equal, #problems, q)
        print("  sent", pekit.inspect(t):gsub("\n%s*", " "))
        print("  back", pekit.inspect(back):gsub("\n%s*", " "))
        for _, p in ipairs(problems) do print("  problem", p.path, p.problem) end
      end
    end
  end
end
if arg then print("mismatches", bad, "lossy", lossy, "exact", exact) end
return bad, lossy, exact
