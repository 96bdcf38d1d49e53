-- expect: attempt to yield from outside a coroutine
coroutine.yield()
return { kind = "policy" }
