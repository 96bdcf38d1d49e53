import CLua
import CLuaShim
import PekitCore

/// Named policies: those defined by scripts (`pekit.policy.define`), those loaded from plugin
/// files on first use, and the built-in ones of `PekitCore` when no plugin file has the name.
package final class PolicyRegistry {
    final class Entry {
        let policy: Policy
        /// "built-in", "defined by a script", or the plugin file.
        let origin: String
        let fromPlugin: Bool
        /// Built once: `pekit.encode(s, name)` is called in loops.
        let encoder: PercentEncoder

        init(policy: Policy, origin: String, fromPlugin: Bool) {
            self.policy = policy
            self.origin = origin
            self.fromPlugin = fromPlugin
            encoder = policy.encoder
        }
    }

    private unowned let runtime: LuaRuntime
    private var entries: [String: Entry] = [:] { didSet { lastLookup = nil } }
    // The last name looked up: scripts call pekit.encode(s, "name") in loops.
    private var lastLookup: (name: String, entry: Entry)?
    private var resolving: [String] = []

    init(runtime: LuaRuntime) { self.runtime = runtime }

    /// The policy called `name`: defined, else from `plugins/name.lua`, else built in.
    /// - Throws: `PluginError` for a plugin that fails to load or is not a policy, or for an
    ///   unknown name; a cycle of `extends` is an error too.
    func get(_ name: String) throws -> Policy {
        try entry(name).policy
    }

    /// The default policy's entry (`rfc3986`).
    func defaultEntry() throws -> Entry { try entry("rfc3986") }

    func entry(_ name: String) throws -> Entry {
        if let last = lastLookup, last.name == name { return last.entry }
        if let entry = entries[name] {
            lastLookup = (name, entry)
            return entry
        }
        guard PluginLoader.isValidName(name) else {
            throw PluginError(description: "invalid plugin name \"\(name)\" (letters, digits, '-', '_' and '.' only)")
        }
        if resolving.contains(name) {
            throw PluginError(description: "policy \"\(name)\": extends itself (\((resolving + [name]).joined(separator: " -> ")))")
        }
        resolving.append(name)
        defer { resolving.removeLast() }
        let plugins = runtime.plugins
        let file = plugins.find(name)
        // A built-in policy's own file (plugins/NAME.lua as `pekit plugins export` writes it)
        // is the built-in policy: no Lua state is started to read what Swift already holds.
        if let file, let builtin = Policy.builtins[name], let text = PolicyPluginSource.text(builtin),
           case .bytes(let bytes) = PekitCore.Files.read(file, limit: PluginLoader.sizeLimit), bytes.elementsEqual(text.utf8) {
            let entry = Entry(policy: builtin, origin: "built-in", fromPlugin: false)
            entries[name] = entry
            return entry
        }
        if file != nil {
            let loaded = try plugins.load(name)
            guard loaded.kind == .policy else {
                throw PluginError(description: "plugin \"\(name)\" (\(loaded.file)) is a \(loaded.kind.rawValue), not a policy")
            }
            let place = "plugin \"\(name)\" (\(loaded.file))"
            let stack = loaded.runtime.stack
            loaded.push()
            defer { stack.pop() }
            let policy = try build(table: stack.top, in: loaded.runtime, origin: place, defaultName: name)
            let entry = Entry(policy: policy, origin: loaded.file, fromPlugin: true)
            entries[name] = entry
            return entry
        }
        if let builtin = Policy.builtins[name] {
            let entry = Entry(policy: builtin, origin: "built-in", fromPlugin: false)
            entries[name] = entry
            return entry
        }
        let known = Set(Policy.builtins.keys).union(entries.keys).sorted()
        let near = Suggestion.closest(to: name, among: known + plugins.names()).map { "; did you mean \"\($0)\"?" } ?? ""
        throw PluginError(description: "unknown policy \"\(name)\"\(near) (no \(name).lua on the plugin path: \(plugins.path.joined(separator: ", ")); built in: \(known.joined(separator: ", "))\(plugins.localHint(name)))")
    }

    /// A policy from the table at `index` of `owner`'s current stack (the host's, or a plugin's
    /// own runtime), resolving `extends` (default base: rfc3986).
    func build(table index: Int32, in owner: LuaRuntime, origin: String, defaultName: String?) throws -> Policy {
        let definition: PolicyDefinition
        do {
            definition = try PolicyDefinition(runtime: owner, table: index, origin: origin)
        } catch let error as LuaArgumentError {
            throw PluginError(description: "\(origin): \(error)")
        }
        var base = Policy.rfc3986
        if let parent = definition.extends { base = try get(parent) }
        if let defaultName { base.name = defaultName }
        base.description = ""
        return definition.applied(to: base)
    }

    /// Defines (or redefines) a policy from a script's table; it needs a `name`.
    func define(table index: Int32, in owner: LuaRuntime) throws -> Policy {
        let stack = owner.stack
        guard stack.rawGet(index, "name") == LUA_TSTRING, let name = stack.string(-1) else {
            stack.pop()
            throw LuaArgumentError("a policy needs a field \"name\" (a string)")
        }
        stack.pop()
        let policy = try build(table: index, in: owner, origin: "policy \"\(name)\"", defaultName: name)
        entries[name] = Entry(policy: policy, origin: "defined by a script", fromPlugin: false)
        return policy
    }

    /// Forgets policies that came from plugin files, so edited files are read again.
    func reset() {
        entries = entries.filter { !$0.value.fromPlugin }
    }

    /// Every policy a name can reach: defined ones, policy plugins on the path, built-ins.
    package func list() -> [(name: String, description: String, origin: String)] {
        var result: [String: (String, String)] = [:]
        for (name, builtin) in Policy.builtins { result[name] = (builtin.description, "built-in") }
        for plugin in runtime.plugins.list() where plugin.kind == PluginKind.policy.rawValue { result[plugin.name] = (plugin.description, plugin.file) }
        for (name, entry) in entries where !entry.fromPlugin && entry.origin != "built-in" {
            result[name] = (entry.policy.description, entry.origin)
        }
        return result.keys.sorted().map { ($0, result[$0]!.0, result[$0]!.1) }
    }
}
