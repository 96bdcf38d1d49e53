-- expect: ok
-- A comparator that yields: the host reports it when the policy is used (see the test).
return { kind = "policy", order = function(a, b) coroutine.yield() return a < b end }
