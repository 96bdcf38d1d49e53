/// Swift literals make values as JSON would: `let v: PekitValue = ["user": ["name": "ada",
/// "tags": ["a", 1, 2.5, true, .null]]]` (a dictionary literal keeps its order, as JSON text
/// does). JSON's null is `.null`: `nil` stays Swift's "no value" (a `PekitValue?`), never a
/// value, so a missing value is never mistaken for a null one.
extension PekitValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(ByteString(value)) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(arrayLiteral elements: PekitValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, PekitValue)...) {
        self = .map(PekitMap(ordered: elements.map { PekitMap.Entry(key: ByteString($0.0), value: $0.1) }))
    }
}

/// A value prints as compact JSON (`{"a":[1,2.5,true,null]}`): sets as arrays, bytes that are
/// not UTF-8 as `\u00XX` escapes of each byte (`JSONText.write`).
extension PekitValue: CustomStringConvertible {
    public var description: String { String(decoding: JSONText.write(self), as: UTF8.self) }
}
