-- pekit.query from Lua on the benchmark document (decoded once with pekit.json, not timed).
local f = assert(io.open(arg[1], "rb")); local doc = pekit.json.decode(f:read("a")); f:close()
-- As every row of the section: three calls first (the heap grows to its working size), then the
-- median of seven.
local function median(fn)
  for _ = 1, 3 do fn() end
  local t = {}
  for i = 1, 7 do local s = os.clock(); fn(); t[i] = (os.clock() - s) * 1000 end
  table.sort(t); return t[4]
end
local out
local options = { policy = "qs" }
local encode_ms = median(function() out = pekit.query.encode(doc, "qs") end)
local parse_opts = { parameterLimit = math.huge, arrayLimit = 1000, depth = 10 }
local parse_ms = median(function() pekit.query.decode(out, parse_opts) end)
print(string.format('{"impl":"pekit-lua","encode_ms":%.2f,"parse_ms":%.2f,"bytes":%d}', encode_ms, parse_ms, #out))
