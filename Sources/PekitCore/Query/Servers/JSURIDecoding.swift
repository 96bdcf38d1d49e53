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
            written = 0
            guard let base = buffer.baseAddress else { return }
            if let n = decode(s, plusAsSpace: plusAsSpace, into: base) { written = n } else { ok = false }
        }
        return ok ? out : nil
    }

    /// Writes the decoded bytes to `out` (room for `s.count`); their count, or nil where it would throw.
    /// A run of plain bytes is copied whole; an escape's digits are read from a table (a query
    /// parser decodes every key and value: this loop was a ninth of parsing qs's way).
    static func decode(_ s: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard let src = s.baseAddress else { return 0 }
        let end = s.count
        let digits = HexDigit.table
        var k = 0, w = 0
        // Two hex digits at `at` as a byte; nil when either is not one (or the input ends).
        @inline(__always) func escaped(_ at: Int) -> UInt8? {
            guard at &+ 2 < end else { return nil }
            let hi = digits[Int(src[at &+ 1])], lo = digits[Int(src[at &+ 2])]
            return (hi | lo) < 16 ? hi << 4 | lo : nil
        }
        while k < end {
            var c = src[k]
            if c != 0x25 {
                // Eight bytes at a time while none is a `%` (or a `+` to turn into a space): the
                // SWAR zero-byte test. The output is never ahead of the input, so a word stored
                // at w fits where one was read at k.
                while k &+ 8 <= end {
                    let word = UInt64(littleEndian: UnsafeRawPointer(src + k).loadUnaligned(as: UInt64.self))
                    var x = word ^ 0x2525_2525_2525_2525
                    var special = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                    if plusAsSpace {
                        x = word ^ 0x2B2B_2B2B_2B2B_2B2B
                        special |= (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                    }
                    UnsafeMutableRawPointer(out + w).storeBytes(of: word.littleEndian, as: UInt64.self)
                    // The lowest flag is the first special byte (higher ones may be borrows).
                    let plain = special == 0 ? 8 : special.trailingZeroBitCount >> 3
                    k &+= plain; w &+= plain
                    if plain < 8 { break }
                }
                if k == end { return w }
                c = src[k]
                // The rest of the run, a byte at a time with no other test in the loop.
                if c != 0x25 && plusAsSpace {
                    repeat {
                        out[w] = c == 0x2B ? 0x20 : c; w &+= 1; k &+= 1
                        if k == end { return w }
                        c = src[k]
                    } while c != 0x25
                } else if c != 0x25 {
                    repeat {
                        out[w] = c; w &+= 1; k &+= 1
                        if k == end { return w }
                        c = src[k]
                    } while c != 0x25
                }
            }
            guard let b = escaped(k) else { return nil }  // src[k] is a '%'
            k &+= 3
            if b < 0x80 { out[w] = b; w &+= 1; continue }
            // The lead byte says how many escapes follow; the bytes must be one valid character.
            guard let (n, lower, upper) = UTF8Decoding.lead(b), k &+ 3 &* (n &- 1) <= end else { return nil }
            // The room for all of them is checked: each is a `%` and two digits, read unchecked.
            @inline(__always) func continuation(_ at: Int) -> UInt8? {
                guard src[at] == 0x25 else { return nil }
                let hi = digits[Int(src[at &+ 1])], lo = digits[Int(src[at &+ 2])]
                return (hi | lo) < 16 ? hi << 4 | lo : nil
            }
            guard let second = continuation(k), second >= lower, second <= upper else { return nil }
            out[w] = b; out[w &+ 1] = second; w &+= 2; k &+= 3
            if n >= 3 {
                guard let third = continuation(k), third & 0xC0 == 0x80 else { return nil }
                out[w] = third; w &+= 1; k &+= 3
                if n == 4 {
                    guard let fourth = continuation(k), fourth & 0xC0 == 0x80 else { return nil }
                    out[w] = fourth; w &+= 1; k &+= 3
                }
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
