/// FNV-1a (64 bits): a cheap hash of bytes, for the tables that compare every hit against the
/// bytes themselves (the public suffix list, a cookie file's index), so a collision costs a
/// comparison, never a wrong answer. Unlike `Hasher` it is the same in every process.
enum FNV1a {
    static let basis: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always) static func add(_ byte: UInt8, to h: UInt64) -> UInt64 { (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }

    /// `h` continued over the bytes, first to last.
    static func add(_ bytes: UnsafeBufferPointer<UInt8>, to h: UInt64) -> UInt64 {
        var h = h
        for b in bytes { h = add(b, to: h) }
        return h
    }

    /// `h` continued over the bytes, last to first: a host's tails hashed from its end, each
    /// longer tail continuing the shorter one's.
    static func addReversed(_ bytes: UnsafeBufferPointer<UInt8>, to h: UInt64) -> UInt64 {
        var h = h, i = bytes.count
        while i > 0 { i -= 1; h = add(bytes[i], to: h) }
        return h
    }
}
