/// The Unicode 17.0.0 data of UTS #46 processing (IDNA+MappingData.swift, IDNA+PropertyData.swift,
/// NFC+Decompositions.swift and NFC+Compositions.swift, written by scripts/idna-tables),
/// read from its text once, on the first name that needs it: the IDNA mapping, each code
/// point's Bidi_Class, Joining_Type, mark-ness and combining class, and NFC's decompositions and
/// compositions. Lookups index a table for the Basic Multilingual Plane, and search range starts
/// above it. The one instance, `shared`, keeps its tables for the life of the process in buffers
/// it never frees, so that passing it along or reading it costs no reference counting and no
/// bounds checks: every index into them is one `init` has made valid.
struct UTS46Tables: @unchecked Sendable {  // written only in init, read by any thread after
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

    private let mappingStarts: UnsafeBufferPointer<UInt32>
    // Per range: status in the low 2 bits, then the mapping's offset in `pool` (<< 2) and its
    // length (<< 24).
    private let mappingInfo: UnsafeBufferPointer<UInt32>
    private let pool: UnsafeBufferPointer<UInt32>
    private let propertyStarts: UnsafeBufferPointer<UInt32>
    private let propertyValues: UnsafeBufferPointer<UInt32>
    // For the Basic Multilingual Plane, each code point's range in either table, found once here,
    // so that a lookup is an index and not a search (2 × 128 KB).
    private let bmpMapping: UnsafeBufferPointer<UInt16>
    private let bmpProperty: UnsafeBufferPointer<UInt16>
    // NFC's data as open-addressed hash tables, a slot a key (0 when empty: no code point 0
    // pair or decomposition exists), probed linearly from a multiplicative hash: a lookup is a few
    // instructions where a Dictionary hashes with SipHash. A decomposition is `length | offset << 3`
    // in `decompositionPool`.
    private let decompositionKeys: UnsafeBufferPointer<UInt32>
    private let decompositionValues: UnsafeBufferPointer<UInt32>
    private let decompositionPool: UnsafeBufferPointer<UInt32>
    private let compositionKeys: UnsafeBufferPointer<UInt64>
    private let compositionValues: UnsafeBufferPointer<UInt32>
    /// The most code points one code point's full canonical decomposition has (Hangul's 3 included).
    let longestDecomposition: Int
    /// The most code points a mapping writes for each byte of its code point's UTF-8 (U+FDFA's
    /// 18 for 3 bytes): what room mapping a name takes.
    let longestMappingPerByte: Int

    static let shared = UTS46Tables()

    private init() {
        var mappingStarts: [UInt32] = [], mappingInfo: [UInt32] = [], pool: [UInt32] = []
        var longestMappingPerByte = 1
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
            if status == .mapped {
                let bytes = start < 0x80 ? 1 : start < 0x800 ? 2 : start < 0x10000 ? 3 : 4
                longestMappingPerByte = max(longestMappingPerByte, (pool.count - Int(offset) + bytes - 1) / bytes)
            }
            mappingStarts.append(start)
            mappingInfo.append(UInt32(status.rawValue) | offset << 2 | UInt32(pool.count - Int(offset)) << 24)
        }
        var propertyStarts: [UInt32] = [], propertyValues: [UInt32] = []
        for line in Self.propertyText.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let start = UInt32(fields[0], radix: 16), let value = UInt32(fields[1], radix: 16) else { continue }
            propertyStarts.append(start)
            propertyValues.append(value)
        }
        let decompositionLines = Self.decompositionText.split(separator: "\n")
        var decompositionKeys = [UInt32](repeating: 0, count: Self.slots(for: decompositionLines.count))
        var decompositionValues = decompositionKeys, decompositionPool: [UInt32] = []
        var longestDecomposition = 3
        for line in decompositionLines {
            let fields = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            guard fields.count >= 2, fields[0] != 0, fields.count - 1 < 8 else { continue }
            let slot = decompositionKeys.withUnsafeBufferPointer { Self.probe(fields[0], $0).slot }
            decompositionKeys[slot] = fields[0]
            decompositionValues[slot] = UInt32(fields.count - 1) | UInt32(decompositionPool.count) << 3
            decompositionPool += fields.dropFirst()
            longestDecomposition = max(longestDecomposition, fields.count - 1)
        }
        let compositionLines = Self.compositionText.split(separator: "\n")
        var compositionKeys = [UInt64](repeating: 0, count: Self.slots(for: compositionLines.count))
        var compositionValues = [UInt32](repeating: 0, count: compositionKeys.count)
        for line in compositionLines {
            let fields = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            guard fields.count == 3 else { continue }
            let key = UInt64(fields[0]) << 32 | UInt64(fields[1])
            let slot = compositionKeys.withUnsafeBufferPointer { Self.probe(key, $0).slot }
            compositionKeys[slot] = key
            compositionValues[slot] = fields[2]
        }
        self.mappingStarts = Self.kept(mappingStarts)
        self.mappingInfo = Self.kept(mappingInfo)
        self.pool = Self.kept(pool)
        self.propertyStarts = Self.kept(propertyStarts)
        self.propertyValues = Self.kept(propertyValues)
        bmpMapping = Self.kept(Self.index(mappingStarts))
        bmpProperty = Self.kept(Self.index(propertyStarts))
        self.decompositionKeys = Self.kept(decompositionKeys)
        self.decompositionValues = Self.kept(decompositionValues)
        self.decompositionPool = Self.kept(decompositionPool)
        self.compositionKeys = Self.kept(compositionKeys)
        self.compositionValues = Self.kept(compositionValues)
        self.longestDecomposition = longestDecomposition
        self.longestMappingPerByte = longestMappingPerByte
    }

    // `array` copied to memory that lives as long as the process.
    private static func kept<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
        let memory = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
        _ = memory.initialize(from: array)
        return UnsafeBufferPointer(rebasing: memory[..<array.count])
    }

    // A power of two at least twice `count`: probes stay short.
    private static func slots(for count: Int) -> Int {
        var slots = 16
        while slots < count * 2 { slots <<= 1 }
        return slots
    }

    // The slot of `key` (not 0) in an open-addressed table of `keys` (a power of two of them,
    // 0 for an empty slot): where it is, found, or the empty slot it would take. Probing starts
    // at a Fibonacci hash and goes on linearly; `slots(for:)` keeps a table at most half full.
    @inline(__always) private static func probe<Key: FixedWidthInteger>(_ key: Key, _ keys: UnsafeBufferPointer<Key>) -> (slot: Int, found: Bool) {
        var slot = Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15) >> 40) & (keys.count - 1)
        while true {
            let here = keys[slot]
            if here == key { return (slot, true) }
            if here == 0 { return (slot, false) }
            slot = (slot + 1) & (keys.count - 1)
        }
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
    private static func range(_ starts: UnsafeBufferPointer<UInt32>, _ scalar: UInt32) -> Int {
        var low = 0, high = starts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if starts[mid] <= scalar { low = mid } else { high = mid }
        }
        return low
    }

    @inline(__always) private func info(_ scalar: UInt32) -> UInt32 {
        mappingInfo[Int(scalar) < bmpMapping.count ? Int(bmpMapping[Int(scalar)]) : Self.range(mappingStarts, scalar)]
    }

    /// The status of `scalar`.
    func status(_ scalar: UInt32) -> Status { Status(rawValue: UInt8(info(scalar) & 3)) ?? .disallowed }

    /// The status of `scalar`, with what processing makes of it written into `out` at `count`,
    /// which moves past it: itself when it is valid or disallowed, its mapping when mapped,
    /// nothing when ignored. One lookup. `out` has room for `longestMappingPerByte` code points
    /// for each byte of the UTF-8 read so far, which a mapping never outgrows; nil, with nothing
    /// written, should it have no room.
    @inline(__always) func map(_ scalar: UInt32, into out: UnsafeMutableBufferPointer<UInt32>, at count: inout Int) -> Status? {
        let info = info(scalar)
        let status = Status(rawValue: UInt8(info & 3)) ?? .disallowed
        switch status {
        case .valid, .disallowed:
            guard count < out.count else { return nil }
            out[count] = scalar
            count += 1
        case .ignored: break
        case .mapped:
            let offset = Int(info >> 2 & 0x3F_FFFF), length = Int(info >> 24)
            guard count + length <= out.count else { return nil }
            for k in 0..<length { out[count + k] = pool[offset + k] }
            count += length
        }
        return status
    }

    /// Every property of `scalar` at once, packed as the generator writes them: Bidi_Class
    /// (`Bidi(_:)` reads it), Joining_Type, mark, combining class, decomposes, composes.
    @inline(__always) func properties(_ scalar: UInt32) -> UInt32 {
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
    /// its code points, empty when it has none.
    @inline(__always) func decomposition(_ scalar: UInt32) -> Slice<UnsafeBufferPointer<UInt32>> {
        guard scalar >= 0xC0 else { return decompositionPool[0..<0] }
        let (slot, found) = Self.probe(scalar, decompositionKeys)
        guard found else { return decompositionPool[0..<0] }
        let value = decompositionValues[slot]
        return decompositionPool[Int(value >> 3)..<Int(value >> 3) + Int(value & 7)]
    }

    /// The primary composite of a pair, if there is one (Hangul aside).
    @inline(__always) func composite(_ first: UInt32, _ second: UInt32) -> UInt32? {
        let (slot, found) = Self.probe(UInt64(first) << 32 | UInt64(second), compositionKeys)
        return found ? compositionValues[slot] : nil
    }
}
