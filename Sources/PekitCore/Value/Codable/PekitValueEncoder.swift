/// Turns an `Encodable` value into a `PekitValue`, the way Alamofire's
/// `URLEncodedFormEncoder` reads a parameter type: keyed containers become ordered maps (in the
/// order the type encodes its properties), unkeyed ones arrays, and a nil that the type skips
/// (`encodeIfPresent`, what synthesized conformances do) is absent. A `Policy` then writes the
/// value with its own rules for arrays, nesting, booleans, nulls and key order.
public struct PekitValueEncoder: Sendable {
    /// An encoder.
    public init() {}

    /// The value `value` encodes to.
    /// - Throws: `EncodingError.invalidValue` for a value with no PekitValue (a non-finite
    ///   number is written as a number, as Lua and JSON cannot), or the type's own error.
    public func encode<T: Encodable>(_ value: T) throws -> PekitValue {
        let root = Node.Box()
        try value.encode(to: ValueEncoder(box: root, codingPath: []))
        return root.node.value
    }
}

/// What is being built: a leaf, or a container whose children are filled in later.
enum Node {
    case value(PekitValue)
    case map([(String, Box)])
    case array([Box])
    case unset

    final class Box {
        var node: Node = .unset
    }

    var value: PekitValue {
        switch self {
        case .value(let v): return v
        case .unset: return .map(PekitMap(ordered: []))
        case .array(let boxes): return .array(boxes.map(\.node.value))
        case .map(let entries): return .map(PekitMap(ordered: entries.map { PekitMap.Entry(key: ByteString($0.0), value: $0.1.node.value) }))
        }
    }
}

private struct ValueEncoder: Encoder {
    let box: Node.Box
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .map = box.node {} else { box.node = .map([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if case .array = box.node {} else { box.node = .array([]) }
        return UnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { SingleContainer(box: box, codingPath: codingPath) }
}

/// The leaf for a standard library value; nil for anything else (encoded through its own `encode`).
private func leaf<T: Encodable>(_ value: T) -> PekitValue? {
    switch value {
    case let v as String: return .string(ByteString(v))
    case let v as Bool: return .boolean(v)
    case let v as Int: return .integer(Int64(v))
    case let v as Int8: return .integer(Int64(v))
    case let v as Int16: return .integer(Int64(v))
    case let v as Int32: return .integer(Int64(v))
    case let v as Int64: return .integer(v)
    case let v as UInt: return v <= UInt(Int64.max) ? .integer(Int64(v)) : .bigInteger(String(v))
    case let v as UInt8: return .integer(Int64(v))
    case let v as UInt16: return .integer(Int64(v))
    case let v as UInt32: return .integer(Int64(v))
    case let v as UInt64: return v <= UInt64(Int64.max) ? .integer(Int64(v)) : .bigInteger(String(v))
    case let v as Double: return .number(v)
    case let v as Float: return .number(Double(v))
    case let v as PekitValue: return v
    default: return nil
    }
}

private func encodeValue<T: Encodable>(_ value: T, into box: Node.Box, codingPath: [CodingKey]) throws {
    if let leaf = leaf(value) { box.node = .value(leaf); return }
    try value.encode(to: ValueEncoder(box: box, codingPath: codingPath))
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: Node.Box
    let codingPath: [CodingKey]

    private func child(_ key: Key) -> Node.Box {
        guard case .map(var entries) = box.node else { return Node.Box() }
        if let existing = entries.first(where: { $0.0 == key.stringValue }) { return existing.1 }
        let made = Node.Box()
        entries.append((key.stringValue, made))
        box.node = .map(entries)
        return made
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).node = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: child(key), codingPath: codingPath + [key])
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        ValueEncoder(box: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        ValueEncoder(box: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }
    mutating func superEncoder() -> Encoder { ValueEncoder(box: child(Key(stringValue: "super")!), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> Encoder { ValueEncoder(box: child(key), codingPath: codingPath + [key]) }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { guard let n = Int(stringValue) else { return nil }; intValue = n }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: Node.Box
    let codingPath: [CodingKey]
    var count: Int { if case .array(let boxes) = box.node { return boxes.count }; return 0 }

    private func next() -> Node.Box {
        let made = Node.Box()
        if case .array(var boxes) = box.node { boxes.append(made); box.node = .array(boxes) }
        return made
    }

    mutating func encodeNil() throws { next().node = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [IndexKey(count)]
        try encodeValue(value, into: next(), codingPath: path)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [IndexKey(count)]
        return ValueEncoder(box: next(), codingPath: path).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let path = codingPath + [IndexKey(count)]
        return ValueEncoder(box: next(), codingPath: path).unkeyedContainer()
    }
    mutating func superEncoder() -> Encoder { ValueEncoder(box: next(), codingPath: codingPath) }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let box: Node.Box
    let codingPath: [CodingKey]
    mutating func encodeNil() throws { box.node = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, into: box, codingPath: codingPath) }
}

extension Policy {
    /// The query string for an `Encodable` parameter type (Alamofire's
    /// `URLEncodedFormParameterEncoder`), written by this policy's rules: its array and nesting
    /// style, booleans, nulls, empty values and key order. Properties are in the type's order
    /// before the policy's `order` applies; a nil property the type skips is absent.
    /// - Throws: the type's own encoding error; `QueryError` as `queryString(_:)` does.
    public func queryString<T: Encodable>(encoding value: T) throws -> ByteString {
        try queryString(PekitValueEncoder().encode(value))
    }
}
