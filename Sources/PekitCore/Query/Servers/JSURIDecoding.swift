/// ECMAScript's `decodeURIComponent` (ECMA-262 §19.2.6.5 Decode with an empty reserved set):
/// every `%XX` is decoded, and the escapes of one character must be exactly its UTF-8 bytes;
/// anything else throws `URIError`. qs and node's querystring rely on the throw to fall back.
enum JSURIDecoding {
    struct URIError: Error {}

    /// `decodeURIComponent` on UTF-8 text: the same bytes out, escapes decoded.
    static func decodeURIComponent<Bytes: RandomAccessCollection>(_ s: Bytes) throws -> [UInt8] where Bytes.Element == UInt8, Bytes.Index == Int {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var k = s.startIndex
        let end = s.endIndex
        while k < end {
            let c = s[k]
            guard c == 0x25 else { out.append(c); k += 1; continue }
            let b = try escapedByte(s, at: k)
            k += 3
            if b < 0x80 { out.append(b); continue }
            let n: Int
            switch b {
            case 0xC0...0xDF: n = 2
            case 0xE0...0xEF: n = 3
            case 0xF0...0xF7: n = 4
            default: throw URIError()
            }
            var octets = [b]
            for _ in 1..<n {
                guard k < end, s[k] == 0x25 else { throw URIError() }
                let next = try escapedByte(s, at: k)
                guard next & 0xC0 == 0x80 else { throw URIError() }
                octets.append(next)
                k += 3
            }
            guard UTF8Validation.isValid(octets) else { throw URIError() }
            out += octets
        }
        return out
    }

    /// `decodeURIComponent` on UTF-16 code units.
    static func decodeURIComponent(_ s: [UInt16]) throws -> [UInt16] {
        guard s.contains(0x25) else { return s }
        let bytes = Array(String(decoding: s, as: UTF16.self).utf8)
        return Array(String(decoding: try decodeURIComponent(bytes), as: UTF8.self).utf16)
    }

    @inline(__always)
    private static func escapedByte<Bytes: RandomAccessCollection>(_ s: Bytes, at k: Int) throws -> UInt8 where Bytes.Element == UInt8, Bytes.Index == Int {
        guard k + 2 < s.endIndex, let hi = hexValue(s[k + 1]), let lo = hexValue(s[k + 2]) else { throw URIError() }
        return hi << 4 | lo
    }
}
