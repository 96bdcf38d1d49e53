/// The Unicode 16.0.0 data of UTS #46 processing (IDNA+Data.swift, written by scripts/idna-tables),
/// read from its text once, on the first name that needs it: the IDNA mapping, each code
/// point's Bidi_Class, Joining_Type, mark-ness and combining class, and NFC's decompositions and
/// compositions. Lookups are binary searches over range starts.
struct UTS46Tables: Sendable {
    /// A code point's IDNA status (nontransitional: a deviation is valid).
    enum Status: UInt8 { case valid, mapped, ignored, disallowed }

    /// Bidi_Class values in the generator's order.
    enum Bidi: UInt8 {
        case L, R, AL, EN, ES, ET, AN, CS, NSM, BN, B, S, WS, ON, LRE, LRO, RLE, RLO, PDF, LRI, RLI, FSI, PDI
    }

    /// Joining_Type values in the generator's order.
    enum Joining: UInt8 { case U, L, R, D, T, C }

    private var mappingStarts: [UInt32] = []
    // Per range: status in the low 2 bits, then the mapping's offset in `pool` (<< 2) and its
    // length (<< 24).
    private var mappingInfo: [UInt32] = []
    private var pool: [UInt32] = []
    private var propertyStarts: [UInt32] = []
    private var propertyValues: [UInt32] = []
    private var decompositions: [UInt32: [UInt32]] = [:]
    private var compositions: [UInt64: UInt32] = [:]

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
        for line in Self.decompositionText.split(separator: "\n") {
            let fields = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            if fields.count >= 2 { decompositions[fields[0]] = Array(fields.dropFirst()) }
        }
        for line in Self.compositionText.split(separator: "\n") {
            let fields = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            if fields.count == 3 { compositions[UInt64(fields[0]) << 32 | UInt64(fields[1])] = fields[2] }
        }
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

    /// The status of `scalar`, and what it maps to when mapped.
    func status(_ scalar: UInt32) -> (Status, ArraySlice<UInt32>) {
        let info = mappingInfo[Self.range(mappingStarts, scalar)]
        let status = Status(rawValue: UInt8(info & 3)) ?? .disallowed
        guard status == .mapped else { return (status, []) }
        let offset = Int(info >> 2 & 0x3F_FFFF), length = Int(info >> 24)
        return (status, pool[offset..<(offset + length)])
    }

    private func property(_ scalar: UInt32) -> UInt32 { propertyValues[Self.range(propertyStarts, scalar)] }

    func bidi(_ scalar: UInt32) -> Bidi { Bidi(rawValue: UInt8(property(scalar) & 31)) ?? .L }
    func joining(_ scalar: UInt32) -> Joining { Joining(rawValue: UInt8(property(scalar) >> 5 & 7)) ?? .U }
    func isMark(_ scalar: UInt32) -> Bool { property(scalar) >> 8 & 1 == 1 }
    func combiningClass(_ scalar: UInt32) -> UInt32 { scalar < 0x300 ? 0 : property(scalar) >> 9 & 0xFF }
    /// Whether NFC leaves `scalar` as it is wherever it stands: a starter with no decomposition
    /// that composes with nothing before it (most text, so most names are checked by this alone).
    /// The combining class, and whether the code point composes with one before it, in one lookup.
    func compositionClass(_ scalar: UInt32) -> (ccc: UInt32, composes: Bool) {
        if scalar < 0x300 { return (0, false) }
        let value = property(scalar)
        return (value >> 9 & 0xFF, value >> 18 & 1 == 1)
    }
    func isNFCStable(_ scalar: UInt32) -> Bool { scalar < 0xC0 || property(scalar) & (0xFF << 9 | 1 << 17 | 1 << 18) == 0 }

    /// The full canonical decomposition of a code point that has one (Hangul syllables aside).
    func decomposition(_ scalar: UInt32) -> [UInt32]? { scalar < 0xC0 ? nil : decompositions[scalar] }

    /// The primary composite of a pair, if there is one (Hangul aside).
    func composite(_ first: UInt32, _ second: UInt32) -> UInt32? { compositions[UInt64(first) << 32 | UInt64(second)] }
}
