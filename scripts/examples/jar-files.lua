-- Save a cookie jar to a file and load it in a later run (Netscape cookies.txt, as curl -c writes).
-- Run it with:  scripts/run scripts/examples/jar-files.lua   (starts the local demo server)
local base = os.getenv("PEKIT_DEMO_URL") or error("run me with scripts/run, which starts the local demo server")
local file = os.tmpname()

-- Run 1: log in, and save the jar (sessions = true keeps the session cookie, as curl -c does).
local jar = pekit.cookies.jar()
pekit.http.post(base .. "/login", { form = { user = "linus", password = "penguin" }, jar = jar })
pekit.http.get(base .. "/cookies/set?theme=dark", { jar = jar })
jar:save(file, { sessions = true })
for line in io.lines(file) do
  if not line:match("^#%s") and line ~= "" then print((line:gsub("%x%x%x%x%x%x%x%x+$", "…"))) end
end

-- Run 2: a new jar from the file is already logged in.
local later = pekit.cookies.jar()
later:load(file)
print("loaded", #later, "cookies; GET /me ->", pekit.http.get(base .. "/me", { jar = later }):json().user)
os.remove(file)
