import CLua
import CLuaShim

/// Swift objects that Lua scripts hold (cookie jars, requests): the userdata holds only an id,
/// the object stays in a Swift table, and the userdata's `__gc` drops it.
enum LuaHandle {
    /// Creates (and leaves on the stack) the metatable of one kind of handle.
    /// - Parameter release: called with the id when Lua collects the handle.
    @discardableResult
    static func newMetatable(_ name: String, in runtime: LuaRuntime, release: @escaping (LuaRuntime, Int) -> Void) -> Int32 {
        let stack = runtime.stack
        luaL_newmetatable(runtime.L, name)
        let meta = stack.top
        stack.push(name)
        stack.rawSet(meta, "__name")
        // getmetatable answers the name: a script cannot reach, or patch, the methods every
        // handle of the kind shares.
        stack.push(name)
        stack.rawSet(meta, "__metatable")
        runtime.setFunction(meta, name, "__gc") { call in
            if let id = id(at: 1, metatable: name, in: call.runtime) { release(call.runtime, id) }
            return 0
        }
        return meta
    }

    /// Pushes a handle userdata for `id` with the named metatable.
    static func push(_ id: Int, metatable: String, in runtime: LuaRuntime) {
        let L = runtime.L
        guard let raw = pekit_newuserdata(L, MemoryLayout<Int>.size) else { return }
        raw.storeBytes(of: id, as: Int.self)
        _ = pekit_getmetatable_named(L, metatable)
        lua_setmetatable(L, -2)
    }

    /// The id in the handle at `index`, when it is a handle of that kind.
    static func id(at index: Int32, metatable: String, in runtime: LuaRuntime) -> Int? {
        luaL_testudata(runtime.L, index, metatable).map { $0.load(as: Int.self) }
    }
}

/// The Swift objects of one kind of handle a script holds (a hash being fed, a request, a jar):
/// the userdata holds an id, the object stays here, and collecting the userdata drops it.
final class LuaHandleTable<Object> {
    /// The metatable's name (`pekit.hash`): also what `getmetatable` answers.
    let metatable: String
    private(set) var objects: [Int: Object] = [:]

    init(metatable: String) { self.metatable = metatable }

    /// Makes the metatable (left on the stack, its index returned): `__name`, `__metatable` and
    /// a `__gc` that drops the object.
    @discardableResult
    func install(in runtime: LuaRuntime) -> Int32 {
        LuaHandle.newMetatable(metatable, in: runtime) { [unowned self] _, id in self.objects[id] = nil }
    }

    /// Pushes a new handle for `object`.
    func push(_ object: Object, in runtime: LuaRuntime) {
        let id = runtime.nextHandleID()
        objects[id] = object
        LuaHandle.push(id, metatable: metatable, in: runtime)
    }

    /// The object of the handle at `index`, or nil when the value there is not a live handle of this kind.
    func object(at index: Int32, in runtime: LuaRuntime) -> Object? {
        LuaHandle.id(at: index, metatable: metatable, in: runtime).flatMap { objects[$0] }
    }

    /// The object of the handle at argument `index`.
    /// - Throws: a type error naming `expected` when it is not a live handle of this kind.
    func object(at index: Int32, _ call: LuaCall, expected: String) throws -> Object {
        guard let object = object(at: index, in: call.runtime) else { throw call.typeError(index, expected: expected) }
        return object
    }
}
