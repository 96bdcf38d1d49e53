/// UTF-8 validation (RFC 3629) that says where the first bad byte is.
public enum UTF8Validation {
    /// The index of the first byte that does not begin or continue a valid UTF-8 sequence,
    /// or nil when all of `bytes` is valid UTF-8. Overlong forms, surrogates and values above
    /// U+10FFFF are invalid. O(n), with a fast path for ASCII.
    public static func firstInvalidIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        var i = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while i < n {
            // Eight ASCII bytes at a time: most text is mostly ASCII.
            while i &+ 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i &+= 8 }
            guard i < n else { break }
            let b0 = bytes[i]
            if b0 < 0x80 { i &+= 1; continue }
            guard let (length, lower, upper) = UTF8Decoding.lead(b0) else { return i }
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
