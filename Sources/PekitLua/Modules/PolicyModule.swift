import CLua
import CLuaShim
import PekitCore

/// `pekit.policy`: `define{…}`, `get(name)`, `list()`; and how every function's `policy`
/// argument is read (a name, or a table of policy fields on a base).
enum PolicyModule: LuaModule {
    static let name = "policy"

    /// The policy a `policy` argument names: nothing (rfc3986), a name, or a table of policy
    /// fields (`{policy = "base", arrays = "indices", …}`); `extraFields` are other fields the
    /// caller reads itself.
    static func policy(from call: LuaCall, argument n: Int32, extraFields: Set<String> = []) throws -> Policy {
        let stack = call.stack, policies = call.runtime.policies
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
                return try PolicyDefinition(runtime: call.runtime, table: n, origin: call.name,
                                            extraFields: extraFields.union(["policy"])).applied(to: base)
            } catch let error as LuaArgumentError {
                throw call.badArgument(n, error.description)
            }
        default:
            throw call.typeError(n, expected: "policy name or table")
        }
    }

    /// The encoder that a `policy_or_options` argument asks for: nothing (rfc3986), a policy name,
    /// a charset, or an options table `{policy=, allowed=, space=, lower=, keep_escapes=}`.
    static func encoder(from call: LuaCall, argument n: Int32) throws -> PercentEncoder {
        let stack = call.stack, policies = call.runtime.policies
        switch stack.type(n) {
        case LUA_TNONE, LUA_TNIL:
            return try policies.defaultEntry().encoder
        case LUA_TSTRING:
            return try policies.entry(call.string(n)).encoder
        case LUA_TTABLE:
            // Any policy field, plus keep_escapes which only the encoder has.
            var encoder = try policy(from: call, argument: n, extraFields: ["keep_escapes"]).encoder
            encoder.keepsValidEscapes = stack.rawGet(n, "keep_escapes") != LUA_TNIL && stack.bool(-1)
            stack.pop()
            return encoder
        default:
            if let set = call.runtime.charset(at: n) { return PercentEncoder(allowed: set) }
            throw call.typeError(n, expected: "policy name, charset or options table")
        }
    }

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        installTable(in: runtime, into: pekit) { module in fill(module, in: runtime) }
    }

    private static func fill(_ module: Int32, in runtime: LuaRuntime) {
        let setFunction = runtime.setFunction
        setFunction(module, "pekit.policy", "define") { call in
            try call.require(.policies)
            try call.table(1)
            let policy = try call.runtime.policies.define(table: 1, in: call.runtime)
            call.stack.push(policy.name)
            return 1
        }
        setFunction(module, "pekit.policy", "get") { call in
            let name = try call.string(1)
            push(policy: try call.runtime.policies.get(name), in: call.runtime)
            return 1
        }
        setFunction(module, "pekit.policy", "list") { call in
            try call.require(.plugins)  // it loads every plugin on the path
            call.runtime.push(.array(call.runtime.policies.list().map { item in
                .map(PekitMap(unordered: [.init(key: "name", value: .text(item.name)), .init(key: "description", value: .text(item.description)),
                                          .init(key: "origin", value: .text(item.origin))]))
            }), keepOrder: false)
            return 1
        }
    }

    /// Pushes a table describing `policy` with the same fields a plugin writes.
    static func push(policy: Policy, in runtime: LuaRuntime) {
        let stack = runtime.stack
        stack.newTable(nrec: 16)
        let t = stack.top
        func set(_ field: String, _ value: String) { stack.push(value); stack.rawSet(t, field) }
        set("name", policy.name)
        set("kind", "policy")
        set("description", policy.description)
        runtime.push(charset: policy.allowed); stack.rawSet(t, "allowed")
        set("space", policy.space == .plus ? "+" : "%20")
        stack.push(bool: policy.hexCase == .lower); stack.rawSet(t, "lower")
        set("order", policy.order.name)
        set("arrays", policy.arrays.name)
        set("objects", policy.objects.name)
        if case .text(let text) = policy.null {
            stack.newTable(nrec: 1); stack.push(text); stack.rawSet(-2, "text"); stack.rawSet(t, "null")
        } else {
            set("null", policy.null.name)
        }
        set("booleans", policy.booleans.rawValue)
        set("numbers", policy.numbers.name)
        for (field, encoding) in [("encode_keys", policy.encodeKeys), ("encode_values", policy.encodeValues)] {
            switch encoding {
            case .policy: stack.push(bool: true)
            case .none: stack.push(bool: false)
            case .segments: stack.push("segments")
            case .allowed(let set): runtime.push(charset: set)
            }
            stack.rawSet(t, field)
        }
        stack.push(policy.separator); stack.rawSet(t, "separator")
        stack.push(policy.assign); stack.rawSet(t, "assign")
        set("empty", policy.empty.rawValue)
        stack.push(policy.prefix); stack.rawSet(t, "prefix")
    }
}
