import CLua
import CLuaShim
import PekitCore
import PekitLua

/// Tab completion for the REPL: names of globals and of fields and methods (`pekit.q` →
/// `pekit.query.`, `jar:` → the jar's methods), and policy or plugin names inside the string
/// argument of the calls that take one. Values are looked up raw: completing never runs a
/// metamethod or any other code of the session.
extension LuaREPL {
    /// The calls whose first string argument is a policy name (`pekit.encode(s, "|"`), and the
    /// fields that name one.
    static let policyCalls = ["encode", "query.encode", "query.pairs", "query.compare", "query.check", "policy.get"]
    static let serverNames = QueryServer.names

    /// The candidates for the word `word`, which ends the text `before` (the line up to the
    /// cursor, the word included). Each candidate replaces the whole word.
    public func completions(word: String, before: String) -> [String] {
        var head = String.UnicodeScalarView()
        head.append(contentsOf: before.unicodeScalars.dropLast(word.unicodeScalars.count))
        if let quote = head.last, quote == "\"" || quote == "'" {
            // The name and its closing quote: a unique match is then complete.
            return stringCompletions(word, context: String(String.UnicodeScalarView(head.dropLast()))).map { $0 + String(quote) }
        }
        return nameCompletions(word)
    }

    /// Policy, server or plugin names inside a string literal, by what comes before it.
    func stringCompletions(_ word: String, context: String) -> [String] {
        let trimmed = context.trimmingCharacters(in: .whitespaces)
        func endsWith(_ patterns: String...) -> Bool { patterns.contains { trimmed.hasSuffix($0) } }
        var names: [String] = []
        if endsWith("server =", "server=") {
            names = Self.serverNames
        } else if trimmed.range(of: #"pekit\.query\.decode\([^()]*,$"#, options: .regularExpression) != nil {
            names = Self.serverNames + runtime.policies.list().map(\.name)
        } else if endsWith("policy =", "policy=") || Self.policyCalls.contains(where: { call in
            // pekit.encode("…", "  or  pekit.query.encode(t, "
            guard let open = trimmed.range(of: "pekit." + call + "(", options: .backwards) else { return false }
            let inside = trimmed[open.upperBound...]
            return (call == "policy.get" && inside.isEmpty) || (inside.hasSuffix(",") && !inside.contains("("))
        }) {
            names = runtime.policies.list().map(\.name)
        } else if endsWith("filter =", "filter=", "plugins.load(") {
            names = runtime.plugins.list().filter { $0.error == nil }.map(\.name)
        }
        return Array(Set(names.filter { $0.hasPrefix(word) })).sorted()
    }

    /// Globals, fields and methods for a dotted name (`pekit.query.en`, `jar:re`).
    func nameCompletions(_ word: String) -> [String] {
        let bytes = Array(word.utf8)
        guard bytes.allSatisfy({ Self.isNameByte($0) || $0 == 0x2E || $0 == 0x3A }) else { return [] }
        // The path before the last separator, and the partial name after it.
        let separatorIndex = bytes.lastIndex(where: { $0 == 0x2E || $0 == 0x3A })
        let partial = String(decoding: separatorIndex.map { bytes[($0 + 1)...] } ?? bytes[...], as: UTF8.self)
        let methodsOnly = separatorIndex.map { bytes[$0] == 0x3A } ?? false
        let prefix = String(decoding: separatorIndex.map { bytes[...$0] } ?? [], as: UTF8.self)
        let path = separatorIndex.map { String(decoding: bytes[..<$0], as: UTF8.self) }
        // Names are read raw: every module is offered, not only those the session has used.
        PekitModule.installAll(in: runtime)
        let stack = runtime.stack
        let base = stack.top
        defer { stack.setTop(base) }
        // Start from the globals, raw.
        _ = stack.rawGetIndex(pekit_registryindex(), Int64(LUA_RIDX_GLOBALS))
        if let path {
            for component in path.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == ":" }) {
                guard !component.isEmpty, lookUp(String(component)) else { return [] }
            }
        }
        var candidates: [String] = []
        for (key, type) in keys(at: stack.top) where key.hasPrefix(partial) && !key.hasPrefix("__") {
            if methodsOnly && type != LUA_TFUNCTION { continue }
            guard key.utf8.allSatisfy(Self.isNameByte), let first = key.utf8.first, !(0x30...0x39).contains(first) else { continue }
            let suffix = type == LUA_TTABLE && !methodsOnly ? "." : type == LUA_TFUNCTION ? "(" : ""
            candidates.append(prefix + key + suffix)
        }
        if path == nil {
            candidates += Self.keywords.filter { $0.hasPrefix(partial) }
        }
        return Array(Set(candidates)).sorted()
    }

    static let keywords = ["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
                           "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"]

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
    }

    /// Replaces the value on top with its field `name` (raw; for a userdata or a table with a
    /// metatable, also the metatable's `__methods`/`__index` table). False when there is none.
    private func lookUp(_ name: String) -> Bool {
        let stack = runtime.stack
        let top = stack.top
        if stack.type(top) == LUA_TTABLE, stack.rawGet(top, name) != LUA_TNIL {
            lua_copy(runtime.L, -1, top)
            stack.setTop(top)
            return true
        }
        stack.setTop(top)
        for field in ["__methods", "__index"] {
            guard lua_getmetatable(runtime.L, top) != 0 else { break }
            defer { stack.setTop(top) }
            if stack.rawGet(-1, field) == LUA_TTABLE, stack.rawGet(-1, name) != LUA_TNIL {
                lua_copy(runtime.L, -1, top)
                return true
            }
        }
        return false
    }

    /// The string keys of the value at `index` and their value types: a table's own, and its
    /// metatable's `__methods`/`__index` table's (methods of handles, responses, pekit.request).
    private func keys(at index: Int32) -> [(String, Int32)] {
        let stack = runtime.stack
        let value = stack.absolute(index)
        var out: [(String, Int32)] = []
        func collect(_ table: Int32) {
            lua_pushnil(runtime.L)
            while lua_next(runtime.L, table) != 0 {
                if lua_type(runtime.L, -2) == LUA_TSTRING, let key = stack.string(-2) { out.append((key, lua_type(runtime.L, -1))) }
                stack.pop()
            }
        }
        if stack.type(value) == LUA_TTABLE { collect(value) }
        if lua_getmetatable(runtime.L, value) != 0 {
            let meta = stack.top
            for field in ["__methods", "__index"] {
                if stack.rawGet(meta, field) == LUA_TTABLE { collect(stack.top) }
                stack.setTop(meta)
            }
            stack.pop()
        }
        return out
    }
}
