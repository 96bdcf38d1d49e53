import CLua
import CLuaShim
import Foundation
import PekitCore

/// What `pekit.plugins.list()` and `pekit plugins` show of one plugin file.
public struct PluginInfo: Equatable {
    public let name: String
    public let kind: String
    public let description: String
    public let file: String
    /// Why the file could not be loaded, when it could not.
    public let error: String?
}

/// An error that names the plugin and its file: `plugin "x" (plugins/x.lua): …`.
struct PluginError: Error, CustomStringConvertible {
    let description: String
}

/// Finds plugin files on the search path and loads each, as text, into a runtime of its own
/// (role `.plugin`: its own Lua state, memory cap and instruction budget, pure functions only).
package final class PluginLoader {
    /// One loaded plugin; its table stays in its own runtime's registry.
    struct Loaded {
        let name: String
        let kind: PluginKind
        let description: String
        let file: String
        /// The plugin's own runtime.
        let runtime: LuaRuntime
        let ref: Int32

        /// Pushes the plugin's table onto its own runtime's stack.
        func push() { runtime.pushReference(ref) }
    }

    /// The largest plugin file read: plugins are source code, and a device or a huge file on the
    /// path must not take the host's memory.
    static let sizeLimit = 4 << 20
    private unowned let runtime: LuaRuntime
    private var cache: [String: Loaded] = [:]
    /// Plugins being loaded now, outermost first: a plugin whose code (through the host) asks
    /// for itself again is a cycle, not an endless recursion.
    private var loading: [String] = []
    /// Plugins read before a reload: policies and filters made from them still call into them.
    private var retired: [Loaded] = []

    init(runtime: LuaRuntime) { self.runtime = runtime }

    /// The default search path, first match wins: `--plugins` directories, `PEKIT_PLUGIN_PATH`,
    /// `./plugins`, `~/.config/pekit/plugins`, then the plugins installed beside the binary
    /// (`PREFIX/share/pekit/plugins`) or, for a binary in a build tree, the source tree's `plugins/`.
    static func defaultPath(options: LuaRuntime.Options) -> [String] {
        var path = options.extraPluginDirectories
        if let list = options.environmentVariable("PEKIT_PLUGIN_PATH") {
            path += list.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        // A checkout someone else wrote may carry ./plugins: searched only when the user trusts it,
        // as git runs no hooks and honours no config that a repository brings with it.
        if options.trustLocalPlugins ?? (options.environmentVariable("PEKIT_TRUST_LOCAL_PLUGINS") == "1") {
            path.append("./plugins")
        }
        if let home = options.environmentVariable("HOME"), !home.isEmpty { path.append(home + "/.config/pekit/plugins") }
        if let executable = options.executablePath {
            let binDirectory = FilePaths.directory(of: FilePaths.resolved(executable) ?? FilePaths.absolute(executable))
            path.append(FilePaths.joined(FilePaths.directory(of: binDirectory), "share/pekit/plugins"))
            // A binary under .build/…/release: the source tree's plugins/.
            var directory = binDirectory
            for _ in 0..<5 {
                directory = FilePaths.directory(of: directory)
                if FilePaths.exists(FilePaths.joined(directory, "Package.swift")) {
                    path.append(FilePaths.joined(directory, "plugins"))
                    break
                }
            }
        }
        // A handful of directories: a list, as the first Set<String> of a process costs its
        // start-up a search for the conformances it needs (issue 47).
        var unique: [String] = []
        for directory in path where !unique.contains(directory) { unique.append(directory) }
        return unique
    }

    /// The current search path (the Lua table `pekit.plugins.path`, which scripts may change).
    package var path: [String] {
        let stack = runtime.stack
        // The table is made with `pekit.plugins`, which a script that names a plugin's policy
        // (`pekit.encode(s, "mypolicy")`) may never have read.
        PekitModule.install(PluginsModule.self, in: runtime)
        defer { stack.pop() }
        guard runtime.getRegistry(.pluginPath) == LUA_TTABLE else { return [] }
        return (0..<stack.rawLength(-1)).compactMap { i in
            _ = stack.rawGetIndex(-1, Int64(i + 1))
            defer { stack.pop() }
            return stack.string(-1)
        }
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == ".")
        }
    }

    /// The file of plugin `name`, first match on the path.
    func find(_ name: String) -> String? {
        guard Self.isValidName(name) else { return nil }
        for directory in path {
            let file = FilePaths.joined(directory, name + ".lua")
            if FilePaths.isReadable(file) { return file }
        }
        return nil
    }

    /// Loads (once) and returns plugin `name`.
    /// - Throws: `PluginError` naming the plugin and file: not found, syntax error, runtime error,
    ///   budget or memory exceeded, not returning a table, a bad `name` or `kind`.
    func load(_ name: String) throws -> Loaded {
        if let loaded = cache[name] { return loaded }
        guard Self.isValidName(name) else {
            throw PluginError(description: "invalid plugin name \"\(name)\" (letters, digits, '-', '_' and '.' only)")
        }
        guard let file = find(name) else {
            throw PluginError(description: "no plugin \"\(name)\" (looked for \(name).lua in: \(path.joined(separator: ", "))\(localHint(name)))")
        }
        guard !loading.contains(name) else {
            throw PluginError(description: "plugin \"\(name)\" (\(file)) is needed while it loads (\((loading + [name]).joined(separator: " -> ")))")
        }
        loading.append(name)
        defer { loading.removeLast() }
        let loaded = try load(file: file, name: name)
        cache[name] = loaded
        return loaded
    }

    /// What to say when the plugin is in an untrusted ./plugins.
    func localHint(_ name: String) -> String {
        guard !path.contains("./plugins"), FileManager.default.isReadableFile(atPath: "plugins/\(name).lua") else { return "" }
        return "; ./plugins/\(name).lua exists but ./plugins is searched only when trusted: use --plugins ./plugins or PEKIT_TRUST_LOCAL_PLUGINS=1 if you trust this directory"
    }

    /// Forgets loaded plugins so the next use reads the files again (`:reload`).
    func reset() {
        retired += cache.values
        cache.removeAll()
    }

    private func load(file: String, name: String) throws -> Loaded {
        let place = "plugin \"\(name)\" (\(file))"
        if runtime.options.environmentVariable("PEKIT_UNSAFE_PLUGINS") != "1", let why = PluginTrust.refusal(of: file) {
            throw PluginError(description: "\(place): refused: \(why), so another user could have written it (fix its permissions, or PEKIT_UNSAFE_PLUGINS=1 to load it anyway)")
        }
        let data: [UInt8]
        switch PekitCore.Files.read(file, limit: Self.sizeLimit) {
        case .bytes(let read): data = read
        case .notRegular: throw PluginError(description: "\(place): not a regular file")
        case .tooLarge: throw PluginError(description: "\(place): larger than \(Self.sizeLimit >> 20) MB (a plugin is source code)")
        case .failed(let why): throw PluginError(description: "\(place): cannot read the file (\(why))")
        }
        let plugin: LuaRuntime
        do {
            plugin = try LuaRuntime(options: runtime.options, role: .plugin(name: name, file: file), host: runtime)
        } catch let error as LuaError {
            throw PluginError(description: "\(place): \(error.message)")
        }
        let stack = plugin.stack
        let base = stack.top
        defer { stack.setTop(base) }
        do {
            // A short chunk name: Lua cuts long ones to "...", and the message names the full path anyway.
            try plugin.load(data, chunkName: "@" + name + ".lua")
            try plugin.call(0, results: 1, traceback: false)
        } catch let error as LuaError {
            throw PluginError(description: "\(place): \(error.message)")
        }
        guard stack.type(-1) == LUA_TTABLE else {
            throw PluginError(description: "\(place): a plugin must return a table, not \(stack.typeName(-1) == "nil" ? "nothing" : "a " + stack.typeName(-1))")
        }
        let table = stack.top
        var kindName = ""
        if stack.rawGet(table, "kind") == LUA_TSTRING { kindName = stack.string(-1) ?? "" }
        stack.pop()
        guard let kind = PluginKind(rawValue: kindName) else {
            throw PluginError(description: "\(place): field \"kind\" must be \(PluginKind.names), not \(kindName.isEmpty ? "missing" : "\"\(kindName)\"")")
        }
        let nameType = stack.rawGet(table, "name")
        if nameType != LUA_TNIL {
            let declared = stack.string(-1)
            guard declared == name else {
                throw PluginError(description: "\(place): field \"name\" is \(declared.map { "\"\($0)\"" } ?? "not a string"); it must match the file name \"\(name)\"")
            }
        }
        stack.pop()
        var description = ""
        let descriptionType = stack.rawGet(table, "description")
        if descriptionType == LUA_TSTRING { description = stack.string(-1) ?? "" }
        defer { stack.pop() }
        guard descriptionType == LUA_TSTRING || descriptionType == LUA_TNIL else {
            throw PluginError(description: "\(place): field \"description\" must be a string, not a \(stack.typeName(-1))")
        }
        do { try kind.validate(table: table, in: plugin, origin: place) } catch let error as LuaArgumentError {
            throw PluginError(description: "\(place): \(error)")
        }
        stack.pushValue(table)
        return Loaded(name: name, kind: kind, description: description, file: file, runtime: plugin, ref: plugin.reference())
    }

    /// The names of the plugin files on the path, none loaded (for "did you mean").
    func names() -> [String] {
        path.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".lua") }.map { String($0.dropLast(4)) }
        }.filter(Self.isValidName)
    }

    /// Every plugin file on the path (first match per name), loaded to read its kind and
    /// description; files that fail to load are listed with their error.
    package func list() -> [PluginInfo] {
        var seen = Set<String>()
        var result: [PluginInfo] = []
        for directory in path {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".lua") }.sorted()
            for file in files {
                let name = String(file.dropLast(4))
                guard Self.isValidName(name), seen.insert(name).inserted else { continue }
                do {
                    let loaded = try load(name)
                    result.append(PluginInfo(name: name, kind: loaded.kind.rawValue, description: loaded.description, file: loaded.file, error: nil))
                } catch {
                    result.append(PluginInfo(name: name, kind: "?", description: "", file: FilePaths.joined(directory, file), error: "\(error)"))
                }
            }
        }
        return result.sorted { $0.name < $1.name }
    }
}
