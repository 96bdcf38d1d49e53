import CLua
import CLuaShim
import PekitCore

extension LuaRuntime {
    /// Builds the `pekit` table, makes it the global `pekit` and what `require "pekit"` returns.
    func installPekitModule() throws {
        let stack = self.stack
        stack.newTable()
        let pekit = stack.top

        // The prelude: value markers, inspect, the sandbox builder.
        try load(Array(preludeSource.utf8), chunkName: "=pekit.prelude")
        stack.pushValue(pekit)
        try call(1, results: 1)
        let internals = stack.top
        for (field, key) in [("null_mt", RegistryKey.nullMetatable), ("ordered_mt", .orderedMetatable),
                             ("set_mt", .setMetatable), ("array_mt", .arrayMetatable),
                             ("null", .null), ("lockdown", .lockDown), ("inspect", .inspect), ("orders", .orders),
                             ("headers_mt", .headersMetatable), ("response_mt", .responseMetatable),
                             ("error_mt", .errorMetatable)] {
            _ = stack.rawGet(internals, field)
            setRegistry(key)
        }
        stack.pop()
        cacheMarkers()

        stack.push(Pekit.version)
        stack.rawSet(pekit, "version")
        for module in Self.modules { module.install(in: self, into: pekit) }
        installEncodingFunctions(into: pekit)
        installPolicyModule(into: pekit)
        installPluginsModule(into: pekit)
        installCookiesModule(into: pekit)
        installRequestModule(into: pekit)
        installHTTPModule(into: pekit)
        installURLModule(into: pekit)

        stack.pushValue(pekit)
        setGlobal("pekit")
        _ = stack.rawGet(pekit_registryindex(), LUA_LOADED_TABLE)
        stack.pushValue(pekit)
        stack.rawSet(-2, "pekit")
        stack.pop(2)
    }

    /// The modules that are `LuaModule` types, installed in this order before the others
    /// (charset first: other modules' values hold charsets).
    static let modules: [LuaModule.Type] = [CharsetModule.self, QueryModule.self, CryptoModule.self, TimeModule.self, SignModule.self,
                                            JWTModule.self, HARModule.self, TaskModule.self]

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

    /// The encoder that a `policy_or_options` argument asks for: nothing (rfc3986), a policy name,
    /// a charset, or an options table `{policy=, allowed=, space=, lower=, keep_escapes=}`.
    func encoder(from call: LuaCall, argument n: Int32) throws -> PercentEncoder {
        let stack = call.stack
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
            if let set = charset(at: n) { return PercentEncoder(allowed: set) }
            throw call.typeError(n, expected: "policy name, charset or options table")
        }
    }

    func installEncodingFunctions(into pekit: Int32) {
        setFunction(pekit, "pekit", "encode") { call in
            let encoder = try call.runtime.encoder(from: call, argument: 2)
            // Encode straight from Lua's copy of the string: no intermediate array.
            try call.withBytes(1) { input in
                let scratch = call.runtime.scratch
                let output = scratch.reserve(PercentEncoder.maximumEncodedCount(input.count))
                let written = encoder.encode(bytes: input, into: output) ?? 0
                call.stack.push(UnsafeBufferPointer(rebasing: output[..<written]))
                scratch.trim()
            }
            return 1
        }
        setFunction(pekit, "pekit", "decode") { call in
            let input = try call.bytes(1)
            var decoder = PercentDecoder()
            let stack = call.stack
            switch stack.type(2) {
            case LUA_TNONE, LUA_TNIL: break
            case LUA_TSTRING:
                // A policy name: decode what that policy encodes ('+' as space for form policies).
                decoder.plusAsSpace = try call.runtime.policies.get(call.string(2)).space == .plus
            case LUA_TTABLE:
                let options = try LuaFields.read(call, argument: 2, known: ["plus", "strict", "utf8", "unicode_escapes"])
                if let on = try options?.flag("plus") { decoder.plusAsSpace = on }
                if let on = try options?.flag("strict") { decoder.mode = on ? .strict : .lenient }
                if let on = try options?.flag("utf8") { decoder.requiresUTF8 = on }
                if let on = try options?.flag("unicode_escapes") { decoder.decodesUnicodeEscapes = on }
            default:
                throw call.typeError(2, expected: "options table or policy name")
            }
            call.stack.push(try decoder.decode(bytes: input))
            return 1
        }
    }

    func installPolicyModule(into pekit: Int32) {
        stack.newTable()
        let module = stack.top
        setFunction(module, "pekit.policy", "define") { call in
            try call.require(.policies)
            try call.table(1)
            let policy = try call.runtime.policies.define(table: 1, in: call.runtime)
            call.stack.push(policy.name)
            return 1
        }
        setFunction(module, "pekit.policy", "get") { call in
            let name = try call.string(1)
            call.runtime.push(policy: try call.runtime.policies.get(name))
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
        stack.rawSet(pekit, "policy")
    }

    /// Pushes a table describing `policy` with the same fields a plugin writes.
    func push(policy: Policy) {
        let stack = self.stack
        stack.newTable(nrec: 16)
        let t = stack.top
        func set(_ field: String, _ value: String) { stack.push(value); stack.rawSet(t, field) }
        set("name", policy.name)
        set("kind", "policy")
        set("description", policy.description)
        push(charset: policy.allowed); stack.rawSet(t, "allowed")
        set("space", policy.space == .plus ? "+" : "%20")
        stack.push(bool: policy.hexCase == .lower); stack.rawSet(t, "lower")
        set("order", policy.order.name)
        set("arrays", policy.arrays.name)
        set("objects", policy.objects.name)
        set("null", policy.null.rawValue)
        set("booleans", policy.booleans.rawValue)
        for (field, encoding) in [("encode_keys", policy.encodeKeys), ("encode_values", policy.encodeValues)] {
            switch encoding {
            case .policy: stack.push(bool: true)
            case .none: stack.push(bool: false)
            case .segments: stack.push("segments")
            case .allowed(let set): push(charset: set)
            }
            stack.rawSet(t, field)
        }
        stack.push(policy.separator); stack.rawSet(t, "separator")
        stack.push(policy.assign); stack.rawSet(t, "assign")
        set("empty", policy.empty.rawValue)
        stack.push(policy.prefix); stack.rawSet(t, "prefix")
    }

    func installPluginsModule(into pekit: Int32) {
        stack.newTable()
        let module = stack.top
        // The search path is a plain Lua list: scripts may insert their own directories.
        let path = PluginLoader.defaultPath(options: options)
        stack.newTable(narr: Int32(path.count))
        for (i, directory) in path.enumerated() { stack.push(directory); stack.rawSetIndex(-2, Int64(i + 1)) }
        stack.pushValue(-1)
        setRegistry(.pluginPath)
        stack.rawSet(module, "path")
        setFunction(module, "pekit.plugins", "load") { call in
            try call.require(.plugins)
            let loaded = try call.runtime.plugins.load(try call.string(1))
            // A copy: the plugin's own table stays in its own state, out of the caller's reach.
            try call.runtime.pushCopy(of: loaded)
            return 1
        }
        setFunction(module, "pekit.plugins", "list") { call in
            try call.require(.plugins)
            call.runtime.push(.array(call.runtime.plugins.list().map { info in
                var entries: [PekitMap.Entry] = [.init(key: "name", value: .text(info.name)), .init(key: "kind", value: .text(info.kind)),
                                                 .init(key: "description", value: .text(info.description)), .init(key: "file", value: .text(info.file))]
                if let error = info.error { entries.append(.init(key: "error", value: .text(error))) }
                return .map(PekitMap(unordered: entries))
            }), keepOrder: false)
            return 1
        }
        setFunction(module, "pekit.plugins", "reload") { call in
            try call.require(.plugins)
            call.runtime.reloadPlugins()
            return 0
        }
        stack.rawSet(pekit, "plugins")
    }

    /// Forgets loaded plugins and the policies read from them, so edited files are read again.
    public func reloadPlugins() {
        plugins.reset()
        policies.reset()
    }
}
