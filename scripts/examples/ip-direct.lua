-- Reach a host at a chosen address ("IP direct", HTTPDNS) without breaking TLS or cookies.
-- Run it with:  scripts/run scripts/examples/ip-direct.lua   (starts the local demo server)
local port = os.getenv("PEKIT_DEMO_HTTPS_PORT") or error("run me with scripts/run, which starts the local demo server")
local cacert = os.getenv("PEKIT_DEMO_CACERT")

-- Say where the name lives; keep the name in the URL. Host, TLS SNI, the certificate check and
-- the cookie jar all see api.example.test while the socket goes to 127.0.0.1.
local name = "api.example.test:" .. port
local connect = { [name] = "127.0.0.1:" .. port }
local jar = pekit.cookies.jar()
local r = pekit.http.get("https://" .. name .. "/cookies/set?region=eu", { connect = connect, cacert = cacert, jar = jar })
local seen = r:json()
print("connected to", (r.address:gsub(":%d+$", "")), "| SNI", seen.sni, "| Host", (seen.headers[1][2]:gsub(":%d+$", "")))
print("cookie stored for", jar:all()[1].domain, "| sent back:", jar:header("https://" .. name .. "/"))

-- The same mapping is part of the request, so its curl command does the same thing.
local req = pekit.request { url = "https://" .. name .. "/echo", connect = connect }
print((req:curl():gsub(port, "PORT")))

-- The old way, rewriting the URL to the address, breaks the certificate check (and would file
-- cookies under the IP address).
local ok, err = pcall(pekit.http.get, "https://127.0.0.1:" .. port .. "/echo", { cacert = cacert })
print(ok, (err:gsub(port, "PORT")))
