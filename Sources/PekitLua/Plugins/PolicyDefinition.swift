import CLua
import CLuaShim
import PekitCore

/// Reads a policy from a Lua table, field by field, rejecting unknown fields and wrong types
/// with a message that names the field and what it accepts.
struct PolicyDefinition {
    /// The fields a policy table may have, and what each takes (for messages and docs).
    static let fields: [(name: String, accepts: String)] = [
        ("name", "a string"), ("kind", "\"policy\""), ("description", "a string"),
        ("extends", "the name of another policy"),
        ("allowed", "a charset, a preset name (\(AllowedSet.presetNames.joined(separator: ", "))) or extra characters to allow beyond unreserved"),
        ("space", alternatives(PercentEncoder.Space.names)), ("lower", "a boolean"),
        ("order", "\"ascending\", \"bytes\", \"pairs\", \"given\" or a function(a, b)"),
        ("arrays", "\"brackets\", \"indices\", \"repeat\", \"comma\", \"indices-when-nested\" or a function(key, index, nested)"),
        ("objects", "\"brackets\", \"dots\" or a function(prefix, key)"),
        ("null", "\"key\", \"empty\", \"skip\" or { text = \"...\" }"), ("booleans", "\"literal\", \"numeric\" or \"capitalized\""),
        ("numbers", alternatives(NumberStyle.names)),
        ("encode_keys", "true, false, \"segments\" or a charset"), ("encode_values", "true, false or a charset"),
        ("separator", "a string"), ("assign", "a string"), ("empty", "\"skip\" or \"key\""), ("prefix", "a string"),
        ("headers", "a table of header names to values (request defaults)"),
        ("accept_language", "\"afnetworking\" or \"alamofire\" (that library's rule, from the locale), or a value"),
        ("params_in", "\"query\", \"body\" or \"auto\""), ("methods_in_query", "a list of method names"),
    ]

    /// What the table names as its base, if anything.
    var extends: String?
    private var apply: [(inout Policy) -> Void] = []

    /// Reads the table at `index`.
    /// - Parameters:
    ///   - runtime: the runtime whose current stack holds the table (a plugin's own, for a plugin's
    ///     policy: its functions then run under that plugin's limits).
    ///   - origin: where the table came from, for callbacks' error messages.
    ///   - extraFields: other field names the caller accepts (and reads itself).
    /// - Throws: `LuaArgumentError` naming the field.
    init(runtime: LuaRuntime, table index: Int32, origin: String, extraFields: Set<String> = []) throws {
        let stack = runtime.stack
        let known = Set(Self.fields.map(\.name)).union(extraFields)
        var definition = self
        try runtime.forEachRaw(index) {
            guard stack.type(-2) == LUA_TSTRING, let field = stack.string(-2) else {
                throw LuaArgumentError("a policy's fields are named by strings, not by a \(stack.typeName(-2))")
            }
            guard known.contains(field) else {
                throw LuaArgumentError("unknown field \"\(field)\" (a policy has: \(Self.fields.map(\.name).joined(separator: ", ")))")
            }
            if extraFields.contains(field) { return }
            try definition.read(field, runtime: runtime, origin: origin)
        }
        self = definition
    }

    private func wrongType(_ field: String, _ runtime: LuaRuntime) -> LuaArgumentError {
        let accepts = Self.fields.first { $0.name == field }?.accepts ?? "?"
        let stack = runtime.stack
        let got = stack.type(-1) == LUA_TSTRING ? "\"\(stack.string(-1) ?? "")\"" : "a \(stack.typeName(-1))"
        return LuaArgumentError("field \"\(field)\" must be \(accepts), not \(got)")
    }

    private mutating func read(_ field: String, runtime: LuaRuntime, origin: String) throws {
        let stack = runtime.stack
        let text = stack.type(-1) == LUA_TSTRING ? stack.string(-1) : nil
        let isFunction = stack.type(-1) == LUA_TFUNCTION
        func callback() -> LuaCallback {
            stack.pushValue(-1)
            return LuaCallback(runtime: runtime, origin: "\(origin): \(field)")
        }
        switch field {
        case "name", "description", "separator", "assign", "prefix":
            guard let bytes = stack.bytes(-1) else { throw wrongType(field, runtime) }
            let value = String(decoding: bytes, as: UTF8.self)
            switch field {
            case "name": apply.append { $0.name = value }
            case "description": apply.append { $0.description = value }
            case "separator": apply.append { $0.separator = ByteString(bytes) }
            case "assign": apply.append { $0.assign = ByteString(bytes) }
            default: apply.append { $0.prefix = ByteString(bytes) }
            }
        case "kind":
            guard text == "policy" else { throw wrongType(field, runtime) }
        case "extends":
            guard let text else { throw wrongType(field, runtime) }
            extends = text
        case "allowed":
            let set = try Self.allowedSet(runtime, field)
            apply.append { $0.allowed = set }
        case "space":
            guard let space = text.flatMap(PercentEncoder.Space.init(name:)) else { throw wrongType(field, runtime) }
            apply.append { $0.space = space }
        case "lower":
            guard stack.type(-1) == LUA_TBOOLEAN else { throw wrongType(field, runtime) }
            let lower = stack.bool(-1)
            apply.append { $0.hexCase = lower ? .lower : .upper }
        case "order":
            let order: Policy.Order
            if let named = text.flatMap(Policy.Order.init(name:)) { order = named } else {
                guard isFunction else { throw wrongType(field, runtime) }
                order = .custom(callback().comparator)
            }
            apply.append { $0.order = order }
        case "arrays":
            let arrays: Policy.ArrayEncoding
            if let named = text.flatMap(Policy.ArrayEncoding.init(name:)) { arrays = named } else {
                guard isFunction else { throw wrongType(field, runtime) }
                arrays = .custom(callback().arrayKey)
            }
            apply.append { $0.arrays = arrays }
        case "objects":
            let objects: Policy.ObjectEncoding
            if let named = text.flatMap(Policy.ObjectEncoding.init(name:)) { objects = named } else {
                guard isFunction else { throw wrongType(field, runtime) }
                objects = .custom(callback().objectKey)
            }
            apply.append { $0.objects = objects }
        case "null":
            let value: Policy.NullEncoding
            if let named = text.flatMap(Policy.NullEncoding.init(name:)) { value = named } else {
                guard stack.type(-1) == LUA_TTABLE else { throw wrongType(field, runtime) }
                let isText = stack.rawGet(-1, "text") == LUA_TSTRING
                let bytes = isText ? stack.bytes(-1) : nil
                stack.pop(1)
                guard let bytes else { throw wrongType(field, runtime) }
                value = .text(String(decoding: bytes, as: UTF8.self))
            }
            apply.append { $0.null = value }
        case "booleans":
            guard let value = text.flatMap(Policy.BooleanEncoding.init(rawValue:)) else { throw wrongType(field, runtime) }
            apply.append { $0.booleans = value }
        case "numbers":
            guard let value = text.flatMap(NumberStyle.init(name:)) else { throw wrongType(field, runtime) }
            apply.append { $0.numbers = value }
        case "empty":
            guard let value = text.flatMap(Policy.EmptyEncoding.init(rawValue:)) else { throw wrongType(field, runtime) }
            apply.append { $0.empty = value }
        case "headers":
            guard stack.type(-1) == LUA_TTABLE else { throw wrongType(field, runtime) }
            var headers: [(String, String)] = []
            try runtime.forEachRaw(stack.top) {
                guard stack.type(-2) == LUA_TSTRING, stack.type(-1) == LUA_TSTRING, let name = stack.string(-2), let value = stack.string(-1) else {
                    throw LuaArgumentError("field \"headers\" must map header names to strings, not \(stack.typeName(-2)) to \(stack.typeName(-1))")
                }
                do { try PekitHeaders.validate(name: name, value: value) } catch { throw LuaArgumentError("field \"headers\": \(error)") }
                headers.append((name, value))
            }
            let sorted = headers.sorted { $0.0.lowercased() < $1.0.lowercased() }
            apply.append { $0.requestHeaders = sorted }
        case "accept_language":
            guard let text else { throw wrongType(field, runtime) }
            do { try PekitHeaders.validate(name: "Accept-Language", value: text) } catch { throw LuaArgumentError("field \"accept_language\": \(error)") }
            apply.append { $0.acceptLanguage = AcceptLanguage(text) }
        case "params_in":
            guard let text, ["query", "body", "auto"].contains(text) else { throw wrongType(field, runtime) }
            apply.append { $0.paramsIn = text }
        case "methods_in_query":
            guard stack.type(-1) == LUA_TTABLE else { throw wrongType(field, runtime) }
            var methods = Set<String>()
            for i in 0..<stack.rawLength(-1) {
                _ = stack.rawGetIndex(-1, Int64(i + 1))
                defer { stack.pop() }
                guard let m = stack.string(-1) else { throw wrongType(field, runtime) }
                methods.insert(m.uppercased())
            }
            apply.append { $0.methodsInQuery = methods }
        case "encode_keys", "encode_values":
            let encoding: Policy.ComponentEncoding
            if stack.type(-1) == LUA_TBOOLEAN {
                encoding = stack.bool(-1) ? .policy : .none
            } else if field == "encode_keys" && text == "segments" {
                encoding = .segments
            } else {
                encoding = .allowed(try Self.allowedSet(runtime, field))
            }
            if field == "encode_keys" { apply.append { $0.encodeKeys = encoding } } else { apply.append { $0.encodeValues = encoding } }
        default:
            break
        }
    }

    /// An allowed set from the value on top: a charset, a preset name, or extra characters
    /// added to the unreserved set (as Python's `quote(s, safe=…)`).
    static func allowedSet(_ runtime: LuaRuntime, _ field: String) throws -> AllowedSet {
        if let set = runtime.charset(at: -1) { return set }
        guard let text = runtime.stack.string(-1) else {
            throw LuaArgumentError("field \"\(field)\" must be a charset, a preset name or a string of characters, not a \(runtime.stack.typeName(-1))")
        }
        if let preset = AllowedSet.preset(named: text) { return preset }
        do { return AllowedSet.unreserved + (try AllowedSet(characters: text)) } catch {
            throw LuaArgumentError("field \"\(field)\": \(error)")
        }
    }

    /// `base` with this definition's fields applied.
    func applied(to base: Policy) -> Policy {
        var policy = base
        for change in apply { change(&policy) }
        return policy
    }
}
