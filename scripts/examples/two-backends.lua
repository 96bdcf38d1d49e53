-- The same parameters, encoded for two backends, sent, and read back as each server would.
-- Run it with:  scripts/run scripts/examples/two-backends.lua   (starts the local demo server)
local base = os.getenv("PEKIT_DEMO_URL") or error("run me with scripts/run, which starts the local demo server")

local params = pekit.ordered {
  { "user", pekit.ordered { { "name", "小A" }, { "tags", { "a b", "c,d" } } } },
  { "page", 2 },
}

-- A Rails/Rack backend and a Node backend using qs with comma arrays: each is a plugin in
-- plugins/, so a different backend's rules are a different Lua file.
for _, backend in ipairs { { policy = "rack", server = "rack" }, { policy = "qs-comma", server = "qs" } } do
  local req = pekit.request { url = base .. "/echo", params = params, policy = backend.policy }
  print(("%-9s GET %s"):format(backend.policy, req:send():json().target))
  -- What would that server make of it? check reads it the way the server's own parser does and
  -- reports every value that does not arrive exactly as sent (numbers arrive as strings).
  local problems = pekit.query.check(params, backend.policy, backend.server)
  for _, p in ipairs(problems) do print(("%-9s   %-12s %s: %s"):format("", p.status, p.path, p.problem)) end
end
