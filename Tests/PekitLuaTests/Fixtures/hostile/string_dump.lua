-- expect: ok
assert(("").dump == nil, "dump is reachable through the string metatable")
assert(string.dump == nil, "string.dump is there")
assert(getmetatable("") == nil, "the string metatable is visible")
return { kind = "policy" }
