import CLua
import CLuaShim

/// One `pekit.*` module: a type that makes its table (functions, metatables, handle tables) and
/// owns what it keeps, so that `LuaRuntime` keeps only the state, the dispatcher and the limits.
/// `PekitModule.modules` lists them; a module is installed the first time a script reads one of
/// its `fields` of `pekit` (`PekitModule.install(_:in:)`). Adding a module is one type and one
/// row there (see docs/BRIDGE.md, "Adding a module").
protocol LuaModule {
    /// The field of `pekit` the module fills (`"jwt"` for `pekit.jwt`).
    static var name: String { get }
    /// Every field of `pekit` the module sets (reading any of them installs it); `[name]` unless
    /// the module sets more (`pekit.query` and `pekit.json`).
    static var fields: [String] { get }
    /// The modules whose handles this one's functions make, or whose registry entries they read:
    /// installed before it, so that no function of it meets a metatable that is not there yet.
    static var requires: [LuaModule.Type] { get }
    /// Makes the module's table in `runtime` and sets it as `pekit[name]` (`pekit` is the stack
    /// index of the `pekit` table); the stack is left as it was.
    static func install(in runtime: LuaRuntime, into pekit: Int32)
}

extension LuaModule {
    static var fields: [String] { [name] }
    static var requires: [LuaModule.Type] { [] }

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
