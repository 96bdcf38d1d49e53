/// A set of bytes that a percent-encoder leaves as they are, held as a bit table over byte values.
///
/// Only ASCII bytes (0x00–0x7F) can ever be members: non-ASCII text is always UTF-8 encoded and
/// every byte of it escaped, so no set can split a character or let raw UTF-8 into a URL.
/// Sets are values: combine them with `union` (`+`), `subtracting` (`-`) and `inverted` (`~`).
public struct AllowedSet: Hashable, Sendable, CustomStringConvertible {
    // Bit `b` of w0 (b < 64) or bit `b - 64` of w1 (b < 128) says whether byte `b` is allowed;
    // the upper half of the 256-bit table is always empty, so it is not stored.
    @usableFromInline var w0: UInt64
    @usableFromInline var w1: UInt64

    /// The empty set: every byte is escaped.
    public init() { w0 = 0; w1 = 0 }

    /// A set holding exactly the ASCII characters of `characters`.
    ///
    /// - Throws: `AllowedSetError.nonASCII` naming the first character that is not ASCII.
    public init(characters: String) throws {
        self.init()
        for (index, scalar) in characters.unicodeScalars.enumerated() {
            guard scalar.isASCII else { throw AllowedSetError.nonASCII(character: scalar, position: index + 1) }
            insert(UInt8(scalar.value))
        }
    }

    /// A set holding the given bytes; bytes of 0x80 and above are ignored (they are never allowed).
    public init<S: Sequence>(bytes: S) where S.Element == UInt8 {
        self.init()
        for byte in bytes { insert(byte) }
    }

    /// The set as a bitmap: bit `b` of `low` (b < 64) or bit `b - 64` of `high` allows byte `b`.
    /// For storing a set compactly (the Lua host keeps it in a userdata).
    public init(low: UInt64, high: UInt64) { w0 = low; w1 = high }
    /// See `init(low:high:)`.
    public var bitmap: (low: UInt64, high: UInt64) { (w0, w1) }

    // An internal constructor for presets written as ASCII literals, which cannot fail.
    init(ascii: StaticString) {
        self.init()
        ascii.withUTF8Buffer { for byte in $0 { insert(byte) } }
    }

    /// Whether `byte` passes through the encoder unescaped.
    @inlinable @inline(__always)
    public func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return (w0 >> UInt64(byte)) & 1 == 1 }
        if byte < 128 { return (w1 >> UInt64(byte &- 64)) & 1 == 1 }
        return false
    }

    /// Whether every byte of the UTF-8 form of `character` is allowed (false for non-ASCII).
    public func contains(_ character: Unicode.Scalar) -> Bool {
        character.isASCII && contains(UInt8(character.value))
    }

    /// Adds an ASCII byte; bytes of 0x80 and above are ignored.
    public mutating func insert(_ byte: UInt8) {
        if byte < 64 { w0 |= 1 << UInt64(byte) } else if byte < 128 { w1 |= 1 << UInt64(byte - 64) }
    }

    /// Removes a byte.
    public mutating func remove(_ byte: UInt8) {
        if byte < 64 { w0 &= ~(1 << UInt64(byte)) } else if byte < 128 { w1 &= ~(1 << UInt64(byte - 64)) }
    }

    /// The bytes allowed by either set.
    public func union(_ other: AllowedSet) -> AllowedSet {
        var result = self; result.w0 |= other.w0; result.w1 |= other.w1; return result
    }

    /// The bytes of this set that `other` does not allow.
    public func subtracting(_ other: AllowedSet) -> AllowedSet {
        var result = self; result.w0 &= ~other.w0; result.w1 &= ~other.w1; return result
    }

    /// The ASCII bytes this set does not allow (non-ASCII stays escaped).
    public var inverted: AllowedSet {
        var result = self; result.w0 = ~w0; result.w1 = ~w1; return result
    }

    /// The allowed bytes in ascending order.
    public var bytes: [UInt8] { (0..<128).map(UInt8.init).filter(contains) }

    /// Whether no byte is allowed.
    public var isEmpty: Bool { w0 == 0 && w1 == 0 }

    /// The allowed characters in byte order, control characters shown as `\xNN` and a
    /// backslash as `\\` (so the text reads back as a Lua or C string literal).
    public var description: String {
        var text = ""
        for byte in bytes {
            if byte == 0x5C {
                text += "\\\\"
            } else if byte < 0x20 || byte == 0x7F {
                text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return text
    }

    /// The bytes allowed by either set.
    public static func + (lhs: AllowedSet, rhs: AllowedSet) -> AllowedSet { lhs.union(rhs) }
    /// The bytes of `lhs` that `rhs` does not allow.
    public static func - (lhs: AllowedSet, rhs: AllowedSet) -> AllowedSet { lhs.subtracting(rhs) }
    /// Every ASCII byte `set` does not allow.
    public static prefix func ~ (set: AllowedSet) -> AllowedSet { set.inverted }
}

/// Why a string could not be turned into an `AllowedSet`.
public enum AllowedSetError: Error, Equatable, CustomStringConvertible {
    /// The character at `position` (1-based, in Unicode scalars) is not ASCII.
    case nonASCII(character: Unicode.Scalar, position: Int)
    /// No preset has this name.
    case unknownPreset(String)

    public var description: String {
        switch self {
        case let .nonASCII(character, position):
            return "character \"\(character)\" at position \(position) is not ASCII; non-ASCII text is always UTF-8 percent-encoded"
        case let .unknownPreset(name):
            return "unknown character set \"\(name)\" (known: \(AllowedSet.presetNames.joined(separator: ", ")))"
        }
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
