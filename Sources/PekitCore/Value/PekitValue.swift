/// The one value type shared by the query flattener, JSON bodies and the Lua bridge.
///
/// Maps remember whether their order is meaningful: an ordered map (a JSON object, Lua's
/// `pekit.ordered{…}`) keeps the order it was given; a plain map (a Lua table, whose order is
/// random) is kept sorted by key so that output is deterministic.
public enum PekitValue: Equatable, Sendable {
    /// A string, as bytes (not necessarily UTF-8).
    case string(ByteString)
    /// An integer that fits in 64 bits.
    case integer(Int64)
    /// A double.
    case number(Double)
    /// An integer outside Int64's range, as its decimal digits (with a leading `-` when
    /// negative): JSON input keeps integers exact whatever their size, as Python's `json` and
    /// Foundation's `JSONSerialization` do, and each policy's `numbers` style writes them.
    case bigInteger(String)
    /// `true` or `false`.
    case boolean(Bool)
    /// An explicit null (`pekit.null` in Lua; Lua tables cannot hold nil).
    case null
    /// A list.
    case array([PekitValue])
    /// A map, sorted or in its given order.
    case map(PekitMap)
    /// A set: flattened as repeated keys, sorted by string form (AFNetworking's NSSet rule).
    case set([PekitValue])

    /// A string value from Swift text.
    public static func text(_ string: String) -> PekitValue { .string(ByteString(string)) }

    /// A short name of the kind of value, for error messages.
    /// The kind's name with its article (`an array`, `a map`), as errors say what they got.
    public var kindWithArticle: String {
        let name = kindName
        return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
    }

    /// The value as a double, for an integer or a number (a big integer rounded to the nearest).
    public var doubleValue: Double? {
        switch self {
        case .integer(let n): return Double(n)
        case .number(let x): return x
        case .bigInteger(let digits): return Double(digits)
        default: return nil
        }
    }

    /// The kind's name (`string`, `map`), as messages name it.
    public var kindName: String {
        switch self {
        case .string: return "string"
        case .integer, .bigInteger: return "integer"
        case .number: return "number"
        case .boolean: return "boolean"
        case .null: return "null"
        case .array: return "array"
        case .map(let map): return map.isOrdered ? "ordered map" : "map"
        case .set: return "set"
        }
    }
}

/// A map from byte-string keys to values, with or without a meaningful order.
public struct PekitMap: Equatable, Sendable {
    /// One entry.
    public struct Entry: Equatable, Sendable {
        /// The entry's key.
        public var key: ByteString
        /// The entry's value.
        public var value: PekitValue
        /// An entry.
        public init(key: ByteString, value: PekitValue) { self.key = key; self.value = value }
    }

    /// The entries, in the given order (ordered) or in byte order of their keys (plain).
    public private(set) var entries: [Entry]
    /// Whether the order of `entries` was given by the caller and should be kept.
    public let isOrdered: Bool

    /// An ordered map: `entries` keep the order given (duplicate keys are kept too).
    public init(ordered entries: [Entry]) {
        self.entries = entries
        isOrdered = true
    }

    /// A plain map: entries are sorted by key bytes.
    public init(unordered entries: [Entry]) {
        self.entries = entries.sorted { $0.key < $1.key }
        isOrdered = false
    }

    /// Whether the map has no entries.
    public var isEmpty: Bool { entries.isEmpty }
    /// The number of entries.
    public var count: Int { entries.count }

    /// The value of the first entry with this key.
    public subscript(key: ByteString) -> PekitValue? { entries.first { $0.key == key }?.value }
}
