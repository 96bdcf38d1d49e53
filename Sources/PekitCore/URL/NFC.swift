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

    /// `scalars` in NFC.
    static func normalize(_ scalars: [UInt32], tables: UTS46Tables = .shared) -> [UInt32] {
        if isNormalized(scalars, tables: tables) { return scalars }
        var decomposed: [UInt32] = []
        decomposed.reserveCapacity(scalars.count + 4)
        for c in scalars {
            if c >= sBase && c < sBase + sCount {
                let index = c - sBase
                decomposed.append(lBase + index / (vCount * tCount))
                decomposed.append(vBase + index % (vCount * tCount) / tCount)
                if index % tCount != 0 { decomposed.append(tBase + index % tCount) }
            } else if let parts = tables.decomposition(c) {
                decomposed += parts
            } else {
                decomposed.append(c)
            }
        }
        // Canonical ordering: a non-starter moves back past each non-starter of a higher class
        // (an insertion sort, stable, within each run of non-starters).
        var marks = decomposed.map { c -> (scalar: UInt32, ccc: UInt32, composes: Bool) in
            let looked = tables.compositionClass(c)
            return (c, looked.ccc, looked.composes)
        }
        for j in marks.indices where marks[j].ccc != 0 {
            var k = j
            while k > 0 && marks[k - 1].ccc > marks[k].ccc {
                marks.swapAt(k - 1, k)
                k -= 1
            }
        }
        // Canonical composition: a character joins the last starter unless something between
        // them blocks it (a starter, or a mark of the same or a higher class).
        var out: [UInt32] = []
        out.reserveCapacity(marks.count)
        var starter = -1
        var lastClass: Int = -1  // of the last character after the starter; -1 when there is none
        for (c, cc, composes) in marks {
            // Only a code point that is the second of some composite is looked up.
            if composes && starter >= 0 && (lastClass == -1 || (lastClass != 0 && lastClass < Int(cc))) {
                if let composed = compose(out[starter], c, tables) {
                    out[starter] = composed
                    continue
                }
            }
            if cc == 0 {
                starter = out.count
                lastClass = -1
            } else {
                lastClass = Int(cc)
            }
            out.append(c)
        }
        return out
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
