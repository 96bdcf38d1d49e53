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
        var i = 0
        for byte in value.utf8 {
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { throw RequestError.invalidHeaderValue(name: name, byte: byte, position: i + 1) }
            i += 1
        }
    }

    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39: return true
        // ! # $ % & ' * + - . ^ _ ` | ~
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }

    /// Header names compare without case (ASCII), and without making lower-case copies.
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) }
    }

    /// Whether `text` is an HTTP token (methods and header names).
    public static func isToken(_ text: String) -> Bool { !text.isEmpty && text.utf8.allSatisfy(isTokenByte) }

    /// The first value of `name`.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Adds a field (another one of the same name may exist).
    public mutating func add(_ name: String, _ value: String) throws {
        try Self.validate(name: name, value: value)
        fields.append(Field(name: name, value: value))
    }

    /// Sets a field: replaces the first of that name in place and drops the others.
    public mutating func set(_ name: String, _ value: String) throws {
        try Self.validate(name: name, value: value)
        if let i = fields.firstIndex(where: { Self.sameName($0.name, name) }) {
            fields[i] = Field(name: name, value: value)
            fields = fields.enumerated().filter { $0.offset == i || !Self.sameName($0.element.name, name) }.map(\.element)
        } else {
            fields.append(Field(name: name, value: value))
        }
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    public var isEmpty: Bool { fields.isEmpty }
}
