-- A tour of pekit: percent-encoding, policies from plugins, charsets, decoding, values.
-- Run it with:  scripts/run scripts/examples/tour.lua
print("pekit " .. pekit.version .. " on " .. _VERSION)

-- 1. One component, byte for byte, with any allowed set.
print(pekit.encode("汉字&ss", pekit.charset.letters))        --> %E6%B1%89%E5%AD%97%26ss

-- 2. The same string under each backend's rules (plugins/*.lua, loaded at run time).
local sample = "a b/?&=+~[]"
print(("%-18s %s"):format("input", sample))
for _, name in ipairs { "rfc3986", "afnetworking", "foundation-query", "form", "aws-sigv4" } do
  print(("%-18s %s"):format(name, pekit.encode(sample, name)))
end

-- 3. Allowed sets are values: combine them, test them, print them.
local brackets = pekit.charset.afnetworking + "[]"
print(brackets, brackets:contains("["), pekit.encode("tags[] = x y", brackets))

-- 4. A policy of your own, on top of a shipped one (a plugin file works the same way).
pekit.policy.define { name = "my-backend", extends = "afnetworking", allowed = brackets, space = "+" }
print(pekit.encode("tags[] = x y", "my-backend"))

-- 5. Decoding: lenient by default, strict on request, with errors that say where.
print(pekit.decode("a%20b+c%zz"), pekit.decode("a%20b+c", { plus = true }))
local ok, err = pcall(function() return pekit.decode("100%zz", { strict = true }) end)
print(ok, err)

-- 6. Values that Lua tables cannot say on their own: null, key order, sets, empty arrays.
print(pekit.inspect {
  name = "小A", nothing = pekit.null, tags = pekit.set { "b", "a" }, list = pekit.array {},
  order = pekit.ordered { { "b", 1 }, { "a", 2 } },
})

-- 7. The plugins this run can see.
for _, plugin in ipairs(pekit.plugins.list()) do
  print(("plugin %-17s %-14s %s"):format(plugin.name, plugin.kind, plugin.file))
end
