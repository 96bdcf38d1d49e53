/// A string as bytes: what Lua strings, URL components and header values really are.
///
/// Embedded NUL and bytes that are not UTF-8 survive unchanged. Write literals as ordinary strings
/// (`let key: ByteString = "name"`); `description` shows the bytes as UTF-8 (invalid sequences as U+FFFD).
public struct ByteString: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The bytes.
    public var bytes: [UInt8]

    /// These bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    /// The bytes of a sequence.
    public init<S: Sequence>(bytes: S) where S.Element == UInt8 { self.bytes = Array(bytes) }
    /// The UTF-8 of `string`.
    public init(_ string: String) { bytes = Array(string.utf8) }
    public init(stringLiteral value: String) { bytes = Array(value.utf8) }

    /// Byte order (what `order = "bytes"` and most canonical forms sort by).
    public static func < (lhs: ByteString, rhs: ByteString) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Hashes the bytes in one call (the default for arrays feeds the hasher a byte at a time).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public static func == (lhs: ByteString, rhs: ByteString) -> Bool { lhs.bytes == rhs.bytes }
    /// The bytes as a String when they are valid UTF-8.
    public var utf8String: String? { ValidUTF8.string(bytes) }
    /// Whether there are no bytes.
    public var isEmpty: Bool { bytes.isEmpty }
    /// The number of bytes.
    public var count: Int { bytes.count }

    /// The bytes of `lhs`, then those of `rhs`.
    public static func + (lhs: ByteString, rhs: ByteString) -> ByteString { ByteString(lhs.bytes + rhs.bytes) }
}
