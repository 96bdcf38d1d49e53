/// The Unicode 17.0.0 data of UTS #46 processing (IDNA+MappingData.swift, IDNA+PropertyData.swift and
/// NFC+Data.swift, written by scripts/idna-tables),
/// read from its text once, on the first name that needs it: the IDNA mapping, each code
/// point's Bidi_Class, Joining_Type, mark-ness and combining class, and NFC's decompositions and
/// compositions. Lookups index a table for the Basic Multilingual Plane, and search range starts
/// above it. A class, so that passing it along costs one reference, not one for each table.
final class UTS46Tables: @unchecked Sendable {  // written only in init, read by any thread after
    /// A code point's IDNA status (nontransitional: a deviation is valid).
    enum Status: UInt8 { case valid, mapped, ignored, disallowed }

    /// Bidi_Class values in the generator's order.
    enum Bidi: UInt8 {
        case L, R, AL, EN, ES, ET, AN, CS, NSM, BN, B, S, WS, ON, LRE, LRO, RLE, RLO, PDF, LRI, RLI, FSI, PDI

        /// The class within packed `properties` (see `UTS46Tables.properties`).
        @inline(__always) init(_ properties: UInt32) { self = Bidi(rawValue: UInt8(properties & 31)) ?? .L }

        /// R, AL or AN: a label with one makes the name a Bidi domain name (RFC 5893).
        var isRightToLeft: Bool { self == .R || self == .AL || self == .AN }
        /// What RFC 5893's rule 2 allows in a right-to-left label.
        var allowedRightToLeft: Bool {
            switch self {
            case .R, .AL, .AN, .EN, .ES, .CS, .ET, .ON, .BN, .NSM: return true
            default: return false
            }
        }
        /// What rule 5 allows in a left-to-right label.
        var allowedLeftToRight: Bool {
            switch self {
            case .L, .EN, .ES, .CS, .ET, .ON, .BN, .NSM: return true
            default: return false
            }
        }
    }

    /// Joining_Type values in the generator's order.
    enum Joining: UInt8 { case U, L, R, D, T, C }

    @exclusivity(unchecked) private var mappingStarts: [UInt32] = []
    // Per range: status in the low 2 bits, then the mapping's offset in `pool` (<< 2) and its
    // length (<< 24).
    @exclusivity(unchecked) private var mappingInfo: [UInt32] = []
    @exclusivity(unchecked) private var pool: [UInt32] = []
    @exclusivity(unchecked) private var propertyStarts: [UInt32] = []
    @exclusivity(unchecked) private var propertyValues: [UInt32] = []
    // For the Basic Multilingual Plane, each code point's range in either table, found once here,
    // so that a lookup is an index and not a search (2 × 128 KB).
    @exclusivity(unchecked) private var bmpMapping: [UInt16] = []
    @exclusivity(unchecked) private var bmpProperty: [UInt16] = []
    // NFC's data as open-addressed hash tables, a slot a key (0 when empty: no code point 0
    // pair or decomposition exists), probed linearly from a multiplicative hash: a lookup is a few
    // instructions where a Dictionary hashes with SipHash. A decomposition is `length | offset << 3`
    // in `decompositionPool`.
    @exclusivity(unchecked) private var decompositionKeys: [UInt32] = []
    @exclusivity(unchecked) private var decompositionValues: [UInt32] = []
    @exclusivity(unchecked) private var decompositionPool: [UInt32] = []
    @exclusivity(unchecked) private var compositionKeys: [UInt64] = []
    @exclusivity(unchecked) private var compositionValues: [UInt32] = []
    /// The most code points one code point's full canonical decomposition has (Hangul's 3 included).
    private(set) var longestDecomposition = 3

    static let shared = UTS46Tables()

    private init() {
        for line in Self.mappingText.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let start = UInt32(fields[0], radix: 16) else { continue }
            let status: Status
            switch fields[1] {
            case "V", "D": status = .valid
            case "M": status = .mapped
            case "I": status = .ignored
            default: status = .disallowed
            }
            let offset = UInt32(pool.count)
            for field in fields.dropFirst(2) { if let scalar = UInt32(field, radix: 16) { pool.append(scalar) } }
            mappingStarts.append(start)
            mappingInfo.append(UInt32(status.rawValue) | offset << 2 | UInt32(pool.count - Int(offset)) << 24)
        }
        for line in Self.propertyText.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let start = UInt32(fields[0], radix: 16), let value = UInt32(fields[1], radix: 16) else { continue }
            propertyStarts.append(start)
            propertyValues.append(value)
        }
        bmpMapping = Self.index(mappingStarts)
        bmpProperty = Self.index(propertyStarts)
        let decompositionLines = Self.decompositionText.split(separator: "\n")
        decompositionKeys = [UInt32](repeating: 0, count: Self.slots(for: decompositionLines.count))
        decompositionValues = decompositionKeys
        for line in decompositionLines {
            let fields = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            guard fields.count >= 2, fields[0] != 0, fields.count - 1 < 8 else { continue }
            var slot = Self.slot(UInt64(fields[0]), decompositionKeys.count)
            while decompositionKeys[slot] != 0 { slot = (slot + 1) & (decompositionKeys.count - 1) }
            decompositionKeys[slot] = fields[0]
            decompositionValues[slot] = UInt32(fields.count - 1) | UInt32(decompositionPool.count) << 3
            decompositionPool += fields.dropFirst()
            longestDecomposition = max(longestDecomposition, fields.count - 1)
        }
        let compositionLines = Self.compositionText.split(separator: "\n")
        compositionKeys = [UInt64](repeating: 0, count: Self.slots(for: compositionLines.count))
        compositionValues = [UInt32](repeating: 0, count: compositionKeys.count)
        for line in compositionLines {
            let fields = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            guard fields.count == 3 else { continue }
            let key = UInt64(fields[0]) << 32 | UInt64(fields[1])
            var slot = Self.slot(key, compositionKeys.count)
            while compositionKeys[slot] != 0 { slot = (slot + 1) & (compositionKeys.count - 1) }
            compositionKeys[slot] = key
            compositionValues[slot] = fields[2]
        }
    }

    // A power of two at least twice `count`: probes stay short.
    private static func slots(for count: Int) -> Int {
        var slots = 16
        while slots < count * 2 { slots <<= 1 }
        return slots
    }

    // Where probing for `key` starts in a table of `slots` slots (a power of two): Fibonacci hashing.
    @inline(__always) private static func slot(_ key: UInt64, _ slots: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & (slots - 1)
    }

    // For each BMP code point, the index of its range among `starts`.
    private static func index(_ starts: [UInt32]) -> [UInt16] {
        guard starts.count <= Int(UInt16.max) else { return [] }  // then every lookup searches
        var out = [UInt16](repeating: 0, count: 0x10000)
        var range = 0
        for c in 0..<0x10000 {
            while range + 1 < starts.count && starts[range + 1] <= UInt32(c) { range += 1 }
            out[c] = UInt16(range)
        }
        return out
    }

    // The index of the range holding `scalar`: the last start at or below it.
    private static func range(_ starts: [UInt32], _ scalar: UInt32) -> Int {
        var low = 0, high = starts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if starts[mid] <= scalar { low = mid } else { high = mid }
        }
        return low
    }

    private func info(_ scalar: UInt32) -> UInt32 {
        mappingInfo[Int(scalar) < bmpMapping.count ? Int(bmpMapping[Int(scalar)]) : Self.range(mappingStarts, scalar)]
    }

    /// The status of `scalar`.
    func status(_ scalar: UInt32) -> Status { Status(rawValue: UInt8(info(scalar) & 3)) ?? .disallowed }

    /// The status of `scalar`, with what processing makes of it appended to `out`: itself when it
    /// is valid or disallowed, its mapping when mapped, nothing when ignored. One lookup.
    func map(_ scalar: UInt32, into out: inout [UInt32]) -> Status {
        let info = info(scalar)
        let status = Status(rawValue: UInt8(info & 3)) ?? .disallowed
        switch status {
        case .valid, .disallowed: out.append(scalar)
        case .ignored: break
        case .mapped:
            let offset = Int(info >> 2 & 0x3F_FFFF), length = Int(info >> 24)
            pool.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[offset..<(offset + length)])) }
        }
        return status
    }

    /// Every property of `scalar` at once, packed as the generator writes them: Bidi_Class
    /// (`Bidi(_:)` reads it), Joining_Type, mark, combining class, decomposes, composes.
    func properties(_ scalar: UInt32) -> UInt32 {
        propertyValues[Int(scalar) < bmpProperty.count ? Int(bmpProperty[Int(scalar)]) : Self.range(propertyStarts, scalar)]
    }

    func bidi(_ scalar: UInt32) -> Bidi { Bidi(properties(scalar)) }
    func joining(_ scalar: UInt32) -> Joining { Joining(rawValue: UInt8(properties(scalar) >> 5 & 7)) ?? .U }
    func isMark(_ scalar: UInt32) -> Bool { properties(scalar) >> 8 & 1 == 1 }
    func combiningClass(_ scalar: UInt32) -> UInt32 { scalar < 0x300 ? 0 : properties(scalar) >> 9 & 0xFF }
    /// The combining class, and whether the code point composes with one before it, in one lookup.
    func compositionClass(_ scalar: UInt32) -> (ccc: UInt32, composes: Bool) {
        if scalar < 0x300 { return (0, false) }
        let value = properties(scalar)
        return (value >> 9 & 0xFF, value >> 18 & 1 == 1)
    }
    /// UAX #15's quick check for NFC, a code point at a time, given its `properties`: false when
    /// NFC may change the text here (the code point is NFC_QC No or Maybe, or its combining class
    /// is below `lastClass`, that of the one before it, which this updates). True for every code
    /// point of a text means the text is NFC, so most names are checked by this alone.
    @inline(__always) static func passesNFCQuickCheck(_ scalar: UInt32, _ properties: UInt32, lastClass: inout UInt32) -> Bool {
        if scalar < 0xC0 {
            lastClass = 0
            return true
        }
        let ccc = properties >> 9 & 0xFF
        defer { lastClass = ccc }
        return properties & (1 << 17 | 1 << 18) == 0 && (ccc == 0 || ccc >= lastClass)
    }

    /// The full canonical decomposition of a code point that has one (Hangul syllables aside):
    /// its range in `decompositionPool`, which `withDecompositionPool` lends.
    @inline(__always) func decomposition(_ scalar: UInt32) -> Range<Int>? {
        guard scalar >= 0xC0 else { return nil }
        return decompositionKeys.withUnsafeBufferPointer { keys -> Range<Int>? in
            var slot = Self.slot(UInt64(scalar), keys.count)
            while true {
                let key = keys[slot]
                if key == scalar {
                    let value = decompositionValues[slot]
                    return Int(value >> 3)..<Int(value >> 3) + Int(value & 7)
                }
                if key == 0 { return nil }
                slot = (slot + 1) & (keys.count - 1)
            }
        }
    }

    /// The code points of every decomposition, lent to `body`.
    @inline(__always) func withDecompositionPool<R>(_ body: (UnsafeBufferPointer<UInt32>) -> R) -> R {
        decompositionPool.withUnsafeBufferPointer(body)
    }

    /// The primary composite of a pair, if there is one (Hangul aside).
    @inline(__always) func composite(_ first: UInt32, _ second: UInt32) -> UInt32? {
        let wanted = UInt64(first) << 32 | UInt64(second)
        return compositionKeys.withUnsafeBufferPointer { keys -> UInt32? in
            var slot = Self.slot(wanted, keys.count)
            while true {
                let key = keys[slot]
                if key == wanted { return compositionValues[slot] }
                if key == 0 { return nil }
                slot = (slot + 1) & (keys.count - 1)
            }
        }
    }
}
