/// UTF-8 validation (RFC 3629) that says where the first bad byte is.
public enum UTF8Validation {
    /// The index of the first byte that does not begin or continue a valid UTF-8 sequence,
    /// or nil when all of `bytes` is valid UTF-8. Overlong forms, surrogates and values above
    /// U+10FFFF are invalid. O(n), with a fast path for ASCII.
    public static func firstInvalidIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        var i = 0
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 { i &+= 1; continue }
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
            default: return i
            }
            guard i + length <= n else { return i }
            let b1 = bytes[i + 1]
            guard b1 >= lower && b1 <= upper else { return i }
            for k in 2..<max(length, 2) where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    /// Whether `bytes` is valid UTF-8.
    public static func isValid<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ firstInvalidIndex($0) == nil }) { return result }
        return Array(bytes).withUnsafeBufferPointer { firstInvalidIndex($0) == nil }
    }
}
