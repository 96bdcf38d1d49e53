import CLua
import CLuaShim
import PekitCore
import PekitHTTP

/// The fields of a table argument (options, request fields, a policy), read by name and type.
/// Unknown fields are refused up front and every mistake names the argument and the field:
///
///     bad argument #2 (unknown field "servr" (did you mean "server"?); known: policy, server, depth, …)
///     bad argument #2 (field "depth": expected a whole number from 0 to 1000, got a string)
///
/// Reads are raw (a table's metamethods never run) and each leaves the stack as it found it.
struct LuaFields {
    let call: LuaCall
    /// The table's absolute stack index.
    let index: Int32
    /// The argument number the user wrote, for messages.
    let argument: Int32
    let known: [String]
    /// Whether `[1]` is taken too (`sign = {"aws-sigv4", region = …}`).
    var takesFirst = false
    /// The table's names, read once when it was checked: a field it does not have is answered
    /// without asking Lua (a request table has a few of the eighty names a send reads).
    private(set) var present: [String] = []
    private var knownSet: Set<String>?

    /// The table at argument `n`, or nil when the argument is absent or nil.
    /// - Parameters:
    ///   - known: the field names accepted; any other is an error listing them.
    ///   - index: where the table is on the stack when it is not argument `n` itself.
    ///   - takesFirst: whether the table may also hold one value at `[1]`.
    /// - Throws: `LuaArgumentError` for a non-table or an unknown field.
    ///   - knownSet: `known` as a set, where the caller keeps one (a long list read again and again).
    static func read(_ call: LuaCall, argument n: Int32, known: [String], knownSet: Set<String>? = nil, at index: Int32? = nil, takesFirst: Bool = false) throws -> LuaFields? {
        let i = call.stack.absolute(index ?? n)
        if call.stack.isNoneOrNil(i) { return nil }
        guard call.stack.type(i) == LUA_TTABLE else {
            throw call.badArgument(n, "table expected, got \(call.stack.typeName(i))")
        }
        var fields = LuaFields(call: call, index: i, argument: n, known: known)
        fields.takesFirst = takesFirst
        fields.knownSet = knownSet
        try fields.checkNames()
        return fields
    }

    private mutating func checkNames() throws {
        let stack = call.stack
        var present: [String] = []
        try call.runtime.forEachRaw(index) {
            if takesFirst, stack.type(-2) == LUA_TNUMBER, stack.integer(-2) == 1 { return }
            guard stack.type(-2) == LUA_TSTRING, let name = stack.string(-2), knownSet?.contains(name) ?? known.contains(name) else {
                let text = stack.type(-2) == LUA_TSTRING ? stack.string(-2) : nil
                let name = text.map { "\"\($0)\"" } ?? "[\(stack.toStringMeta(-2))]"
                let near = text.flatMap { Suggestion.closest(to: $0, among: known) }.map { " (did you mean \"\($0)\"?)" } ?? ""
                throw call.badArgument(argument, "unknown field \(name)\(near); known: \(known.joined(separator: ", "))")
            }
            present.append(name)
        }
        self.present = present
    }

    /// An error about field `name`.
    func error(_ name: String, _ message: String) -> LuaArgumentError {
        call.badArgument(argument, "field \"\(name)\": \(message)")
    }

    /// An error saying what `name` takes and what it got (the value on top).
    func mismatch(_ name: String, expected: String) -> LuaArgumentError {
        let stack = call.stack
        let got: String
        switch stack.type(-1) {
        case LUA_TSTRING: got = "\"\(stack.string(-1) ?? "")\""
        case LUA_TNUMBER, LUA_TBOOLEAN: got = stack.toStringMeta(-1)
        default: got = "a \(stack.typeName(-1))"
        }
        return error(name, "expected \(expected), got \(got)")
    }

    /// Whether the field is there (not nil).
    func has(_ name: String) -> Bool {
        guard present.contains(name) else { return false }
        defer { call.stack.pop() }
        return call.stack.rawGet(index, name) != LUA_TNIL
    }

    /// Calls `body` with the field's value on top (and its index), when it is not nil.
    func with<T>(_ name: String, _ body: (Int32) throws -> T) throws -> T? {
        guard present.contains(name) else { return nil }
        let stack = call.stack
        let base = stack.top
        defer { stack.setTop(base) }
        guard stack.rawGet(index, name) != LUA_TNIL else { return nil }
        return try body(stack.top)
    }

    func string(_ name: String) throws -> String? {
        try with(name) { _ in
            guard call.stack.type(-1) == LUA_TSTRING, let text = call.stack.string(-1) else { throw mismatch(name, expected: "a string") }
            return text
        }
    }

    func bytes(_ name: String) throws -> [UInt8]? {
        try with(name) { _ in
            guard let bytes = call.stack.bytes(-1) else { throw mismatch(name, expected: "a string") }
            return bytes
        }
    }

    func flag(_ name: String) throws -> Bool? {
        try with(name) { _ in
            guard call.stack.type(-1) == LUA_TBOOLEAN else { throw mismatch(name, expected: "true or false") }
            return call.stack.bool(-1)
        }
    }

    /// A whole number in `range` (a float with an integral value is accepted, as Lua does).
    func integer(_ name: String, in range: ClosedRange<Int64>) throws -> Int? {
        try with(name) { _ in
            let stack = call.stack
            let expected = wholeNumber(in: range)
            guard stack.type(-1) == LUA_TNUMBER, let value = stack.integer(-1), range.contains(value) else { throw mismatch(name, expected: expected) }
            return Int(value)
        }
    }

    /// A finite number in `range`; NaN and infinities are refused.
    func number(_ name: String, in range: ClosedRange<Double>, expected: String) throws -> Double? {
        try with(name) { _ in
            guard let value = call.stack.number(-1), value.isFinite, range.contains(value) else { throw mismatch(name, expected: expected) }
            return value
        }
    }

    /// A duration in seconds: more than 0, at most `SendOptions.secondsRange`'s bound (about
    /// eleven days).
    func seconds(_ name: String) throws -> Double? {
        let expected = "a number of seconds more than 0 and at most \(Int(SendOptions.secondsRange.upperBound))"
        guard let value = try number(name, in: SendOptions.secondsRange, expected: expected) else { return nil }
        guard value > 0 else { throw error(name, "expected \(expected), got 0") }
        return value
    }

    /// One of `names`, returned as written.
    func choice(_ name: String, _ names: [String]) throws -> String? {
        try with(name) { _ in
            guard call.stack.type(-1) == LUA_TSTRING, let text = call.stack.string(-1), names.contains(text) else {
                throw mismatch(name, expected: alternatives(names))
            }
            return text
        }
    }

    /// The field as a pekit value (`params`, `json`): errors name the key path inside it.
    func value(_ name: String) throws -> PekitValue? {
        try with(name) { i in
            // The key path names the place already (`params.a.b: cycle …`).
            do { return try call.runtime.value(at: i, path: name) } catch let error as LuaConversionError {
                throw LuaArgumentError("\(error)")
            }
        }
    }

    /// A list of strings (`{"GET", "HEAD"}`).
    func strings(_ name: String) throws -> [String]? {
        try with(name) { i in
            let stack = call.stack
            guard stack.type(i) == LUA_TTABLE else { throw mismatch(name, expected: "a list of strings") }
            return try (0..<stack.rawLength(i)).map { n in
                _ = stack.rawGetIndex(i, Int64(n + 1))
                defer { stack.pop() }
                guard let text = stack.string(-1), stack.type(-1) == LUA_TSTRING else { throw error(name, "item \(n + 1) must be a string, not a \(stack.typeName(-1))") }
                return text
            }
        }
    }
}
