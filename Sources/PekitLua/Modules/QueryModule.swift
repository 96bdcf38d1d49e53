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
            let keepOrder = call.stack.type(2) == LUA_TTABLE
                ? (try LuaFields.read(call, argument: 2, known: Self.parseOptions)?.flag("ordered") ?? false) : false
            call.runtime.push(try parser.parse(ByteString(input)), keepOrder: keepOrder)
            return 1
        }
        setFunction(module, "pekit.query", "compare") { call in
            let value = try call.runtime.value(at: 1, path: "params")
            try call.table(2)
            let policies = try call.strings(2, expected: "a list of policy names").map { try call.runtime.policies.entry($0).policy }
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
            let server: QueryParser
            do { server = try QueryParser.server(named: serverName) } catch { throw call.badArgument(3, "\(error)") }
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
            if call.count > 1 { throw call.badArgument(2, "pekit.json.decode takes no options") }
            do { call.runtime.push(try JSON.parse(text, maxDepth: call.runtime.options.maxDepth)) } catch let error as JSON.ParseError {
                throw LuaArgumentError("\(error)")
            }
            return 1
        }
        setFunction(-1, "pekit.json", "encode") { call in
            // pekit.json.encode(v [, {pretty = true}]): two-space indent, key order kept.
            let pretty = try LuaFields.read(call, argument: 2, known: ["pretty"])?.flag("pretty") ?? false
            let value = try call.runtime.value(at: 1, path: "value")
            do { call.stack.push(pretty ? try JSON.encodePretty(value) : try JSON.encode(value)) } catch let error as JSON.EncodeError {
                throw LuaArgumentError("\(error)")
            }
            return 1
        }
        stack.rawSet(pekit, "json")
    }

    static let parseOptions = ["policy", "server", "depth", "parameters", "array_limit", "max_length", "duplicates", "strict", "plus",
                               "dots", "comma", "ordered"]

    /// Parse options: `{policy=, server=, depth=, parameters=, array_limit=, max_length=,
    /// duplicates=, strict=, plus=, dots=, comma=, ordered=}`, or a policy name.
    func queryParser(from call: LuaCall, argument n: Int32) throws -> QueryParser {
        let stack = call.stack
        switch stack.type(n) {
        case LUA_TNONE, LUA_TNIL: return QueryParser(policy: try policies.defaultEntry().policy)
        case LUA_TSTRING: return QueryParser(policy: try policies.entry(call.string(n)).policy)
        case LUA_TTABLE: break
        default: throw call.typeError(n, expected: "options table or policy name")
        }
        guard let options = try LuaFields.read(call, argument: n, known: Self.parseOptions) else { return QueryParser(policy: try policies.defaultEntry().policy) }
        var parser: QueryParser
        if let name = try options.choice("server", QueryParser.servers.keys.sorted()) {
            parser = try QueryParser.server(named: name)
        } else {
            parser = QueryParser(policy: try options.string("policy").map { try policies.entry($0).policy } ?? policies.defaultEntry().policy)
        }
        if let depth = try options.integer("depth", in: 0...1000) { parser.depth = depth }
        if let limit = try options.integer("parameters", in: 0...Int64.max) { parser.parameterLimit = limit }
        if let limit = try options.integer("array_limit", in: 0...Int64.max) { parser.arrayLimit = limit }
        if let limit = try options.integer("max_length", in: 0...Int64.max) { parser.maxLength = limit }
        if let mode = try options.choice("duplicates", ["combine", "first", "last"]).flatMap(QueryParser.Duplicates.init(rawValue:)) {
            parser.duplicates = mode
        }
        if let on = try options.flag("strict") { parser.strict = on }
        if let on = try options.flag("plus") { parser.plusAsSpace = on }
        if let on = try options.flag("dots") { parser.allowDots = on }
        if let on = try options.flag("comma") { parser.comma = on }
        _ = try options.flag("ordered")
        return parser
    }
}
