/// JavaScript values as qs builds them: arrays may have holes, objects list their keys in
/// `Object.keys` order, and arrays and objects are shared and changed in place, as in JS.
enum JSValue {
    case undefined
    case null
    case boolean(Bool)
    case number(Double)
    case string(ByteString)
    case array(JSArray)
    case object(JSObject)

    /// `!!value`.
    var isTruthy: Bool {
        switch self {
        case .undefined, .null: return false
        case .boolean(let b): return b
        case .number(let n): return n != 0 && !n.isNaN
        case .string(let s): return !s.isEmpty
        case .array, .object: return true
        }
    }

    /// `typeof value === 'object' && value !== null`.
    var isObject: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }

    /// `String(value)`, for property names.
    var propertyName: ByteString {
        switch self {
        case .undefined: return "undefined"
        case .null: return "null"
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n): return ByteString(Self.numberText(n))
        case .string(let s): return s
        case .array(let a): return ByteString(Array(a.items.map { $0.map { v -> [UInt8] in if case .undefined = v { return [] }; if case .null = v { return [] }; return v.propertyName.bytes } ?? [] }.joined(separator: [0x2C])))
        case .object: return "[object Object]"
        }
    }

    /// `[].concat(value)`: an array's elements (holes kept), or the value alone.
    var concatItems: [JSValue?] {
        if case .array(let a) = self { return a.items }
        return [self]
    }

    static func numberText(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
        if n == n.rounded(), abs(n) < 9.2e18 { return String(Int64(n)) }
        return "\(n)"
    }

    /// The value pekit returns: holes and `undefined` in arrays are null (as `JSON.stringify`
    /// writes them), `undefined` properties are left out.
    var value: PekitValue? {
        switch self {
        case .undefined: return nil
        case .null: return .null
        case .boolean(let b): return .boolean(b)
        case .number(let n): return n == n.rounded() && abs(n) < 9.007e15 ? .integer(Int64(n)) : .number(n)
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.items.map { $0?.value ?? .null })
        case .object(let o): return .map(PekitMap(ordered: o.properties.keys.compactMap { key in o.properties[key]?.value.map { .init(key: key, value: $0) } }))
        }
    }
}

final class JSArray {
    /// nil is a hole.
    var items: [JSValue?]
    init(_ items: [JSValue?] = []) { self.items = items }

    /// `Object.prototype.hasOwnProperty.call(array, i)`.
    func has(_ i: Int) -> Bool { i < items.count && items[i] != nil }

    /// Sets element `i`, holes before it (qs's sparse arrays). Out of memory (`MemoryBudget`),
    /// nothing is set: the caller's budget reports it.
    func set(_ i: Int, _ value: JSValue) {
        if i >= items.count {
            guard MemoryBudget.allows((i - items.count + 1) &* MemoryLayout<JSValue?>.stride) else { return }
            items += Array(repeating: nil, count: i - items.count + 1)
        }
        items[i] = value
    }

    func push(_ value: JSValue) { items.append(value) }
}

final class JSObject {
    var properties = JSKeyOrder<JSValue>()
    init() {}
}
