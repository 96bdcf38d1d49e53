/// UTF-8 decoding that repairs or reports bad sequences the way the Unicode Standard recommends
/// (and WHATWG's decoder, CPython and node follow): each *maximal subpart* of an ill-formed
/// sequence is one error, replaced by one U+FFFD.
public enum UTF8Decoding {
    /// Why a sequence is not UTF-8, in CPython's words.
    public enum Problem: String, Sendable {
        case invalidStartByte = "invalid start byte"
        case invalidContinuationByte = "invalid continuation byte"
        case unexpectedEndOfData = "unexpected end of data"
    }

    /// The sequence starting at `i`: its length, and the problem when it is ill-formed (the
    /// length is then that of the maximal subpart, at least 1).
    @inline(__always)
    public static func sequence(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (length: Int, problem: Problem?) {
        let b0 = bytes[i]
        if b0 < 0x80 { return (1, nil) }
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return (1, .invalidStartByte)
        }
        var k = 1
        while k < length {
            guard i + k < bytes.count else { return (k, .unexpectedEndOfData) }
            let b = bytes[i + k]
            let ok = k == 1 ? (b >= lower && b <= upper) : (b & 0xC0 == 0x80)
            if !ok { return (k, .invalidContinuationByte) }
            k += 1
        }
        return (length, nil)
    }

    /// `bytes` itself when it is UTF-8 (no copy), else with every ill-formed subpart replaced.
    public static func repaired(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidIndex($0) == nil } ? bytes : bytes.withUnsafeBufferPointer { repaired($0) }
    }

    /// `bytes` with every ill-formed subpart replaced by U+FFFD (EF BF BD). O(n).
    public static func repaired<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        if let done = bytes.withContiguousStorageIfAvailable({ repaired($0) }) { return done }
        return Array(bytes).withUnsafeBufferPointer { repaired($0) }
    }

    /// `bytes` with every ill-formed subpart replaced by U+FFFD. O(n).
    public static func repaired(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard UTF8Validation.firstInvalidIndex(bytes) != nil else { return Array(bytes) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var i = 0
        while i < bytes.count {
            let (length, problem) = sequence(in: bytes, at: i)
            if problem != nil { out += [0xEF, 0xBF, 0xBD] } else { out += bytes[i..<i + length] }
            i += length
        }
        return out
    }
}
