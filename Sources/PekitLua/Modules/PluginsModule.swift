import CLua
import CLuaShim
import PekitCore

/// `pekit.plugins`: `path` (a plain list scripts may change), `load(name)` (a copy of the
/// plugin's table; its functions run in the plugin's own state), `list()`, `reload()`.
enum PluginsModule: LuaModule {
    static let name = "plugins"

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let stack = runtime.stack
        let setFunction = runtime.setFunction
        installTable(in: runtime, into: pekit) { module in
            // The search path is a plain Lua list: scripts may insert their own directories.
            let path = PluginLoader.defaultPath(options: runtime.options)
            stack.newTable(narr: Int32(path.count))
            for (i, directory) in path.enumerated() { stack.push(directory); stack.rawSetIndex(-2, Int64(i + 1)) }
            stack.pushValue(-1)
            runtime.setRegistry(.pluginPath)
            stack.rawSet(module, "path")
            setFunction(module, "pekit.plugins", "load") { call in
                try call.require(.plugins)
                let loaded = try call.runtime.plugins.load(try call.string(1))
                // A copy: the plugin's own table stays in its own state, out of the caller's reach.
                try pushCopy(of: loaded, in: call.runtime)
                return 1
            }
            setFunction(module, "pekit.plugins", "list") { call in
                try call.require(.plugins)
                call.runtime.push(.array(call.runtime.plugins.list().map { info in
                    var entries: [PekitMap.Entry] = [.init(key: "name", value: .text(info.name)), .init(key: "kind", value: .text(info.kind)),
                                                     .init(key: "description", value: .text(info.description)), .init(key: "file", value: .text(info.file))]
                    if let error = info.error { entries.append(.init(key: "error", value: .text(error))) }
                    return .map(PekitMap(unordered: entries))
                }), keepOrder: false)
                return 1
            }
            setFunction(module, "pekit.plugins", "reload") { call in
                try call.require(.plugins)
                call.runtime.reloadPlugins()
                return 0
            }
        }
    }

    /// Pushes a copy of a loaded plugin's table onto the current state (functions as proxies that
    /// call into the plugin under its limits).
    static func pushCopy(of loaded: PluginLoader.Loaded, in runtime: LuaRuntime) throws {
        loaded.push()
        defer { loaded.runtime.stack.pop() }
        let copy: LuaCopy
        do { copy = try loaded.runtime.copy(at: -1, path: "plugin \"\(loaded.name)\"", functions: true) } catch {
            throw PluginError(description: "plugin \"\(loaded.name)\" (\(loaded.file)): \(error)")
        }
        runtime.push(copy: copy)
    }
}
