-- expect: policy_define.lua:3: pekit.policy.define: not allowed in a plugin (it defines policies for the whole runtime)
-- sandbox: ok
pekit.policy.define{ name = "rfc3986", allowed = "unreserved" }
return { kind = "policy" }
