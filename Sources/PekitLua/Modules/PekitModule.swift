import CLua
import CLuaShim
import PekitCore

/// The `pekit` table: the prelude's markers, `pekit.version`, every module, the global `pekit`
/// and what `require "pekit"` returns.
enum PekitModule {
    /// The modules, installed in this order (charset first: other modules' values hold charsets).
    /// Adding a module is one type and one row here (docs/BRIDGE.md, "Adding a module").
    static let modules: [LuaModule.Type] = [CharsetModule.self, QueryModule.self, CryptoModule.self, TimeModule.self, SignModule.self,
                                            JWTModule.self, HARModule.self, TaskModule.self, PolicyModule.self, PluginsModule.self,
                                            CookiesModule.self, RequestModule.self, HTTPModule.self, URLModule.self]

    /// Builds the `pekit` table in `runtime`, makes it the global `pekit` and what `require "pekit"` returns.
    static func install(in runtime: LuaRuntime) throws {
        let stack = runtime.stack
        stack.newTable()
        let pekit = stack.top

        // The prelude: value markers, inspect, the sandbox builder.
        try runtime.loadPrelude()
        stack.pushValue(pekit)
        pekit_open_cookie_lists(runtime.L)
        try runtime.call(2, results: 1)
        let internals = stack.top
        for (field, key) in [("null_mt", RegistryKey.nullMetatable), ("ordered_mt", .orderedMetatable),
                             ("set_mt", .setMetatable), ("array_mt", .arrayMetatable),
                             ("null", .null), ("lockdown", .lockDown), ("inspect", .inspect), ("orders", .orders),
                             ("headers_mt", .headersMetatable), ("response_mt", .responseMetatable),
                             ("error_mt", .errorMetatable)] {
            _ = stack.rawGet(internals, field)
            runtime.setRegistry(key)
        }
        stack.pop()
        runtime.cacheMarkers()

        stack.push(Pekit.version)
        stack.rawSet(pekit, "version")
        EncodingFunctions.install(in: runtime, into: pekit)
        for module in modules { module.install(in: runtime, into: pekit) }

        stack.pushValue(pekit)
        runtime.setGlobal("pekit")
        _ = stack.rawGet(pekit_registryindex(), LUA_LOADED_TABLE)
        stack.pushValue(pekit)
        stack.rawSet(-2, "pekit")
        stack.pop(2)
    }
}
