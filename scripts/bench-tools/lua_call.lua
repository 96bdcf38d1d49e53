-- Run by `pekit run`: the cost of crossing from Lua into pekit.encode, against the usual
-- plain-Lua gsub encoder on the same input. Prints JSON lines.
local clock = os.clock
local function median(t) table.sort(t); return t[(#t + 1) // 2] end
local function gsub_encode(s)
  return (s:gsub("[^A-Za-z0-9%-%._~]", function(c) return string.format("%%%02X", c:byte()) end))
end

local short = "a b/c?d=e&f~g_h."  -- 16 bytes, some escapes
assert(#short == 16)
local n = 1000000
local function per_call(f)
  local runs = {}
  for r = 1, 5 do
    local t = clock()
    for i = 1, n do f(short) end
    runs[r] = (clock() - t) / n * 1e9
  end
  return median(runs)
end
local encode = pekit.encode
print(string.format('{"case":"16B","impl":"pekit.encode","ns":%.1f}', per_call(encode)))
print(string.format('{"case":"16B","impl":"lua-gsub","ns":%.1f}', per_call(gsub_encode)))

local big = {}
local words = { "the ", "quick ", "brown ", "fox/", "jumps?", "over=", "lazy&", "dog. ", "汉字 " }
local size = 0
while size < 1000000 do local w = words[#big % #words + 1]; big[#big + 1] = w; size = size + #w end
big = table.concat(big):sub(1, 1000000)
-- Measured as pekit-bench measures the Swift-only figure: `warmups` calls first, then the median
-- of `runs` runs of `calls` calls each (one unless given), each run timed whole. pekit.encode is measured in the steady state (5 and 15, as `pekit-bench encode`'s
-- "pekit" row): a result lives until the collector frees it, so the first few calls of a state
-- write into pages the heap has never had (a page fault each 4 KB), where the Swift-only loop
-- frees each result at once and reuses its block from the second call. Those first calls are
-- reported on their own line, not hidden.
local function rate(f, warmups, runs, calls)
  calls = calls or 1
  local first, timed = {}, {}
  for r = 1, warmups do
    local t = clock(); f(big); first[r] = #big / 1e6 / (clock() - t)
  end
  for r = 1, runs do
    local t = clock()
    for _ = 1, calls do f(big) end
    timed[r] = calls * #big / 1e6 / (clock() - t)
  end
  return median(timed), first
end
local steady, first = rate(encode, 5, 15)
print(string.format('{"case":"1MB","impl":"pekit.encode","mbps":%.1f}', steady))
-- Sustained: the median of 7 runs of 15 calls each (`pekit-bench encode`'s "pekit-sustained"
-- row measures the Swift-only encoder the same way). A cycle of Lua's collector comes every
-- other call here, so a median of single calls lands on a call with one or on a call without
-- one, and either misstates what a loop of calls gets.
print(string.format('{"case":"1MB-sustained","impl":"pekit.encode","mbps":%.1f}', (rate(encode, 0, 7, 15))))
local calls = {}
for i, v in ipairs(first) do calls[i] = string.format("%.0f", v) end
print(string.format('{"case":"1MB-first","impl":"pekit.encode","mbps":%.1f,"calls":[%s]}', median(first), table.concat(calls, ",")))
print(string.format('{"case":"1MB","impl":"lua-gsub","mbps":%.1f}', (rate(gsub_encode, 1, 7))))
local f = assert(io.open(arg[1], "wb")); f:write(big); f:close()
