import CLua
import CLuaShim
import PekitCore

/// The `pekit` table: the prelude's markers, `pekit.version`, the encoding functions, every
/// module, the global `pekit` and what `require "pekit"` returns.
///
/// A module is installed the first time a script reads one of its fields (`pekit.url`), by the
/// table's `__index`; `pairs(pekit)` installs them all first. Why: every function, table and
/// name a module makes is an object each cycle of Lua's collector marks and sweeps, so a state
/// holding all fourteen made each cycle of a script that uses one of them cost twice what it
/// needs (issue 47: `pekit.encode` on 1 MB from Lua, where a cycle comes every other call).
package enum PekitModule {
    /// The modules. Adding a module is one type and one row here (docs/BRIDGE.md, "Adding a module").
    static let modules: [LuaModule.Type] = [CharsetModule.self, QueryModule.self, CryptoModule.self, TimeModule.self, SignModule.self,
                                            JWTModule.self, HARModule.self, HistogramModule.self, TaskModule.self, PolicyModule.self, PluginsModule.self,
                                            CookiesModule.self, RequestModule.self, HTTPModule.self, URLModule.self, RegexModule.self, TextModule.self, XMLModule.self]

    /// Builds the `pekit` table in `runtime`, makes it the global `pekit` and what `require "pekit"` returns.
    static func install(in runtime: LuaRuntime) throws {
        let stack = runtime.stack
        stack.newTable()
        let pekit = stack.top
        stack.pushValue(pekit)
        runtime.setRegistry(.pekit)

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
            // Only a sandbox is locked down (once, as it starts): the host's state keeps nothing it never runs.
            if key == .lockDown && runtime.role == .host { continue }
            _ = stack.rawGet(internals, field)
            runtime.setRegistry(key)
        }
        stack.pop()
        runtime.cacheMarkers()

        stack.push(Pekit.version)
        stack.rawSet(pekit, "version")
        EncodingFunctions.install(in: runtime, into: pekit)
        installLoader(in: runtime, on: pekit)

        stack.pushValue(pekit)
        runtime.setGlobal("pekit")
        _ = stack.rawGet(pekit_registryindex(), LUA_LOADED_TABLE)
        stack.pushValue(pekit)
        stack.rawSet(-2, "pekit")
        stack.pop(2)
    }

    /// Installs `module` in `runtime` (and first what it requires) unless it is there already.
    /// Called by the `pekit` table's `__index`, and by host code about to push a value whose
    /// metatable a module makes (`LuaRuntime.push(charset:)`).
    static func install(_ module: LuaModule.Type, in runtime: LuaRuntime) {
        let id = ObjectIdentifier(module)
        guard !runtime.installedModules.contains(id) else { return }
        runtime.installedModules.append(id)  // before its requirements, so that a cycle of them ends
        for required in module.requires { install(required, in: runtime) }
        let stack = runtime.stack
        runtime.getRegistry(.pekit)
        module.install(in: runtime, into: stack.top)
        stack.pop()
    }

    /// Installs every module not installed yet (the REPL's completion lists what is there).
    package static func installAll(in runtime: LuaRuntime) {
        for module in modules { install(module, in: runtime) }
    }

    /// The `pekit` table's metatable: `__index` installs the module a field belongs to and
    /// answers the field; `__pairs` installs them all, then walks the table as `next` does.
    /// `__metatable` keeps a script from taking the loader away.
    private static func installLoader(in runtime: LuaRuntime, on pekit: Int32) {
        let stack = runtime.stack
        stack.newTable(nrec: 3)
        let meta = stack.top
        runtime.setFunction(meta, "pekit", "__index") { call in
            guard call.stack.type(2) == LUA_TSTRING, let key = call.stack.string(2),
                  let module = modules.first(where: { $0.fields.contains(key) }) else { return 0 }
            install(module, in: call.runtime)
            _ = call.stack.rawGet(1, key)
            return 1
        }
        runtime.setFunction(meta, "pekit", "__pairs") { call in
            installAll(in: call.runtime)
            pekit_push_next(call.L)
            call.stack.pushValue(1)
            call.stack.pushNil()
            return 3
        }
        stack.push("pekit")
        stack.rawSet(meta, "__metatable")
        lua_setmetatable(runtime.L, pekit)
    }
}
