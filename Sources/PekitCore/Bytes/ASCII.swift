/// ASCII's rules over bytes, for the formats that match words without case and read numbers in
/// place (Set-Cookie attributes, cookies.txt fields, host names): no string is made to compare.
package enum ASCII {
    /// The byte with an ASCII upper-case letter lowered; any other byte as it is.
    @inline(__always) package static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// A hex digit's value (either case), or nil.
    @inline(__always) package static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        default: return nil
        }
    }

    /// A byte as two hex digits (`0A`, or `0a` with `uppercase` false), as error messages show bytes.
    package static func hex(_ byte: UInt8, uppercase: Bool = true) -> String {
        let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
        let d = digits.utf8Start
        return String(decoding: [d[Int(byte >> 4)], d[Int(byte & 15)]], as: UTF8.self)
    }

    /// Whether `bytes` start with `word`, ASCII letters compared without case.
    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, ignoringCase word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard bytes.count >= n else { return false }
        let w = word.utf8Start
        for i in 0..<n where lower(bytes[i]) != lower(w[i]) { return false }
        return true
    }

    /// Whether `bytes` spell `word`, ASCII letters compared without case.
    package static func equals(_ bytes: UnsafeBufferPointer<UInt8>, ignoringCase word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && hasPrefix(bytes, ignoringCase: word)
    }

    /// `equals` over raw bytes (a line read from a socket).
    package static func equals(_ bytes: UnsafeRawBufferPointer, ignoringCase word: StaticString) -> Bool {
        equals(bytes.assumingMemoryBound(to: UInt8.self), ignoringCase: word)
    }

    /// The bytes as text, lower-cased: ASCII as the string is made (one string, not a copy and
    /// its lower case), anything else by Unicode's rules (as `String.lowercased` would).
    package static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(decoding: bytes, as: UTF8.self).lowercased() }
        return String(unsafeUninitializedCapacity: bytes.count) { out in
            for (i, b) in bytes.enumerated() { out[i] = lower(b) }
            return bytes.count
        }
    }

    /// A decimal integer as `Int64(String)` reads one (an optional sign, then digits only), or
    /// nil (nothing else, or out of range); no string made.
    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0, negative = false
        if let first = bytes.first, first == 0x2B || first == 0x2D { negative = first == 0x2D; i = 1 }
        guard i < bytes.count else { return nil }
        var value: Int64 = 0
        while i < bytes.count {
            let digit = bytes[i] &- 0x30
            guard digit < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(Int64(digit)) : times.addingReportingOverflow(Int64(digit))
            guard !o1 && !o2 else { return nil }
            value = next
            i += 1
        }
        return value
    }
}
