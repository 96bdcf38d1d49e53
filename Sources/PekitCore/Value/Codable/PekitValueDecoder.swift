/// Reads a `Decodable` type from a `PekitValue`: what a server model made of a query (every
/// value a string, as PHP's `$_GET` and Rack's `params` hold them) or JWT claims. A string is
/// read as the number or boolean a property asks for (`"2"` as `Int`, `"true"`, `"1"`, `"on"`
/// as `true`), a map with keys 0…n-1 (PHP's `a[0]=…&a[1]=…`) as an array, and a missing or
/// null value as nil for an optional property. With `typed`, as for JSON, a value is read only
/// as its own kind, as Foundation's `JSONDecoder` reads it (`"2"` is not an `Int`, `1` not a
/// `Bool` or a `String`).
public struct PekitValueDecoder: Sendable {
    /// Whether a value is read only as its own kind (JSON), not a string as a number or boolean
    /// (query strings, whose every value is a string).
    public var typed: Bool

    /// A decoder.
    /// - Parameter typed: read each value only as its own kind (JSON), not a string as a number
    ///   or a boolean.
    public init(typed: Bool = false) { self.typed = typed }

    /// The `T` that `value` holds.
    /// - Throws: `DecodingError` naming the coding path: a key missing, a value of the wrong
    ///   kind, a number out of the property's range.
    public func decode<T: Decodable>(_ type: T.Type, from value: PekitValue) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: [], typed: typed))
    }
}

private struct ValueDecoder: Decoder {
    let value: PekitValue
    let codingPath: [CodingKey]
    let typed: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch<T>(_ type: T.Type, _ what: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(what), found \(value.kindName)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let map) = value else { throw mismatch([String: PekitValue].self, "a map") }
        return KeyedDecodingContainer(KeyedContainer<Key>(map: map, codingPath: codingPath, typed: typed))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        switch value {
        case .array(let items), .set(let items): return UnkeyedContainer(items: items, codingPath: codingPath, typed: typed)
        case .map(let map) where !typed && map.entries.enumerated().allSatisfy({ $0.element.key == ByteString(String($0.offset)) }):
            return UnkeyedContainer(items: map.entries.map(\.value), codingPath: codingPath, typed: typed)
        default: throw mismatch([PekitValue].self, "a list")
        }
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { SingleContainer(decoder: self) }
}

private struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(_ index: Int) { stringValue = String(index); intValue = index }
    init?(stringValue: String) { self.stringValue = stringValue; intValue = Int(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let map: PekitMap
    let codingPath: [CodingKey]
    let typed: Bool
    var allKeys: [Key] { map.entries.compactMap { Key(stringValue: $0.key.description) } }

    func contains(_ key: Key) -> Bool { map[ByteString(key.stringValue)] != nil }

    private func value(_ key: Key) throws -> PekitValue {
        guard let v = map[ByteString(key.stringValue)] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \"\(key.stringValue)\""))
        }
        return v
    }

    private func decoder(_ key: Key) throws -> ValueDecoder { ValueDecoder(value: try value(key), codingPath: codingPath + [key], typed: typed) }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let v = map[ByteString(key.stringValue)] else { return true }
        return v == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try SingleContainer(decoder: try decoder(key)).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }
    func superDecoder() throws -> Decoder { ValueDecoder(value: .map(map), codingPath: codingPath, typed: typed) }
    func superDecoder(forKey key: Key) throws -> Decoder { try decoder(key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [PekitValue]
    let codingPath: [CodingKey]
    let typed: Bool
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(items: [PekitValue], codingPath: [CodingKey], typed: Bool) { self.items = items; self.codingPath = codingPath; self.typed = typed }

    private mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(PekitValue.self, .init(codingPath: codingPath + [AnyKey(currentIndex)], debugDescription: "the list has only \(items.count) values"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: items[currentIndex], codingPath: codingPath + [AnyKey(currentIndex)], typed: typed)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try SingleContainer(decoder: try next()).decode(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> Decoder { try next() }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [CodingKey] { decoder.codingPath }
    var value: PekitValue { decoder.value }

    func decodeNil() -> Bool { value == .null }

    private var text: String? { if case .string(let s) = value { return s.description }; return nil }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let parsed: T?
        switch value {
        case .integer(let n): parsed = T(exactly: n)
        case .bigInteger(let digits): parsed = T(digits)
        case .number(let x): parsed = x.rounded() == x ? T(exactly: x) : nil
        case .string(let s) where !decoder.typed: parsed = T(s.description)
        default: throw decoder.mismatch(type, "an integer")
        }
        guard let parsed else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(value) is not a \(T.self)"))
        }
        return parsed
    }

    private func floating() throws -> Double {
        switch value {
        case .integer(let n): return Double(n)
        case .number(let x): return x
        case .bigInteger(let digits): if let x = Double(digits) { return x }
        case .string(let s) where !decoder.typed: if let x = Double(s.description) { return x }
        default: break
        }
        throw decoder.mismatch(Double.self, "a number")
    }

    /// `value` as `T`, which the type check before it established (a failure would be a bug
    /// here, reported as an error rather than a crash).
    private func cast<T>(_ value: Any) throws -> T {
        guard let typed = value as? T else { throw decoder.mismatch(T.self, "\(T.self)") }
        return typed
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type:
            guard let text else { throw decoder.mismatch(type, "a string") }
            return try cast(text)
        case is Bool.Type:
            switch value {
            case .boolean(let b): return try cast(b)
            case .string(let s) where !decoder.typed && ["true", "1", "on", "yes"].contains(s.description.lowercased()): return try cast(true)
            case .string(let s) where !decoder.typed && ["false", "0", "off", "no", ""].contains(s.description.lowercased()): return try cast(false)
            default: throw decoder.mismatch(type, "a boolean")
            }
        case is Int.Type: return try cast(try integer(Int.self))
        case is Int8.Type: return try cast(try integer(Int8.self))
        case is Int16.Type: return try cast(try integer(Int16.self))
        case is Int32.Type: return try cast(try integer(Int32.self))
        case is Int64.Type: return try cast(try integer(Int64.self))
        case is UInt.Type: return try cast(try integer(UInt.self))
        case is UInt8.Type: return try cast(try integer(UInt8.self))
        case is UInt16.Type: return try cast(try integer(UInt16.self))
        case is UInt32.Type: return try cast(try integer(UInt32.self))
        case is UInt64.Type: return try cast(try integer(UInt64.self))
        case is Double.Type: return try cast(try floating())
        case is Float.Type: return try cast(Float(try floating()))
        case is PekitValue.Type: return try cast(value)
        default: return try T(from: decoder)
        }
    }
}

extension QueryServer {
    /// Reads `query` as this server would, into a `Decodable` type: what the server's
    /// application would find in its parameters (`$_GET`, Rack's `params`, `req.query`).
    /// - Throws: `QueryServerError` where the server itself refuses the query (Go's invalid
    ///   escapes, Python's strict parsing); `DecodingError` naming the parameter otherwise.
    public func read<T: Decodable>(_ query: ByteString, as type: T.Type) throws -> T {
        try PekitValueDecoder().decode(type, from: try read(query))
    }
}
