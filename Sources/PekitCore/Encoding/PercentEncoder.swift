/// Percent-encodes one URL component (RFC 3986 §2.1) byte by byte.
///
/// Input is taken as bytes: a Swift `String` as its UTF-8 form (so no character is ever split
/// between escapes), a byte buffer exactly as it is (so invalid UTF-8 from Lua still encodes).
/// A byte in `allowed` is copied; any other becomes `%XX`. Output is always ASCII.
///
/// Cost: two passes over the input (count, then fill) with a fast path for runs of allowed
/// bytes, and exactly one allocation, of the exact output size.
public struct PercentEncoder: Sendable, Equatable {
    /// How a space (0x20) is written when it is not in the allowed set.
    public enum Space: String, Sendable, Equatable, CaseIterable {
        /// `%20`: RFC 3986, Foundation, AFNetworking.
        case percent
        /// `+`: HTML forms (application/x-www-form-urlencoded). A literal `+` is then always
        /// escaped as `%2B`, even when the allowed set has it, so the output decodes unambiguously.
        case plus
    }

    /// The case of the hex digits in `%XX`.
    public enum HexCase: String, Sendable, Equatable {
        /// `%2F`, as RFC 3986 §2.1 recommends.
        case upper
        /// `%2f`.
        case lower
    }

    /// The bytes copied as they are.
    public var allowed: AllowedSet { didSet { rebuildTable() } }
    /// How a space is written.
    public var space: Space { didSet { rebuildTable() } }
    /// The case of hex digits.
    public var hexCase: HexCase
    /// When true, a `%` followed by two hex digits is kept as an escape that is already there,
    /// so a partly escaped string is completed without double-encoding (`a%20b c` → `a%20b%20c`).
    public var keepsValidEscapes: Bool { didSet { rebuildTable() } }

    // Per byte: 0 copy, 1 escape, 2 space as '+', 3 '%' that may start a kept escape.
    private var table: [UInt8] = []

    /// Creates an encoder.
    /// - Parameters:
    ///   - allowed: bytes copied as they are (default RFC 3986 unreserved).
    ///   - space: how a space that is not allowed is written (default `%20`).
    ///   - hexCase: upper (default) or lower case hex digits.
    ///   - keepsValidEscapes: keep existing `%XX` escapes instead of encoding their `%`.
    public init(allowed: AllowedSet = .unreserved, space: Space = .percent, hexCase: HexCase = .upper,
                keepsValidEscapes: Bool = false) {
        self.allowed = allowed
        self.space = space
        self.hexCase = hexCase
        self.keepsValidEscapes = keepsValidEscapes
        rebuildTable()
    }

    /// RFC 3986: unreserved bytes only, space as `%20`.
    public static let rfc3986 = PercentEncoder()
    /// AFNetworking's `AFPercentEscapedStringFromString`.
    public static let afnetworking = PercentEncoder(allowed: .afnetworking)
    /// WHATWG application/x-www-form-urlencoded: `*-._` and alphanumerics, space as `+`.
    public static let form = PercentEncoder(allowed: .form, space: .plus)

    public static func == (lhs: PercentEncoder, rhs: PercentEncoder) -> Bool {
        lhs.allowed == rhs.allowed && lhs.space == rhs.space && lhs.hexCase == rhs.hexCase
            && lhs.keepsValidEscapes == rhs.keepsValidEscapes
    }

    private mutating func rebuildTable() {
        var table = [UInt8](repeating: 1, count: 256)
        for byte in 0..<128 where allowed.contains(UInt8(byte)) { table[byte] = 0 }
        if space == .plus {
            if !allowed.contains(0x20) { table[0x20] = 2 }
            // A literal '+' would read back as a space, so it is always escaped here.
            table[0x2B] = 1
        }
        if keepsValidEscapes && !allowed.contains(0x25) { table[0x25] = 3 }
        self.table = table
    }

    /// Encodes the UTF-8 form of `string`.
    public func encode(_ string: String) -> String {
        var utf8 = string
        return utf8.withUTF8 { input in
            let (count, unchanged) = measure(input)
            if unchanged { return string }
            return String(unsafeUninitializedCapacity: count) { output in
                fill(output.baseAddress!, from: input)
            }
        }
    }

    /// Encodes bytes exactly as given.
    public func encode(bytes input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let count = encodedCount(input)
        return [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            initialized = count == 0 ? 0 : fill(output.baseAddress!, from: input)
        }
    }

    /// Encodes bytes exactly as given.
    public func encode<Bytes: Collection>(bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ encode(bytes: $0) }) { return result }
        return Array(bytes).withUnsafeBufferPointer { encode(bytes: $0) }
    }

    /// The length of the encoded form of `input`, in bytes.
    public func encodedCount(_ input: UnsafeBufferPointer<UInt8>) -> Int { measure(input).count }

    // The output length, and whether the output is the input unchanged (no byte rewritten).
    private func measure(_ input: UnsafeBufferPointer<UInt8>) -> (count: Int, unchanged: Bool) {
        guard let base = input.baseAddress else { return (0, true) }
        return table.withUnsafeBufferPointer { table in
            let n = input.count
            var extra = 0, rewritten = 0
            var i = 0
            while i < n {
                switch table[Int(base[i])] {
                case 0: break
                case 1: extra &+= 2
                case 2: rewritten &+= 1
                default: if !Self.startsEscape(base, i, n) { extra &+= 2 }
                }
                i &+= 1
            }
            return (n &+ extra, extra == 0 && rewritten == 0)
        }
    }

    // Writes the encoded bytes and returns how many it wrote; `output` has room for `encodedCount`.
    @discardableResult
    private func fill(_ output: UnsafeMutablePointer<UInt8>, from input: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = input.baseAddress else { return 0 }
        let digits = hexCase == .upper ? Self.upperDigits : Self.lowerDigits
        return table.withUnsafeBufferPointer { table in
            let n = input.count
            var i = 0, o = 0
            while i < n {
                // Copy the whole run of allowed bytes at once.
                var end = i
                while end < n && table[Int(base[end])] == 0 { end &+= 1 }
                if end > i {
                    (output + o).update(from: base + i, count: end &- i)
                    o &+= end &- i
                    i = end
                    if i == n { break }
                }
                let byte = base[i]
                switch table[Int(byte)] {
                case 2:
                    output[o] = 0x2B; o &+= 1
                case 3 where Self.startsEscape(base, i, n):
                    output[o] = byte; o &+= 1
                default:
                    output[o] = 0x25
                    output[o &+ 1] = digits[Int(byte >> 4)]
                    output[o &+ 2] = digits[Int(byte & 0x0F)]
                    o &+= 3
                }
                i &+= 1
            }
            return o
        }
    }

    @inline(__always)
    private static func startsEscape(_ base: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        i &+ 2 < n && HexDigit.value(base[i &+ 1]) != nil && HexDigit.value(base[i &+ 2]) != nil
    }

    private static let upperDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
    private static let lowerDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

/// Hex digit values for escapes.
enum HexDigit {
    @inline(__always)
    static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte &- 0x30
        case 0x41...0x46: return byte &- 0x37
        case 0x61...0x66: return byte &- 0x57
        default: return nil
        }
    }
}
