import CLua
import CLuaShim

/// One `pekit.*` module: a type that makes its table (functions, metatables, handle tables) and
/// owns what it keeps, so that `LuaRuntime` keeps only the state, the dispatcher and the limits.
/// `PekitModule.modules` lists them; adding a module is one type and one row there (see
/// docs/BRIDGE.md, "Adding a module").
protocol LuaModule {
    /// The field of `pekit` the module fills (`"jwt"` for `pekit.jwt`).
    static var name: String { get }
    /// Makes the module's table in `runtime` and sets it as `pekit[name]` (`pekit` is the stack
    /// index of the `pekit` table); the stack is left as it was.
    static func install(in runtime: LuaRuntime, into pekit: Int32)
}

extension LuaModule {
    /// Makes a new table for the module, lets `body` fill it (its stack index given), and sets it
    /// as `pekit[name]`.
    static func installTable(in runtime: LuaRuntime, into pekit: Int32, _ body: (Int32) -> Void) {
        let stack = runtime.stack
        let base = stack.top
        stack.newTable()
        body(stack.top)
        stack.rawSet(pekit, name)
        assert(stack.top == base, "pekit.\(name): the stack is not as it was after installing")
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
        runtime.newHandleMetatable(metatable) { [unowned self] _, id in self.objects[id] = nil }
    }

    /// Pushes a new handle for `object`.
    func push(_ object: Object, in runtime: LuaRuntime) {
        let id = runtime.nextHandleID()
        objects[id] = object
        runtime.pushHandle(id, metatable: metatable)
    }

    /// The object of the handle at argument `index`.
    /// - Throws: a type error naming `expected` when it is not a live handle of this kind.
    func object(at index: Int32, _ call: LuaCall, expected: String) throws -> Object {
        guard let id = call.runtime.handleID(at: index, metatable: metatable), let object = objects[id] else {
            throw call.typeError(index, expected: expected)
        }
        return object
    }
}
