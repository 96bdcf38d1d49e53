-- Log in to a server, keep the session cookie in a jar, and reuse it.
-- Run it with:  scripts/run scripts/examples/session.lua   (starts the local demo server)
local base = os.getenv("PEKIT_DEMO_URL") or error("run me with scripts/run, which starts the local demo server")
local function path(url) return url:sub(#base + 1) end

local jar = pekit.cookies.jar()

-- POST the form; the server answers 303 See Other with a session cookie, and pekit follows it
-- as a browser does: GET /me, carrying the cookie it was just given.
local r = pekit.http.post(base .. "/login", { form = { user = "ada", password = "secret" }, jar = jar })
local hop = r.redirects[1]
print(("%s %s -> %d, Location %s"):format(hop.method, path(hop.url), hop.status, hop.location))
print(("%s %s -> %d %s"):format(r.method, path(r.url), r.status, r.reason), "user = " .. r:json().user)

-- The jar holds the cookie (HttpOnly, host-only, for 127.0.0.1) and sends it where it belongs.
local c = jar:all()[1]
print("stored:", c.name, c.domain, c.path, c.http_only and "HttpOnly" or "", c.host_only and "host-only" or "")
print("GET /me ->", pekit.http.get(base .. "/me", { jar = jar }).status)
print("GET /me without the jar ->", pekit.http.get(base .. "/me").status)

-- Logging out deletes it (Max-Age=0), and the session is over.
pekit.http.get(base .. "/logout", { jar = jar })
print("after logout:", #jar, "cookies; GET /me ->", pekit.http.get(base .. "/me", { jar = jar }).status)
