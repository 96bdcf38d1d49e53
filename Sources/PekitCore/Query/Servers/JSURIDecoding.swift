/// ECMAScript's `decodeURIComponent` (ECMA-262 §19.2.6.5 Decode with an empty reserved set):
/// every `%XX` is decoded, and the escapes of one character must be exactly its UTF-8 bytes;
/// anything else throws `URIError`. qs and node's querystring rely on the throw to fall back.
enum JSURIDecoding {
    struct URIError: Error {}

    /// `decodeURIComponent` on UTF-8 text: the same bytes out, escapes decoded; `plusAsSpace`
    /// first turns `+` into a space (qs's `utils.decode`). O(n), one allocation.
    static func decodeURIComponent<Bytes: RandomAccessCollection>(_ s: Bytes, plusAsSpace: Bool = false) throws -> [UInt8] where Bytes.Element == UInt8, Bytes.Index == Int {
        if let result = try s.withContiguousStorageIfAvailable({ try decode($0, plusAsSpace: plusAsSpace) }) { return result }
        return try Array(s).withUnsafeBufferPointer { try decode($0, plusAsSpace: plusAsSpace) }
    }

    private static func decode(_ s: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) throws -> [UInt8] {
        var failed = false
        let out = [UInt8](unsafeUninitializedCapacity: s.count) { out, written in
            var k = 0, w = 0
            let end = s.count
            func escaped(_ at: Int) -> UInt8? {
                guard at + 2 < end, s[at] == 0x25, let hi = hexValue(s[at + 1]), let lo = hexValue(s[at + 2]) else { return nil }
                return hi << 4 | lo
            }
            while k < end {
                let c = s[k]
                if c != 0x25 { out[w] = plusAsSpace && c == 0x2B ? 0x20 : c; w += 1; k += 1; continue }
                guard let b = escaped(k) else { failed = true; break }
                k += 3
                if b < 0x80 { out[w] = b; w += 1; continue }
                // The lead byte says how many escapes follow; the bytes must be one valid character.
                var n = 0
                var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
                switch b {
                case 0xC2...0xDF: n = 2
                case 0xE0: n = 3; lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: n = 3
                case 0xED: n = 3; upper = 0x9F
                case 0xF0: n = 4; lower = 0x90
                case 0xF1...0xF3: n = 4
                case 0xF4: n = 4; upper = 0x8F
                default: break
                }
                if n == 0 { failed = true; break }
                out[w] = b; w += 1
                for m in 1..<n {
                    guard let next = escaped(k), m == 1 ? (next >= lower && next <= upper) : (next & 0xC0 == 0x80) else { failed = true; break }
                    out[w] = next; w += 1
                    k += 3
                }
                if failed { break }
            }
            written = w
        }
        if failed { throw URIError() }
        return out
    }

    /// `decodeURIComponent` on UTF-16 code units.
    static func decodeURIComponent(_ s: [UInt16]) throws -> [UInt16] {
        guard s.contains(0x25) else { return s }
        let bytes = Array(String(decoding: s, as: UTF16.self).utf8)
        return Array(String(decoding: try decodeURIComponent(bytes), as: UTF8.self).utf16)
    }
}
