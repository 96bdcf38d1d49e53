-- Plain-Lua peers for scripts/bench: the usual gsub encoder and decoder, on the same files.
-- usage: lua5.4 peers.lua encode|decode FILE...  (prints JSON lines like pekit-bench)
local op = arg[1]
local function encode(s)
  return (s:gsub("[^A-Za-z0-9%-%._~]", function(c) return string.format("%%%02X", c:byte()) end))
end
local function decode(s)
  return (s:gsub("%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end))
end
local fn = op == "encode" and encode or decode
for i = 2, #arg do
  local f = assert(io.open(arg[i], "rb")); local data = f:read("a"); f:close()
  fn(data)
  local rates = {}
  for r = 1, 5 do
    local t = os.clock(); fn(data); rates[r] = #data / 1e6 / (os.clock() - t)
  end
  table.sort(rates)
  print(string.format('{"op":"%s","impl":"lua-gsub","input":"%s","mbps":%.1f}', op, arg[i]:match("[^/]+$"), rates[3]))
end
