import CLua
import CLuaShim
import PekitCore

/// `pekit.query`: nested parameters to `key=value` pairs and back.
extension LuaRuntime {
    /// The policy a `policy` argument names: nothing (rfc3986), a name, or a table of policy
    /// fields (`{policy = "base", arrays = "indices", …}`); `extraFields` are other fields the
    /// caller reads itself.
    func policy(from call: LuaCall, argument n: Int32, extraFields: Set<String> = []) throws -> Policy {
        let stack = call.stack
        switch stack.type(n) {
        case LUA_TNONE, LUA_TNIL: return try policies.defaultEntry().policy
        case LUA_TSTRING: return try policies.entry(call.string(n)).policy
        case LUA_TTABLE:
            var base = try policies.defaultEntry().policy
            if stack.rawGet(n, "policy") != LUA_TNIL {
                guard let name = stack.string(-1) else { stack.pop(); throw call.badArgument(n, "field \"policy\" must be a policy name") }
                base = try policies.entry(name).policy
            }
            stack.pop()
            do {
                return try PolicyDefinition(runtime: self, table: n, origin: call.name,
                                            extraFields: extraFields.union(["policy"])).applied(to: base)
            } catch let error as LuaArgumentError {
                throw call.badArgument(n, error.description)
            }
        default:
            throw call.typeError(n, expected: "policy name or table")
        }
    }

    func installQueryModule(into pekit: Int32) {
        stack.newTable()
        let module = stack.top
        setFunction(module, "pekit.query", "encode") { call in
            let policy = try call.runtime.policy(from: call, argument: 2)
            let value = try call.runtime.value(at: 1, path: "params")
            call.stack.push(try policy.queryString(value))
            return 1
        }
        setFunction(module, "pekit.query", "pairs") { call in
            let policy = try call.runtime.policy(from: call, argument: 2)
            let pairs = try policy.pairs(try call.runtime.value(at: 1, path: "params"))
            let stack = call.stack
            stack.newTable(narr: Int32(clamping: pairs.count))
            for (i, pair) in pairs.enumerated() {
                stack.newTable(narr: 2)
                stack.push(pair.key)
                stack.rawSetIndex(-2, 1)
                if let value = pair.value { stack.push(value) } else { call.runtime.pushNull() }
                stack.rawSetIndex(-2, 2)
                stack.rawSetIndex(-2, Int64(i + 1))
            }
            return 1
        }
        setFunction(module, "pekit.query", "decode") { call in
            let input = try call.bytes(1)
            let parser = try call.runtime.queryParser(from: call, argument: 2)
            var keepOrder = false
            if call.stack.type(2) == LUA_TTABLE {
                keepOrder = call.stack.rawGet(2, "ordered") != LUA_TNIL && call.stack.bool(-1)
                call.stack.pop()
            }
            call.runtime.push(try parser.parse(ByteString(input)), keepOrder: keepOrder)
            return 1
        }
        setFunction(module, "pekit.query", "compare") { call in
            let value = try call.runtime.value(at: 1, path: "params")
            try call.table(2)
            var policies: [Policy] = []
            for i in 1...max(1, call.stack.rawLength(2)) where call.stack.rawLength(2) > 0 {
                _ = call.stack.rawGetIndex(2, Int64(i))
                defer { call.stack.pop() }
                guard let name = call.stack.string(-1) else { throw call.badArgument(2, "a list of policy names expected") }
                policies.append(try call.runtime.policies.entry(name).policy)
            }
            let rows = try QueryCheck.compare(value, policies: policies)
            call.runtime.push(.array(rows.map { row in
                .map(PekitMap(unordered: [
                    .init(key: "policy", value: .text(row.policy.name)),
                    .init(key: "query", value: .text(row.pairs.joined(separator: row.policy.separator.description))),
                    .init(key: "pairs", value: .array(row.pairs.map(PekitValue.text))),
                    .init(key: "differs", value: .array(row.differs.map(PekitValue.boolean))),
                ]))
            }), keepOrder: false)
            return 1
        }
        setFunction(module, "pekit.query", "check") { call in
            let value = try call.runtime.value(at: 1, path: "params")
            let policy = try call.runtime.policy(from: call, argument: 2)
            let serverName = try call.optionalString(3) ?? "qs"
            guard let server = QueryParser.servers[serverName] else {
                throw call.badArgument(3, "unknown server \"\(serverName)\" (known: \(QueryParser.servers.keys.sorted().joined(separator: ", ")))")
            }
            let (query, problems) = try QueryCheck.check(value, policy: policy, server: server, serverName: serverName)
            call.runtime.push(.array(problems.map { problem in
                .map(PekitMap(unordered: [.init(key: "path", value: .text(problem.path)), .init(key: "problem", value: .text(problem.problem))]))
            }), keepOrder: false)
            call.stack.push(query)
            return 2
        }
        stack.rawSet(pekit, "query")

        // pekit.json: JSON with key order kept (objects become pekit.ordered tables).
        stack.newTable()
        setFunction(-1, "pekit.json", "decode") { call in
            let text = try call.bytes(1)
            do { call.runtime.push(try JSON.parse(text, maxDepth: call.runtime.options.maxDepth)) } catch let error as JSON.ParseError {
                throw LuaArgumentError("\(error)")
            }
            return 1
        }
        setFunction(-1, "pekit.json", "encode") { call in
            do { call.stack.push(try JSON.encode(try call.runtime.value(at: 1, path: "value"))) } catch let error as JSON.EncodeError {
                throw LuaArgumentError("\(error)")
            }
            return 1
        }
        stack.rawSet(pekit, "json")
    }

    /// Parse options: `{policy=, server=, depth=, parameters=, array_limit=, max_length=,
    /// duplicates=, strict=, plus=, dots=, comma=}`, or a policy name.
    func queryParser(from call: LuaCall, argument n: Int32) throws -> QueryParser {
        let stack = call.stack
        switch stack.type(n) {
        case LUA_TNONE, LUA_TNIL: return QueryParser(policy: try policies.defaultEntry().policy)
        case LUA_TSTRING: return QueryParser(policy: try policies.entry(call.string(n)).policy)
        case LUA_TTABLE: break
        default: throw call.typeError(n, expected: "options table or policy name")
        }
        var parser: QueryParser
        if stack.rawGet(n, "server") != LUA_TNIL {
            let name = stack.string(-1) ?? ""
            stack.pop()
            guard let server = QueryParser.servers[name] else {
                throw call.badArgument(n, "unknown server \"\(name)\" (known: \(QueryParser.servers.keys.sorted().joined(separator: ", ")))")
            }
            parser = server
        } else {
            stack.pop()
            _ = stack.rawGet(n, "policy")
            let name = stack.string(-1)
            stack.pop()
            parser = QueryParser(policy: try name.map { try policies.entry($0).policy } ?? policies.defaultEntry().policy)
        }
        let known = ["policy", "server", "depth", "parameters", "array_limit", "max_length", "duplicates", "strict", "plus", "dots", "comma", "ordered"]
        stack.pushNil()
        while lua_next(call.L, n) != 0 {
            defer { stack.pop() }
            guard stack.type(-2) == LUA_TSTRING, let key = stack.string(-2), known.contains(key) else {
                throw call.badArgument(n, "unknown option \"\(stack.string(-2) ?? "?")\" (options: \(known.joined(separator: ", ")))")
            }
            func limit() throws -> Int {
                guard let value = stack.integer(-1), value >= 0 else { throw call.badArgument(n, "option \"\(key)\" must be a non-negative integer") }
                return Int(value)
            }
            switch key {
            case "depth": parser.depth = min(try limit(), 1000)
            case "parameters": parser.parameterLimit = try limit()
            case "array_limit": parser.arrayLimit = try limit()
            case "max_length": parser.maxLength = try limit()
            case "duplicates":
                guard let mode = stack.string(-1).flatMap(QueryParser.Duplicates.init(rawValue:)) else {
                    throw call.badArgument(n, "option \"duplicates\" must be \"combine\", \"first\" or \"last\"")
                }
                parser.duplicates = mode
            case "strict": parser.strict = stack.bool(-1)
            case "plus": parser.plusAsSpace = stack.bool(-1)
            case "dots": parser.allowDots = stack.bool(-1)
            case "comma": parser.comma = stack.bool(-1)
            default: break
            }
        }
        return parser
    }
}
