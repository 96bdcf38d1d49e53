/// Header fields in order, duplicates allowed, names compared case-insensitively. Every name
/// must be an HTTP token (or, one read as curl's -H line, hold no colon or control byte) and no
/// value may hold CR, LF, NUL or another control byte (tab aside), so no header can be injected
/// through them.
public struct PekitHeaders: Equatable, Sendable {
    /// One field: a name and a value, as written.
    public struct Field: Equatable, Sendable {
        /// The name, as given (its case is kept).
        public let name: String
        /// The value as text (bytes that are not UTF-8 shown repaired, as U+FFFD).
        public let value: String
        /// The value's own bytes where they are not UTF-8 (a field given as bytes), sent as they
        /// are; nil when `value`'s UTF-8 is what goes on the wire.
        public let rawValue: [UInt8]?
        /// The whitespace written between the colon and the value: one space unless a field was
        /// given as a whole line (curl's `-H 'X-A:1'` goes out as `X-A:1`, `-H 'X-B:  2'` with
        /// both spaces). Only spaces and tabs.
        public let spacing: String

        /// A field with a text value.
        public init(name: String, value: String, spacing: String = " ") {
            self.name = name; self.value = value; self.spacing = spacing; rawValue = nil
        }

        /// A field whose value is bytes: kept as they are where they are not UTF-8.
        public init(name: String, valueBytes: [UInt8], spacing: String = " ") {
            self.name = name; self.spacing = spacing
            if let text = ValidUTF8.string(valueBytes) { value = text; rawValue = nil } else {
                value = String(decoding: valueBytes, as: UTF8.self); rawValue = valueBytes
            }
        }

        /// The field as one line, without CR LF, as text (bytes that are not UTF-8 repaired): an
        /// empty value is written with nothing after the colon (no trailing whitespace), as curl sends it.
        public var line: String { value.isEmpty ? name + ":" : name + ":" + spacing + value }

        /// The field as one line on the wire, without CR LF: its bytes.
        public var lineBytes: [UInt8] {
            var out = Array(name.utf8)
            out.append(0x3A)
            guard !value.isEmpty else { return out }
            out += spacing.utf8
            appendValue(to: &out)
            return out
        }

        /// Appends the value's bytes as they go on the wire.
        public func appendValue(to out: inout [UInt8]) {
            if let rawValue { out += rawValue } else { out += value.utf8 }
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field] = []

    /// No fields.
    public init() {}

    /// Checks a field before it is added.
    /// - Parameters:
    ///   - name: the field's name, an HTTP token (unless `nameAsWritten`).
    ///   - value: its value, with no CR, LF, NUL or other control byte (tab aside).
    ///   - nameAsWritten: see `validate(name:bytes:nameAsWritten:)`.
    /// - Complexity: one pass over each (this runs for every header of every request).
    public static func validate(name: String, value: String, nameAsWritten: Bool = false) throws {
        var value = value
        try value.withUTF8 { try validate(name: name, bytes: $0, nameAsWritten: nameAsWritten) }
    }

    /// `validate(name:value:)` for a value given as bytes.
    /// - Parameters:
    ///   - name: the field's name, an HTTP token.
    ///   - bytes: its value, with no CR, LF, NUL or other control byte (tab aside).
    ///   - nameAsWritten: the name need not be a token (a line read as curl's `-H` reads it),
    ///     but holds no colon and no control byte other than tab.
    public static func validate<Bytes: Collection<UInt8>>(name: String, bytes: Bytes, nameAsWritten: Bool = false) throws {
        if nameAsWritten {
            guard !name.isEmpty, !name.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F || $0 == 0x3A }) else {
                throw RequestError.invalidHeaderName(name)
            }
        } else {
            guard isToken(name) else { throw RequestError.invalidHeaderName(name) }
        }
        for (i, byte) in bytes.enumerated() where (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            throw RequestError.invalidHeaderValue(name: name, byte: byte, position: i + 1)
        }
    }

    /// tchar (RFC 9110 §5.6.2) as a bit mask over ASCII: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~
    private static let tokenLow: UInt64 = (1 << 0x21) | (1 << 0x23) | (1 << 0x24) | (1 << 0x25) | (1 << 0x26) | (1 << 0x27)
        | (1 << 0x2A) | (1 << 0x2B) | (1 << 0x2D) | (1 << 0x2E) | (0x3FF << 0x30)
    private static let tokenHigh: UInt64 = (0x3FFFFFF << (0x41 - 64)) | (1 << (0x5E - 64)) | (1 << (0x5F - 64)) | (1 << (0x60 - 64))
        | (0x3FFFFFF << (0x61 - 64)) | (1 << (0x7C - 64)) | (1 << (0x7E - 64))

    package static func isTokenByte(_ b: UInt8) -> Bool {
        b < 64 ? tokenLow >> b & 1 != 0 : b < 128 && tokenHigh >> (b - 64) & 1 != 0
    }

    /// Header names compare without case (ASCII), and without making lower-case copies.
    public static func sameName(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { a in
            b.withUTF8 { b in
                a.count == b.count && zip(a, b).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) }
            }
        }
    }

    /// Whether `text` is an HTTP token (methods and header names).
    public static func isToken(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { !$0.isEmpty && $0.allSatisfy(isTokenByte) }
    }

    /// The first value of `name`.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Room for `count` fields without growing (a request's fields are added one by one).
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Adds a field the caller made valid by construction (a literal name; a value pekit wrote
    /// from checked parts), without checking it again.
    package mutating func addValid(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Adds a field (another one of the same name may exist).
    /// - Parameter name: the field's name, an HTTP token.
    /// - Parameter value: its value, with no CR, LF, NUL or other control byte (tab aside).
    /// - Parameter spacing: what goes between the colon and the value (spaces and tabs only).
    public mutating func add(_ name: String, _ value: String, spacing: String = " ") throws {
        try Self.validate(name: name, value: value)
        try Self.checkSpacing(name, spacing)
        fields.append(Field(name: name, value: value, spacing: spacing))
    }

    /// Adds a field whose value is bytes, sent as they are (another one of the same name may exist).
    public mutating func add(_ name: String, bytes value: [UInt8], spacing: String = " ") throws {
        try Self.validate(name: name, bytes: value)
        try Self.checkSpacing(name, spacing)
        fields.append(Field(name: name, valueBytes: value, spacing: spacing))
    }

    /// Adds a field whose name and value the caller checked (`validate`): only its spacing is
    /// checked here. The value's bytes are `raw` where they are not UTF-8, else `value`'s.
    package mutating func addChecked(_ name: String, _ value: String, raw: [UInt8]?, spacing: String) throws {
        try Self.checkSpacing(name, spacing)
        fields.append(Self.field(name, value, raw: raw, spacing: spacing))
    }

    /// The field at `index` with another value, checked by the caller (`validate`), its name and
    /// spacing kept; as `addChecked` would have added it.
    package mutating func replaceValue(at index: Int, _ value: String, raw: [UInt8]?) {
        fields[index] = Self.field(fields[index].name, value, raw: raw, spacing: fields[index].spacing)
    }

    /// A field whose value's bytes are `raw` where they are not UTF-8, else `value`'s.
    private static func field(_ name: String, _ value: String, raw: [UInt8]?, spacing: String) -> Field {
        raw.map { Field(name: name, valueBytes: $0, spacing: spacing) } ?? Field(name: name, value: value, spacing: spacing)
    }

    private static func checkSpacing(_ name: String, _ spacing: String) throws {
        guard spacing.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { throw RequestError.invalid("header \(name): only spaces and tabs may come before the value") }
    }

    /// Inserts a checked field at `index` (the place a client gives a field of its own).
    public mutating func insert(_ name: String, _ value: String, at index: Int) throws {
        try Self.validate(name: name, value: value)
        fields.insert(Field(name: name, value: value), at: index)
    }

    /// Whether a field of that name is present.
    public func contains(_ name: String) -> Bool { fields.contains { Self.sameName($0.name, name) } }

    /// Sets a field: replaces the first of that name in place and drops the others.
    public mutating func set(_ name: String, _ value: String) throws {
        try Self.validate(name: name, value: value)
        replace(Field(name: name, value: value))
    }

    /// `set` with a value given as bytes, sent as they are.
    public mutating func set(_ name: String, bytes value: [UInt8]) throws {
        try Self.validate(name: name, bytes: value)
        replace(Field(name: name, valueBytes: value))
    }

    private mutating func replace(_ field: Field) {
        if let i = fields.firstIndex(where: { Self.sameName($0.name, field.name) }) {
            fields[i] = field
            fields = fields.enumerated().filter { $0.offset == i || !Self.sameName($0.element.name, field.name) }.map(\.element)
        } else {
            fields.append(field)
        }
    }

    /// Removes every field called `name` (ASCII case-insensitive).
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }
}
