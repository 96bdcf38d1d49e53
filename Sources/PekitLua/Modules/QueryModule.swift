import CLua
import CLuaShim
import PekitCore

/// `pekit.query`: nested parameters to `key=value` pairs and back (and `pekit.json`).
enum QueryModule: LuaModule {
    static let name = "query"
    static let fields = ["query", "json"]

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let stack = runtime.stack
        let setFunction = runtime.setFunction
        stack.newTable()
        let module = stack.top
        setFunction(module, "pekit.query", "encode") { call in
            let policy = try PolicyModule.policy(from: call, argument: 2)
            if let query = try directQueryString(call.runtime, at: 1, policy: policy) {
                call.stack.push(query)
                return 1
            }
            let value = try call.runtime.value(at: 1, path: "params")
            call.stack.push(try policy.queryString(value))
            return 1
        }
        setFunction(module, "pekit.query", "pairs") { call in
            let policy = try PolicyModule.policy(from: call, argument: 2)
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
            // A whole URL or "?…" is read for its query part, as a server would see it.
            let input = try call.bytes(1)
            let (server, ordered) = try queryServer(from: call, argument: 2)
            let query = ByteString(bytes: server.queryPart(of: input).query)
            if case .qs(let parser) = server {
                // Tables straight from the parser's tree; the port's object when qs's options need it.
                var sink = LuaTreeSink(call.runtime, ordered: ordered)
                if let value = try parser.parse(query, into: &sink) { call.runtime.push(value, keepOrder: ordered) }
                if sink.exhausted { throw MemoryBudget.Exceeded() }
                return 1
            }
            // Go's reading is two values, as url.ParseQuery returns them: the values and the
            // first error's message (or nil).
            let (value, error) = try server.reading(query)
            call.runtime.push(value, keepOrder: ordered)
            guard case .go = server else { return 1 }
            if let error { call.stack.push(ByteString(error.message)) } else { call.stack.pushNil() }
            return 2
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
                    .init(key: "reordered", value: .boolean(row.reordered)),
                    .init(key: "missing", value: .array(row.missing.map(PekitValue.text))),
                ]))
            }), keepOrder: false)
            return 1
        }
        setFunction(module, "pekit.query", "check") { call in
            let value = try call.runtime.value(at: 1, path: "params")
            let policy = try PolicyModule.policy(from: call, argument: 2)
            let (server, _) = try queryServer(from: call, argument: 3, defaultServer: "qs")
            let report = try QueryCheck.check(value, policy: policy, server: server)
            func leaves(_ list: [QueryCheck.Leaf]) -> PekitValue {
                .array(list.map { leaf in
                    .map(PekitMap(unordered: [.init(key: "path", value: .text(leaf.path)), .init(key: "status", value: .text(leaf.status.rawValue)),
                                              .init(key: "problem", value: .text(leaf.detail))]))
                })
            }
            call.runtime.push(leaves(report.problems), keepOrder: false)
            call.stack.push(report.query)
            call.runtime.push(leaves(report.leaves), keepOrder: false)
            return 3
        }
        stack.rawSet(pekit, "query")

        // pekit.json: JSON with key order kept (objects become pekit.ordered tables).
        stack.newTable()
        setFunction(-1, "pekit.json", "decode") { call in
            // A member given twice: the last value, at the first one's place (as JavaScript's
            // JSONText.parse and Python's json), or {duplicates = "error"} to refuse it.
            let text = try call.bytes(1)
            let options = try LuaFields.read(call, argument: 2, known: ["duplicates"])
            let duplicates = try options?.choice("duplicates", ["last", "error"]).flatMap(JSONText.Duplicates.init(rawValue:)) ?? .last
            do { call.runtime.push(try JSONText.parse(text, maxDepth: call.runtime.options.maxDepth, duplicates: duplicates)) } catch let error as JSONText.ParseError {
                throw LuaArgumentError("\(error)")
            }
            return 1
        }
        setFunction(-1, "pekit.json", "query") { call in
            // pekit.json.query(value_or_json_text, path): the values RFC 9535's JSONPath selects, as a list.
            let path: JSONPath
            do { path = try JSONPath(try call.string(2)) } catch let error as JSONPath.ParseError { throw LuaArgumentError("\(error)") }
            let document: PekitValue
            if call.stack.type(1) == LUA_TSTRING {
                do { document = try JSONText.parse(try call.bytes(1), maxDepth: call.runtime.options.maxDepth, duplicates: .last) } catch let error as JSONText.ParseError {
                    throw LuaArgumentError("\(error)")
                }
            } else {
                document = try call.runtime.value(at: 1, path: "value")
            }
            // Charged to a plugin's budget node by node; Ctrl-C and the time limit stop it too.
            let L = call.L
            let remaining = pekit_budget_remaining(L)
            var budget = WorkBudget(steps: remaining >= Int64(Int.max) ? .max : Int(remaining)) { pekit_budget_expired(L) != 0 }
            do {
                let found = try path.select(document, budget: &budget)
                _ = pekit_budget_spend(L, Int64(budget.spent))
                call.runtime.push(.array(found))
            } catch {
                // Spent, or stopped: the trampoline raises the budget's own error on return.
                _ = pekit_budget_spend(L, Int64(budget.spent) + 1)
                throw LuaArgumentError("the query was stopped: \(error)")
            }
            return 1
        }
        setFunction(-1, "pekit.json", "is_singular") { call in
            // pekit.json.is_singular(path): whether the query selects at most one node (§2.3.5.1).
            do { call.stack.push(bool: try JSONPath(try call.string(1)).isSingular) } catch let error as JSONPath.ParseError { throw LuaArgumentError("\(error)") }
            return 1
        }
        setFunction(-1, "pekit.json", "encode") { call in
            // pekit.json.encode(v [, {pretty = true}]): two-space indent, key order kept.
            let pretty = try LuaFields.read(call, argument: 2, known: ["pretty"])?.flag("pretty") ?? false
            let value = try call.runtime.value(at: 1, path: "value")
            do { call.stack.push(pretty ? try JSONText.encodePretty(value) : try JSONText.encode(value)) } catch let error as JSONText.EncodeError {
                throw LuaArgumentError("\(error)")
            }
            return 1
        }
        stack.rawSet(pekit, "json")
    }
}
