/// ECMAScript's `decodeURIComponent` (ECMA-262 §19.2.6.5 Decode with an empty reserved set):
/// every `%XX` is decoded, and the escapes of one character must be exactly its UTF-8 bytes;
/// anything else throws `URIError`. qs and node's querystring rely on the throw to fall back.
enum JSURIDecoding {
    struct URIError: Error {}

    /// `decodeURIComponent` on UTF-8 text: the same bytes out, escapes decoded; `plusAsSpace`
    /// first turns `+` into a space (qs's `utils.decode`). O(n), one allocation.
    static func decodeURIComponent<Bytes: RandomAccessCollection>(_ s: Bytes, plusAsSpace: Bool = false) throws -> [UInt8] where Bytes.Element == UInt8, Bytes.Index == Int {
        let result = s.withContiguousStorageIfAvailable { decoded($0, plusAsSpace: plusAsSpace) }
            ?? Array(s).withUnsafeBufferPointer { decoded($0, plusAsSpace: plusAsSpace) }
        guard let result else { throw URIError() }
        return result
    }

    /// `decodeURIComponent` in one allocation; nil where it would throw.
    static func decoded(_ s: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> [UInt8]? {
        var ok = true
        let out = [UInt8](unsafeUninitializedCapacity: s.count) { buffer, written in
            if let n = decode(s, plusAsSpace: plusAsSpace, into: buffer.baseAddress!) { written = n } else { ok = false; written = 0 }
        }
        return ok ? out : nil
    }

    /// Writes the decoded bytes to `out` (room for `s.count`); their count, or nil where it would throw.
    static func decode(_ s: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        var k = 0, w = 0
        let end = s.count
        @inline(__always) func escaped(_ at: Int) -> UInt8? {
            guard at + 2 < end, s[at] == 0x25, let hi = hexValue(s[at + 1]), let lo = hexValue(s[at + 2]) else { return nil }
            return hi << 4 | lo
        }
        while k < end {
            let c = s[k]
            if c != 0x25 { out[w] = plusAsSpace && c == 0x2B ? 0x20 : c; w += 1; k += 1; continue }
            guard let b = escaped(k) else { return nil }
            k += 3
            if b < 0x80 { out[w] = b; w += 1; continue }
            // The lead byte says how many escapes follow; the bytes must be one valid character.
            guard let (n, lower, upper) = UTF8Decoding.lead(b) else { return nil }
            out[w] = b; w += 1
            for m in 1..<n {
                guard let next = escaped(k), m == 1 ? (next >= lower && next <= upper) : (next & 0xC0 == 0x80) else { return nil }
                out[w] = next; w += 1
                k += 3
            }
        }
        return w
    }

    /// `decodeURIComponent` on UTF-16 code units.
    static func decodeURIComponent(_ s: [UInt16]) throws -> [UInt16] {
        guard s.contains(0x25) else { return s }
        let bytes = Array(String(decoding: s, as: UTF16.self).utf8)
        return Array(String(decoding: try decodeURIComponent(bytes), as: UTF8.self).utf16)
    }
}
