/// Finding a byte with memchr: Set-Cookie values, response lines and header fields are searched
/// per cookie and per line, where a generic `firstIndex(of:)` over a slice cost far more.
package enum ByteSearch {
    /// The index of the first `byte` in `bytes[start..<end]` (to the end when `end` is nil), or nil.
    @inline(__always)
    package static func first(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int? = nil) -> Int? {
        let limit = end ?? bytes.count
        guard start < limit, let base = bytes.baseAddress, let hit = CLibrary.find(byte, in: base + start, count: limit - start) else { return nil }
        return base.distance(to: hit)
    }

    /// The index of the first occurrence of `needle` in `bytes`, or nil (an empty needle is not
    /// found): memchr for its first byte, then a comparison.
    package static func first(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let head = needle.first, needle.count <= bytes.count else { return nil }
        let last = bytes.count - needle.count
        return bytes.withUnsafeBytes { raw in
            var from = 0
            while from <= last, let at = first(head, in: raw, from: from, to: last + 1) {
                if raw[at..<(at + needle.count)].elementsEqual(needle) { return at }
                from = at + 1
            }
            return nil
        }
    }

    /// How many leading bytes `a` and `b` share: eight compared at a time, then the first
    /// differing byte found from the lowest set bit of their XOR. O(n).
    package static func commonPrefixLength(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(a.count, b.count)
        guard n > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return 0 }
        let ra = UnsafeRawPointer(pa), rb = UnsafeRawPointer(pb)
        var i = 0
        while i &+ 8 <= n {
            let x = ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if x != 0 { return i &+ UInt64(littleEndian: x).trailingZeroBitCount / 8 }
            i &+= 8
        }
        while i < n, pa[i] == pb[i] { i &+= 1 }
        return i
    }
}
