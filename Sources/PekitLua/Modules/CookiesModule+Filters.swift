import CLua
import CLuaShim
import Foundation
import PekitCore

/// Cookie filters: inline tables of functions, plugins (run in their own state), lists of both.
extension CookiesModule {
    /// Filters from a spec: a plugin name, `{ "name", option = … }`, a table of functions, or a list of these.
    static func filters(at index: Int32, _ call: LuaCall) throws -> [CookieFilter] {
        let runtime = call.runtime
        let stack = call.stack
        let i = stack.absolute(index)
        switch stack.type(i) {
        case LUA_TNIL, LUA_TNONE: return []
        case LUA_TSTRING: return [try filterFromPlugin(name: stack.string(i) ?? "", options: nil, in: runtime)]
        case LUA_TTABLE: break
        default: throw LuaArgumentError("filter must be a plugin name, a table of functions, or a list of these")
        }
        // A list of filters: only positional entries, each a string or a table.
        var onlyPositional = true
        try runtime.forEachRaw(i) { if !stack.isInteger(-2) { onlyPositional = false } }
        let first = stack.rawGetIndex(i, 1)
        stack.pop()
        if onlyPositional && stack.rawLength(i) > 0 && (first == LUA_TTABLE || stack.rawLength(i) > 1) {
            var result: [CookieFilter] = []
            for n in 1...stack.rawLength(i) {
                _ = stack.rawGetIndex(i, Int64(n))
                defer { stack.pop() }
                result += try filters(at: stack.top, call)
            }
            return result
        }
        if first == LUA_TSTRING {
            _ = stack.rawGetIndex(i, 1)
            let name = stack.string(-1) ?? ""
            stack.pop()
            return [try filterFromPlugin(name: name, options: i, in: runtime)]
        }
        return [filter(fromTable: i, name: "inline", in: runtime)]
    }

    /// `KEY=VALUE,…` as options: a value with `=` is a map entry, a repeated key a list; each
    /// value JSON where it parses (`strict=false` is false, `max=3` is 3), as `query --set` reads.
    static func shorthandOptions(_ text: String, filter: String) throws -> PekitValue {
        var keys: [String] = []
        var values: [String: PekitValue] = [:]
        // The keys given more than once: their values are a list (a value that is itself a JSON
        // list, `names=["a"]`, is not one to append to).
        var repeated: Set<String> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw LuaArgumentError("\(filter): options are KEY=VALUE separated by commas (or a JSON object), not \"\(item)\"")
            }
            let key = String(item[..<eq]), value = item[item.index(after: eq)...]
            if !keys.contains(key) { keys.append(key) }
            if let inner = value.firstIndex(of: "=") {
                var entries: [PekitMap.Entry] = []
                if case .map(let existing)? = values[key] { entries = existing.entries }
                else if values[key] != nil { throw LuaArgumentError("\(filter): option \"\(key)\" is given both as a map entry and as a value") }
                entries.append(.init(key: ByteString(String(value[..<inner])), value: JSONText.optionValue(String(value[value.index(after: inner)...]))))
                values[key] = .map(PekitMap(ordered: entries))
            } else if let existing = values[key] {
                switch existing {
                case .map: throw LuaArgumentError("\(filter): option \"\(key)\" is given both as a map entry and as a value")
                case .array(let items) where repeated.contains(key): values[key] = .array(items + [JSONText.optionValue(String(value))])
                default: values[key] = .array([existing, JSONText.optionValue(String(value))]); repeated.insert(key)
                }
            } else {
                values[key] = JSONText.optionValue(String(value))
            }
        }
        return .map(PekitMap(ordered: keys.map { .init(key: ByteString($0), value: values[$0] ?? .null) }))
    }

    /// A filter from a cookie-filter plugin: its table, or what its `new(options)` returns. The
    /// options are copied into the plugin's own state; its functions run there, under its limits.
    static func filterFromPlugin(name: String, options: Int32?, in runtime: LuaRuntime) throws -> CookieFilter {
        let loaded = try runtime.plugins.load(name)
        let place = "plugin \"\(name)\" (\(loaded.file))"
        guard loaded.kind == .cookieFilter else {
            throw PluginError(description: "\(place) is a \(loaded.kind.rawValue), not a cookie-filter")
        }
        var optionsCopy = LuaCopy.table([], marker: nil)
        if let options {
            do { optionsCopy = try runtime.copy(at: options, path: "filter options", functions: false) } catch {
                throw LuaArgumentError("\(error)")
            }
        }
        let plugin = loaded.runtime
        let stack = plugin.stack
        let base = stack.top
        defer { stack.setTop(base) }
        loaded.push()
        let table = stack.top
        if stack.rawGet(table, "new") == LUA_TFUNCTION {
            plugin.push(copy: optionsCopy)
            do {
                try plugin.call(1, results: 1, traceback: false)
            } catch let error as LuaError {
                throw PluginError(description: "\(place): new: \(error.message)")
            }
            guard stack.type(-1) == LUA_TTABLE else {
                throw PluginError(description: "\(place): new must return a table of functions")
            }
            return filter(fromTable: stack.top, name: name, origin: place, in: plugin)
        }
        stack.pop()
        return filter(fromTable: table, name: name, origin: place, in: plugin)
    }

    /// A filter whose functions are those of the table at `index` of this runtime's current stack.
    static func filter(fromTable index: Int32, name: String, origin: String? = nil, in runtime: LuaRuntime) -> CookieFilter {
        let stack = runtime.stack
        var filter = CookieFilter(name: name)
        let place = origin ?? "filter \"\(name)\""
        func callback(_ field: String) -> LuaCallback? {
            guard stack.rawGet(index, field) == LUA_TFUNCTION else { stack.pop(); return nil }
            return LuaCallback(runtime: runtime, origin: "\(place): \(field)")
        }
        if let host = callback("host") {
            filter.host = { url in
                try host.call([Self.value(of: url)]) { runtime, i in runtime.stack.string(i) }
            }
        }
        if let accept = callback("accept") {
            filter.accept = { cookie, url in
                try accept.call([Self.value(of: cookie), Self.value(of: url)]) { runtime, i in runtime.stack.bool(i) }
            }
        }
        if let match = callback("match") {
            filter.match = { cookie, url in
                try match.call([Self.value(of: cookie), Self.value(of: url)]) { runtime, i in runtime.stack.bool(i) }
            }
        }
        if let rewrite = callback("rewrite") {
            filter.rewrite = { cookie, url in
                try rewrite.call([Self.value(of: cookie), Self.value(of: url)]) { runtime, i in
                    runtime.stack.isNoneOrNil(i) ? nil : try Self.cookie(from: runtime.value(at: i, path: "cookie"), now: 0)
                }
            }
        }
        return filter
    }
}
