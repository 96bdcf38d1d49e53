/// Text from bytes that must be UTF-8, or nil: `String(validating:as:)` with ASCII read first.
///
/// The standard library's `String(validating:as:)` is generic over the encoding and was not
/// specialized where pekit calls it: each call looked up generic metadata at run time, about
/// 900 instructions for a short cookie value, a quarter of loading a cookies.txt line. Mostly
/// the bytes are ASCII, which is UTF-8 as it is: eight bytes are checked a step and the string
/// made with `String(decoding:as:)`'s specialized path. Any other bytes take the general path,
/// which `FastPathDifferentialTests` holds this one to on random bytes.
package enum ValidUTF8 {
    /// The bytes as text, or nil when they are not UTF-8. Complexity: O(n).
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `string(_:)` of an array's bytes.
    package static func string(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { string($0) }
    }

    /// Whether every byte is under 0x80, eight bytes a step.
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let n = bytes.count
        var i = 0
        var high: UInt64 = 0
        while i + 8 <= n {
            high |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < n {
            high |= UInt64(base[i])
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
