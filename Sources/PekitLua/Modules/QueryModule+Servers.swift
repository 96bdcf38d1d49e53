import CLua
import CLuaShim
import PekitCore

/// Reading a server model and its options from a Lua table: `{server = "python",
/// keep_blank_values = true}`. Each model takes its own server's option names, so the names in
/// the server's documentation work as they are.
extension QueryModule {
    /// Options every model's table takes besides its own.
    static let commonParseOptions = ["server", "policy", "ordered"]

    /// The model argument `n` names: a server name, a policy name (qs reading what that policy
    /// writes), or a table with `server =` (and that server's options, under its own names) or
    /// `policy =` (and qs's options). Maps keep the server's key order (`pekit.ordered` tables)
    /// unless the table says `ordered = false` (plain tables, whose `pairs` order is Lua's).
    static func queryServer(from call: LuaCall, argument n: Int32, defaultServer: String? = nil) throws -> (server: QueryServer, ordered: Bool) {
        let stack = call.stack
        let policies = call.runtime.policies
        switch stack.type(n) {
        case LUA_TNONE, LUA_TNIL:
            if let defaultServer { return (try QueryServer.named(defaultServer), true) }
            return (.qs(QSParser(policy: try policies.defaultEntry().policy)), true)
        case LUA_TSTRING:
            let name = try call.string(n)
            if QueryServer.names.contains(name) || QueryServer.framework(named: name) != nil { return (try QueryServer.named(name), true) }
            return (.qs(QSParser(policy: try policies.entry(name).policy)), true)
        case LUA_TTABLE:
            break
        default:
            throw call.typeError(n, expected: "server name, policy name or options table")
        }
        // The server decides which other names are known.
        let serverName: String? = try {
            defer { stack.pop() }
            guard stack.rawGet(n, "server") != LUA_TNIL else { return nil }
            guard let name = stack.string(-1), QueryServer.names.contains(name) || QueryServer.framework(named: name) != nil else {
                let got = stack.type(-1) == LUA_TSTRING ? "\"\(stack.string(-1) ?? "")\"" : "a \(stack.typeName(-1))"
                throw call.badArgument(n, "field \"server\": expected \(alternatives(QueryServer.names)) or a framework (\(QueryServer.frameworks.map(\.name).joined(separator: ", "))), got \(got)")
            }
            return name
        }()
        let name = serverName ?? defaultServer
        let own = try QueryServer.model(named: name ?? "qs").optionNames
        guard let options = try LuaFields.read(call, argument: n, known: Self.commonParseOptions + own) else {
            return (try QueryServer.named(name ?? "qs"), true)
        }
        let ordered = try options.flag("ordered") ?? true
        if serverName != nil, options.has("policy") { throw options.error("policy", "give a server or a policy, not both") }
        // Plain values go through the core's reader; Lua functions and patterns are set here.
        var values: [(name: String, value: PekitValue)] = []
        for option in own where option != "decoder" {
            if option == "delimiter", try options.with(option, { stack.type($0) == LUA_TTABLE }) == true { continue }
            if let value = try options.value(option) { values.append((option, value)) }
        }
        var server: QueryServer
        do {
            if let name {
                server = try QueryServer.named(name, options: values)
            } else {
                server = try QueryServer.qs(policy: try options.string("policy").map { try policies.entry($0).policy } ?? policies.defaultEntry().policy,
                                            options: values)
            }
        } catch let error as QueryServer.OptionError {
            throw options.error(error.option, error.message)
        }
        if case .qs(var qs) = server {
            try readQSFunctions(options, into: &qs)
            server = .qs(qs)
        }
        return (server, ordered)
    }

    /// qs's `decoder` (a Lua function) and `delimiter = {pattern = …}` (a Lua pattern).
    private static func readQSFunctions(_ options: LuaFields, into qs: inout QSParser) throws {
        let runtime = options.call.runtime
        try options.with("delimiter") { i in
            let stack = options.call.stack
            guard stack.type(i) == LUA_TTABLE else { return }
            guard stack.rawGet(i, "pattern") == LUA_TSTRING, let pattern = stack.bytes(-1) else {
                throw options.mismatch("delimiter", expected: "a string or {pattern = LUA_PATTERN}")
            }
            qs.delimiter = .custom { [lifetime = runtime.lifetime] input in
                guard let runtime = lifetime.current else { throw LuaError(message: "the Lua runtime is gone") }
                return try patternRanges(input, pattern, in: runtime)
            }
        }
        try options.with("decoder") { i in
            let stack = options.call.stack
            guard stack.type(i) == LUA_TFUNCTION else {
                throw options.mismatch("decoder", expected: "a function(str, default_decoder, charset, type)")
            }
            stack.pushValue(i)
            let user = LuaCallback(runtime: runtime, origin: "pekit.query.decode: decoder")
            runtime.pushFunction("qs default decoder") { call in
                let charset = try call.optionalString(2).flatMap(QSParser.Charset.init(rawValue:)) ?? .utf8
                call.stack.push(ByteString(QSParser.defaultDecode(try call.bytes(1), charset: charset)))
                return 1
            }
            let fallback = LuaCallback(runtime: runtime, origin: "qs default decoder")
            qs.decoder = { text, charset, part in
                try user.invoke(results: 1, push: { runtime in
                    runtime.stack.push(text)
                    runtime.pushReference(fallback.ref)
                    runtime.stack.push(ByteString(charset.rawValue))
                    runtime.stack.push(ByteString(part.rawValue))
                    return 4
                }, read: { runtime, i in
                    let stack = runtime.stack
                    switch stack.type(i) {
                    case LUA_TNIL, LUA_TNONE: return .undefined
                    case LUA_TSTRING: return .string(ByteString(stack.bytes(i) ?? []))
                    case LUA_TNUMBER: return .number(stack.number(i) ?? 0)
                    case LUA_TBOOLEAN: return .boolean(stack.bool(i))
                    default:
                        if case .null? = try? runtime.value(at: i, path: "result") { return .null }
                        throw LuaArgumentError("must return a string, number, boolean, nil or pekit.null, not a \(stack.typeName(i))")
                    }
                })
            }
        }
    }

    /// The pieces between the matches of a Lua pattern, as JavaScript's `split` with a RegExp gives them.
    static func patternRanges(_ input: [UInt8], _ pattern: [UInt8], in runtime: LuaRuntime) throws -> [Range<Int>] {
        let stack = runtime.stack
        let base = stack.top
        defer { stack.setTop(base) }
        lua_pushcclosure(runtime.L, pekit_pattern_ranges, 0)
        stack.push(ByteString(input))
        stack.push(ByteString(pattern))
        do { try runtime.call(2, results: 1, traceback: false) } catch var error as LuaError {
            error.message = "pekit.query.decode: delimiter: \(error.message)"
            throw error
        }
        var pieces: [Range<Int>] = []
        var start = 0
        let count = stack.rawLength(-1)
        var k = 0
        while k + 1 < count {
            _ = stack.rawGetIndex(-1, Int64(k + 1)); let from = Int(stack.integer(-1) ?? 1); stack.pop()
            _ = stack.rawGetIndex(-1, Int64(k + 2)); let to = Int(stack.integer(-1) ?? 0); stack.pop()
            pieces.append(start..<(from - 1))
            start = to
            k += 2
        }
        pieces.append(start..<input.count)
        return pieces
    }
}
