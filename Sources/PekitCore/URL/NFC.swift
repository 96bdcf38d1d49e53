/// Unicode Normalization Form C (UAX #15) over code points, from the Unicode 16.0.0 data of
/// UTS46Tables: full canonical decomposition, canonical ordering, then canonical composition,
/// with Hangul done by arithmetic. What UTS #46 needs of normalization, without ICU.
enum NFC {
    private static let sBase: UInt32 = 0xAC00, lBase: UInt32 = 0x1100, vBase: UInt32 = 0x1161, tBase: UInt32 = 0x11A7
    private static let lCount: UInt32 = 19, vCount: UInt32 = 21, tCount: UInt32 = 28, sCount: UInt32 = 11172

    /// Whether `scalars` is NFC by the quick test: every code point stable (see
    /// `UTS46Tables.isNFCStable`). False says only that `normalize` must look.
    static func isNormalized(_ scalars: [UInt32], tables: UTS46Tables = .shared) -> Bool {
        scalars.allSatisfy { tables.isNFCStable($0) }
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
        // Canonical ordering: each run of non-starters sorted (stably) by combining class.
        let looked = decomposed.map { tables.compositionClass($0) }
        var classes = looked.map(\.ccc)
        var composes = looked.map(\.composes)
        var i = 0
        while i < decomposed.count {
            guard classes[i] != 0 else { i += 1; continue }
            var end = i
            while end < decomposed.count && classes[end] != 0 { end += 1 }
            if end - i > 1 {
                let run = (i..<end).map { (decomposed[$0], classes[$0]) }.enumerated()
                    .sorted { $0.element.1 != $1.element.1 ? $0.element.1 < $1.element.1 : $0.offset < $1.offset }
                let flags = (i..<end).map { composes[$0] }
                for (k, item) in run.enumerated() {
                    decomposed[i + k] = item.element.0
                    classes[i + k] = item.element.1
                    composes[i + k] = flags[item.offset]
                }
            }
            i = end
        }
        // Canonical composition: a character joins the last starter unless something between
        // them blocks it (a starter, or a mark of the same or a higher class).
        var out: [UInt32] = []
        out.reserveCapacity(decomposed.count)
        var starter = -1
        var lastClass: Int = -1  // of the last character after the starter; -1 when there is none
        for index in decomposed.indices {
            let c = decomposed[index], cc = classes[index]
            // Only a code point that is the second of some composite is looked up.
            if composes[index] && starter >= 0 && (lastClass == -1 || (lastClass != 0 && lastClass < Int(cc))) {
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
