/// Unicode Normalization Form C (UAX #15) over code points, from the Unicode 17.0.0 data of
/// UTS46Tables: full canonical decomposition, canonical ordering, then canonical composition,
/// with Hangul done by arithmetic. What UTS #46 needs of normalization, without ICU.
enum NFC {
    private static let sBase: UInt32 = 0xAC00, lBase: UInt32 = 0x1100, vBase: UInt32 = 0x1161, tBase: UInt32 = 0x11A7
    private static let lCount: UInt32 = 19, vCount: UInt32 = 21, tCount: UInt32 = 28, sCount: UInt32 = 11172

    /// Whether `scalars` is NFC by UAX #15's quick check (`UTS46Tables.passesNFCQuickCheck`).
    /// False says only that `normalize` must look.
    static func isNormalized<S: Sequence>(_ scalars: S, tables: UTS46Tables = .shared) -> Bool where S.Element == UInt32 {
        var lastClass: UInt32 = 0
        for c in scalars where !UTS46Tables.passesNFCQuickCheck(c, c < 0xC0 ? 0 : tables.properties(c), lastClass: &lastClass) { return false }
        return true
    }

    /// Whether `scalars` is NFC: the quick check, or else a comparison with its NFC.
    static func isNFC(_ scalars: UnsafeBufferPointer<UInt32>, tables: UTS46Tables = .shared) -> Bool {
        if isNormalized(scalars, tables: tables) { return true }
        return withScratch(of: UInt32.self, count: capacity(for: scalars.count, tables: tables)) { out in
            let count = normalize(scalars, into: out, tables: tables)
            return UnsafeBufferPointer(rebasing: out[..<count]).elementsEqual(scalars)
        }
    }

    /// `scalars` in NFC.
    static func normalize(_ scalars: [UInt32], tables: UTS46Tables = .shared) -> [UInt32] {
        if isNormalized(scalars, tables: tables) { return scalars }
        return scalars.withUnsafeBufferPointer { input in
            [UInt32](unsafeUninitializedCapacity: capacity(for: input.count, tables: tables)) { out, count in
                count = normalize(input, into: out, tables: tables)
            }
        }
    }

    /// The room `normalize(_:into:tables:)` needs for `count` code points: each decomposes into at
    /// most `longestDecomposition`, and composing only shortens.
    static func capacity(for count: Int, tables: UTS46Tables = .shared) -> Int { count * tables.longestDecomposition }

    /// Writes `input` in NFC into `out`, which has room for `capacity(for: input.count)` code
    /// points (with less it writes nothing and returns 0), and returns how many it wrote. O(n) but for reordering a run of marks, which is
    /// an insertion sort, as runs are a few marks long.
    static func normalize(_ input: UnsafeBufferPointer<UInt32>, into out: UnsafeMutableBufferPointer<UInt32>, tables: UTS46Tables = .shared) -> Int {
        guard out.count >= capacity(for: input.count, tables: tables) else { return 0 }
        // Full canonical decomposition, each code point stored with its combining class (bits
        // 21–28) and whether it composes with one before it (bit 29), so that ordering and
        // composing need no second lookup. A code point has 21 bits.
        var count = 0
        @inline(__always) func put(_ c: UInt32) {
            let looked = tables.compositionClass(c)
            out[count] = c | looked.ccc << 21 | (looked.composes ? 1 << 29 : 0)
            count += 1
        }
        for c in input {
            if c >= sBase && c < sBase + sCount {
                let index = c - sBase
                put(lBase + index / (vCount * tCount))
                put(vBase + index % (vCount * tCount) / tCount)
                if index % tCount != 0 { put(tBase + index % tCount) }
                continue
            }
            let parts = tables.decomposition(c)
            if parts.isEmpty {
                put(c)
            } else {
                for part in parts { put(part) }
            }
        }
        @inline(__always) func ccc(_ packed: UInt32) -> UInt32 { packed >> 21 & 0xFF }
        // Canonical ordering: a non-starter moves back past each non-starter of a higher class
        // (an insertion sort, stable, within each run of non-starters).
        for j in 0..<count where ccc(out[j]) != 0 {
            var k = j
            while k > 0 && ccc(out[k - 1]) > ccc(out[k]) {
                out.swapAt(k - 1, k)
                k -= 1
            }
        }
        // Canonical composition, in place (what is written never passes what is read): a
        // character joins the last starter unless something between them blocks it (a starter,
        // or a mark of the same or a higher class).
        var written = 0
        var starter = -1
        var lastClass: Int = -1  // of the last character after the starter; -1 when there is none
        for r in 0..<count {
            let packed = out[r], c = packed & 0x1F_FFFF, cc = ccc(packed)
            // Only a code point that is the second of some composite is looked up.
            if packed & 1 << 29 != 0 && starter >= 0 && (lastClass == -1 || (lastClass != 0 && lastClass < Int(cc))) {
                if let composed = compose(out[starter], c, tables) {
                    out[starter] = composed
                    continue
                }
            }
            if cc == 0 {
                starter = written
                lastClass = -1
            } else {
                lastClass = Int(cc)
            }
            out[written] = c
            written += 1
        }
        return written
    }

    private static func compose(_ first: UInt32, _ second: UInt32, _ tables: UTS46Tables) -> UInt32? {
        if first >= lBase && first < lBase + lCount && second >= vBase && second < vBase + vCount {
            return sBase + ((first - lBase) * vCount + (second - vBase)) * tCount
        }
        if first >= sBase && first < sBase + sCount && (first - sBase) % tCount == 0 && second > tBase && second < tBase + tCount {
            return first + (second - tBase)
        }
        return tables.composite(first, second)
    }
}
