import CLua
import CLuaShim
import PekitCore

/// `pekit.query`: nested parameters to `key=value` pairs and back.
extension LuaRuntime {
    /// The policy a `policy` argument names: nothing (rfc3986), a name, or a table of policy
    /// fields (`{policy = "base", arrays = "indices", …}`).
    func policy(from call: LuaCall, argument n: Int32) throws -> Policy {
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
                return try PolicyDefinition(runtime: self, table: n, origin: call.name, limited: false, extraFields: ["policy"]).applied(to: base)
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
                if let value = pair.value { stack.push(value) } else { call.runtime.getRegistry("pekit.null") }
                stack.rawSetIndex(-2, 2)
                stack.rawSetIndex(-2, Int64(i + 1))
            }
            return 1
        }
        stack.rawSet(pekit, "query")
    }
}
