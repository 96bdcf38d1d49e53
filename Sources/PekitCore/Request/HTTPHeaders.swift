/// Header fields in order, duplicates allowed, names compared case-insensitively. Every name
/// must be an HTTP token and no value may hold CR, LF, NUL or another control byte (tab aside),
/// so no header can be injected through them.
public struct HTTPHeaders: Equatable, Sendable {
    public struct Field: Equatable, Sendable {
        public let name: String
        public let value: String
    }

    public private(set) var fields: [Field] = []

    public init() {}

    /// Checks a field before it is added.
    public static func validate(name: String, value: String) throws {
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else { throw RequestError.invalidHeaderName(name) }
        for (i, byte) in value.utf8.enumerated() where (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            throw RequestError.invalidHeaderValue(name: name, byte: byte, position: i + 1)
        }
    }

    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }

    /// Whether `text` is an HTTP token (methods and header names).
    public static func isToken(_ text: String) -> Bool { !text.isEmpty && text.utf8.allSatisfy(isTokenByte) }

    /// The first value of `name`.
    public subscript(name: String) -> String? {
        let lower = name.lowercased()
        return fields.first { $0.name.lowercased() == lower }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        let lower = name.lowercased()
        return fields.filter { $0.name.lowercased() == lower }.map(\.value)
    }

    /// Adds a field (another one of the same name may exist).
    public mutating func add(_ name: String, _ value: String) throws {
        try Self.validate(name: name, value: value)
        fields.append(Field(name: name, value: value))
    }

    /// Sets a field: replaces the first of that name in place and drops the others.
    public mutating func set(_ name: String, _ value: String) throws {
        try Self.validate(name: name, value: value)
        let lower = name.lowercased()
        if let i = fields.firstIndex(where: { $0.name.lowercased() == lower }) {
            fields[i] = Field(name: name, value: value)
            fields = fields.enumerated().filter { $0.offset == i || $0.element.name.lowercased() != lower }.map(\.element)
        } else {
            fields.append(Field(name: name, value: value))
        }
    }

    public mutating func remove(_ name: String) {
        let lower = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lower }
    }

    public var isEmpty: Bool { fields.isEmpty }
}
