/// Hands back one shared `ByteString` for short byte strings seen again, as orjson's key cache
/// does: a parsed query repeats its keys (`name`, `id`, `tags` under every item) and many of its
/// values, and sharing one buffer costs a retain where a copy costs an allocation now and a free
/// when the result goes.
///
/// Direct-mapped and fixed in size: a slot holds the last string hashed to it, so memory is
/// bounded whatever the input, and input that never repeats costs a hash and a miss per string.
/// Sharing is invisible to callers: `ByteString` is a value type (copy on write).
struct ByteStringCache {
    /// Strings longer than this are copied, never cached: long values rarely repeat.
    static let maximumLength = 24
    private static let slotCount = 1024
    private var slots = [ByteString?](repeating: nil, count: ByteStringCache.slotCount)

    /// A `ByteString` of these bytes: the cached one when the same bytes were cached last in
    /// their slot, otherwise a new one (cached when short). O(n) in the length.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> ByteString {
        guard let base = bytes.baseAddress, bytes.count <= Self.maximumLength else { return ByteString(Array(bytes)) }
        let slot = Self.slot(base, bytes.count)
        if let cached = slots[slot], cached.bytes.withUnsafeBufferPointer({ same in
            same.count == bytes.count && (same.baseAddress.map { CLibrary.equal($0, base, count: same.count) } ?? true)
        }) { return cached }
        let made = ByteString(Array(bytes))
        slots[slot] = made
        return made
    }

    /// The slot of `count` (at most 24) bytes: their first and last eight bytes (overlapping
    /// when short) and the count, mixed by one multiply, where FNV-1a would take one a byte.
    @inline(__always) private static func slot(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let raw = UnsafeRawPointer(base)
        var h = UInt64(truncatingIfNeeded: count)
        if count >= 8 {
            h ^= raw.loadUnaligned(as: UInt64.self) &* 0x9E37_79B9_7F4A_7C15
            h ^= raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            if count > 16 { h ^= raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) &* 0xC2B2_AE3D_27D4_EB4F }
        } else {
            for k in 0..<count { h = h << 8 | UInt64(base[k]) }
        }
        h = (h ^ h >> 29) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: h >> 40) & (slotCount - 1)
    }
}
