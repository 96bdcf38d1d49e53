/// UTF-8 decoding that repairs or reports bad sequences the way the Unicode Standard recommends
/// (and WHATWG's decoder, CPython and node follow): each *maximal subpart* of an ill-formed
/// sequence is one error, replaced by one U+FFFD.
public enum UTF8Decoding {
    /// Why a sequence is not UTF-8, in CPython's words.
    public enum Problem: String, Sendable {
        /// A byte that cannot begin a UTF-8 sequence (a continuation byte, or 0xF8 and above).
        case invalidStartByte = "invalid start byte"
        /// A sequence cut short by a byte that does not continue it.
        case invalidContinuationByte = "invalid continuation byte"
        /// A sequence cut short by the end of the input.
        case unexpectedEndOfData = "unexpected end of data"
    }

    /// The length of the sequence a lead byte starts and the range its second byte must be in
    /// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF); nil for a byte that
    /// cannot start one.
    @inline(__always)
    public static func lead(_ b0: UInt8) -> (length: Int, lower: UInt8, upper: UInt8)? {
        switch b0 {
        case 0xC2...0xDF: return (2, 0x80, 0xBF)
        case 0xE0: return (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: return (3, 0x80, 0xBF)
        case 0xED: return (3, 0x80, 0x9F)
        case 0xF0: return (4, 0x90, 0xBF)
        case 0xF1...0xF3: return (4, 0x80, 0xBF)
        case 0xF4: return (4, 0x80, 0x8F)
        default: return nil
        }
    }

    /// The sequence starting at `i`: its length, and the problem when it is ill-formed (the
    /// length is then that of the maximal subpart, at least 1).
    @inline(__always)
    public static func sequence(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (length: Int, problem: Problem?) {
        let b0 = bytes[i]
        if b0 < 0x80 { return (1, nil) }
        guard let (length, lower, upper) = lead(b0) else { return (1, .invalidStartByte) }
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
