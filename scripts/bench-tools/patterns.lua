-- Pattern matching work timed inside the process (os.clock), so that start-up is not counted:
-- run by plain lua5.4 (Lua's own C matcher) and by pekit run (pekit's stoppable matcher).
local s = ("key=value&other=thing%20x&"):rep(2000)
local t = os.clock()
local n = 0
for _ = 1, 20 do
  for k, v in s:gmatch("([^&=]+)=([^&]*)") do n = n + #k + #v end
  local r = s:gsub("%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end)
  n = n + #r + (s:find("thing%d+x", 1) or 0) + #(s:match("^(.-)&") or "")
end
print(string.format('{"seconds": %.6f, "check": %d}', os.clock() - t, n))
