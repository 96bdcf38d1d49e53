/// Hands back one shared `ByteString` for short byte strings seen again, as orjson's key cache
/// does: a parsed query repeats its keys (`name`, `id`, `tags` under every item) and many of its
/// values, and sharing one buffer costs a retain where a copy costs an allocation now and a free
/// when the result goes.
///
/// Direct-mapped and bounded: a slot holds the last string hashed to it, so memory is at most
/// `maximumSlots` slots whatever the input, and input that never repeats costs a hash and a miss
/// per string. A small parse gets a small cache, or none (its slots would cost more than they save).
/// Sharing is invisible to callers: `ByteString` is a value type (copy on write).
struct ByteStringCache {
    /// Strings longer than this are copied, never cached: long values rarely repeat.
    static let maximumLength = 24
    /// The most slots a cache has (160 KB): 4,096 keep 86% of a 100,000-leaf query's strings
    /// shared, where 1,024 keep 79%.
    static let maximumSlots = 4096
    private let mask: Int

    /// A string of at most 24 bytes, exactly, in three words and its length: under 8 bytes
    /// packed into the first word; otherwise its first 8, last 8 and (past 16) middle 8 bytes,
    /// which overlap and so cover every byte. Equal keys are equal strings: no memcmp.
    private struct Key: Equatable {
        var count = -1, first: UInt64 = 0, last: UInt64 = 0, middle: UInt64 = 0

        init() {}
        init(_ base: UnsafePointer<UInt8>, _ n: Int) {
            count = n
            let raw = UnsafeRawPointer(base)
            if n >= 8 {
                first = raw.loadUnaligned(as: UInt64.self)
                last = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
                if n > 16 { middle = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) }
            } else {
                for k in 0..<n { first = first << 8 | UInt64(base[k]) }
            }
        }

        func slot(_ mask: Int) -> Int {
            var h = UInt64(truncatingIfNeeded: count) ^ first &* 0x9E37_79B9_7F4A_7C15
            h ^= last &* 0xC2B2_AE3D_27D4_EB4F ^ middle
            h = (h ^ h >> 29) &* 0xBF58_476D_1CE4_E5B9
            return Int(truncatingIfNeeded: h >> 40) & mask
        }
    }

    private var keys: [Key]
    private var strings: [ByteString]

    /// A cache for about `expected` strings: a slot for each, as a power of two up to
    /// `maximumSlots`, and none under 64 (every string is then copied).
    init(expected: Int) {
        let slots = expected < 64 ? 0 : min(Self.maximumSlots, 1 << (Int.bitWidth - (expected - 1).leadingZeroBitCount))
        mask = slots - 1
        keys = [Key](repeating: Key(), count: slots)
        strings = [ByteString](repeating: ByteString([]), count: slots)
    }

    /// A `ByteString` of these bytes: the cached one when the same bytes were cached last in
    /// their slot, otherwise a new one (cached when short). O(n) in the length.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> ByteString {
        guard mask >= 0, let base = bytes.baseAddress, bytes.count <= Self.maximumLength else { return ByteString(Array(bytes)) }
        let key = Key(base, bytes.count)
        let slot = key.slot(mask)
        if keys[slot] == key { return strings[slot] }
        let made = ByteString(Array(bytes))
        keys[slot] = key
        strings[slot] = made
        return made
    }
}
