import CLua
import CLuaShim

/// Swift objects that Lua scripts hold (cookie jars, requests): the userdata holds only an id,
/// the object stays in a Swift table, and the userdata's `__gc` drops it.
extension LuaRuntime {
    /// Creates (and leaves on the stack) the metatable of one kind of handle.
    /// - Parameter release: called with the id when Lua collects the handle.
    @discardableResult
    func newHandleMetatable(_ name: String, release: @escaping (LuaRuntime, Int) -> Void) -> Int32 {
        luaL_newmetatable(L, name)
        let meta = stack.top
        stack.push(name)
        stack.rawSet(meta, "__name")
        // getmetatable answers the name: a script cannot reach, or patch, the methods every
        // handle of the kind shares.
        stack.push(name)
        stack.rawSet(meta, "__metatable")
        setFunction(meta, name, "__gc") { call in
            if let id = call.runtime.handleID(at: 1, metatable: name) { release(call.runtime, id) }
            return 0
        }
        return meta
    }

    /// A new id for a handle.
    func nextHandleID() -> Int {
        handleCounter += 1
        return handleCounter
    }

    /// Pushes a handle userdata for `id` with the named metatable.
    func pushHandle(_ id: Int, metatable: String) {
        let raw = pekit_newuserdata(L, MemoryLayout<Int>.size)!
        raw.storeBytes(of: id, as: Int.self)
        _ = pekit_getmetatable_named(L, metatable)
        lua_setmetatable(L, -2)
    }

    /// The id in the handle at `index`, when it is a handle of that kind.
    func handleID(at index: Int32, metatable: String) -> Int? {
        luaL_testudata(L, index, metatable).map { $0.load(as: Int.self) }
    }
}
