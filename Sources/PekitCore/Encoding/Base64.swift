/// Base64 and base64url (RFC 4648 §4 and §5). Encoding pads standard base64 and leaves base64url
/// unpadded (as JWT and most URL uses want); decoding is strict: only the alphabet, padding only
/// at the end and only as much as the length needs (optional for base64url), and no stray bits.
public enum Base64 {
    /// The two alphabets of RFC 4648.
    public enum Alphabet: Sendable {
        /// `A–Z a–z 0–9 + /`, padded with `=`.
        case standard
        /// `A–Z a–z 0–9 - _`, without padding.
        case url
    }

    /// Why text is not base64: what, and the 1-based byte offset.
    public struct DecodingError: Error, Equatable, CustomStringConvertible {
        /// Where, as a 1-based byte offset.
        public let offset: Int
        /// What is wrong there.
        public let reason: String
        public var description: String { "invalid base64 at byte \(offset): \(reason)" }
    }

    static let standardTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let urlTable = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64 with padding, as text (Basic authentication, PEM bodies).
    public static func encode(_ bytes: [UInt8]) -> String { String(decoding: encode(bytes, alphabet: .standard), as: UTF8.self) }

    /// The encoding of `bytes`. O(n).
    public static func encode(_ bytes: [UInt8], alphabet: Alphabet) -> [UInt8] {
        let table = alphabet == .standard ? standardTable : urlTable
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(table[Int(b0 >> 2)])
            out.append(table[Int((b0 & 3) << 4 | b1 >> 4)])
            if i + 1 < bytes.count { out.append(table[Int((b1 & 15) << 2 | b2 >> 6)]) } else if alphabet == .standard { out.append(0x3D) }
            if i + 2 < bytes.count { out.append(table[Int(b2 & 63)]) } else if alphabet == .standard { out.append(0x3D) }
            i += 3
        }
        return out
    }

    /// The bytes `text` encodes. O(n).
    /// - Throws: `DecodingError` naming the first offending byte.
    public static func decode(_ text: [UInt8], alphabet: Alphabet) throws -> [UInt8] {
        let table = alphabet == .standard ? standardTable : urlTable
        var value = [Int8](repeating: -1, count: 256)
        for (i, c) in table.enumerated() { value[Int(c)] = Int8(i) }
        var end = text.count
        var padding = 0
        while end > 0, text[end - 1] == 0x3D { end -= 1; padding += 1 }
        var out: [UInt8] = []
        out.reserveCapacity(end * 3 / 4)
        var buffer = 0, bits = 0
        for i in 0..<end {
            let v = value[Int(text[i])]
            guard v >= 0 else {
                let shown = text[i] >= 0x21 && text[i] < 0x7F ? "\"\(Character(Unicode.Scalar(text[i])))\"" : "byte 0x" + ASCII.hex(text[i])
                throw DecodingError(offset: i + 1, reason: text[i] == 0x3D ? "padding before the end" : "\(shown) is not in the \(alphabet == .standard ? "base64" : "base64url") alphabet")
            }
            buffer = buffer << 6 | Int(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> bits))
                buffer &= (1 << bits) - 1
            }
        }
        let remainder = end % 4
        if remainder == 1 { throw DecodingError(offset: end, reason: "a single character cannot end the input (truncated?)") }
        if buffer != 0 { throw DecodingError(offset: end, reason: "the last character has bits set that encode nothing (not canonical)") }
        let needed = remainder == 0 ? 0 : 4 - remainder
        if padding > 0 && padding != needed {
            throw DecodingError(offset: end + 1, reason: "\(padding) padding character\(padding == 1 ? "" : "s") where \(needed) belong")
        }
        if alphabet == .standard && padding != needed {
            throw DecodingError(offset: text.count, reason: "the input ends without its \(needed) padding character\(needed == 1 ? "" : "s") (\"=\")")
        }
        return out
    }
}

/// Hex (RFC 4648 §8, base16): lower case out, either case in.
public enum Hex {
    /// The bytes as lower-case hex digits, two per byte.
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return out
    }

    /// - Throws: `Base64.DecodingError`-shaped `DecodingError` naming the offset.
    public static func decode(_ text: [UInt8]) throws -> [UInt8] {
        guard text.count % 2 == 0 else { throw DecodingError(offset: text.count, reason: "an odd number of hex digits") }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 2)
        var i = 0
        while i < text.count {
            guard let hi = hexDigit(text[i]) else { throw DecodingError(offset: i + 1, reason: describe(text[i])) }
            guard let lo = hexDigit(text[i + 1]) else { throw DecodingError(offset: i + 2, reason: describe(text[i + 1])) }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    /// Why text is not hex: what, and the 1-based byte offset.
    public struct DecodingError: Error, Equatable, CustomStringConvertible {
        /// Where, as a 1-based byte offset.
        public let offset: Int
        /// What is wrong there.
        public let reason: String
        public var description: String { "invalid hex at byte \(offset): \(reason)" }
    }

    static func describe(_ b: UInt8) -> String {
        b >= 0x21 && b < 0x7F ? "\"\(Character(Unicode.Scalar(b)))\" is not a hex digit" : "byte 0x\(ASCII.hex(b)) is not a hex digit"
    }

    static func hexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x37
        case 0x61...0x66: return b - 0x57
        default: return nil
        }
    }
}
