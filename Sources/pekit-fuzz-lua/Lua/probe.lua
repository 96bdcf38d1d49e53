local v = ...
local function encode_all(v)
  local out = {}
  for _, policy in ipairs { "rfc3986", "qs", "php", "rack", "afnetworking", "jquery" } do
    out[#out + 1] = tostring(select(2, pcall(pekit.query.encode, v, policy)))
  end
  out[#out + 1] = tostring(select(2, pcall(pekit.json.encode, v)))
  out[#out + 1] = pekit.inspect(v)
  return table.concat(out, "\n")
end
local main = encode_all(v)
assert(not main:find("pekit-fuzz: hostile metamethod", 1, true), "a metamethod ran: " .. main)
local inside = coroutine.wrap(encode_all)(v)
assert(inside == main, "a coroutine differs:\n" .. main .. "\n--\n" .. inside)
local ok, j = pcall(pekit.json.encode, v)
if ok then
  local w = pekit.json.decode(j)
  assert(pekit.json.encode(w) == j, "JSON round trip changed the value")
end
for _, policy in ipairs { "rfc3986", "qs", "php", "rack", "afnetworking", "jquery" } do
  local ok, q = pcall(pekit.query.encode, v, policy)
  if ok then
    assert(type(q) == "string")
    for _, server in ipairs(pekit_fuzz_servers) do
      pcall(pekit.query.decode, q, { server = server })
      pcall(pekit.query.check, v, policy, server)
    end
  end
end
pcall(pekit.query.pairs, v)
pcall(pekit.request, { url = "http://h/", params = v, policy = "qs" })
pcall(pekit.request, { url = "http://h/", json = v, method = "POST" })
assert(type(pekit.inspect(v)) == "string")
