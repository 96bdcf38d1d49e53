#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Text in a legacy charset (GB2312, windows-1256, Shift_JIS, ISO-8859-x…) as UTF-8, by the C
/// library's iconv (POSIX: glibc and Darwin know the IANA names browsers send in Content-Type).
public enum CharsetConversion {
    /// Why text could not be converted.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The C library knows no charset of this name.
        case unknownCharset(String)
        /// A byte sequence that is not text in the charset, at this offset.
        case invalidBytes(charset: String, offset: Int)

        public var description: String {
            switch self {
            case .unknownCharset(let name): return "the charset \(name) is not one this system converts"
            case .invalidBytes(let name, let offset): return "the bytes at offset \(offset) are not \(name) text"
            }
        }
    }

    /// `bytes`, text in `charset`, as UTF-8.
    /// - Throws: `Failure.unknownCharset`, or `.invalidBytes` naming the first byte that is not
    ///   text in the charset.
    /// - Complexity: O(n).
    public static func utf8(_ bytes: [UInt8], from charset: String) throws(Failure) -> [UInt8] {
        let descriptor = iconv_open("UTF-8", charset)
        guard descriptor != iconv_t(bitPattern: -1) else { throw .unknownCharset(charset) }
        defer { iconv_close(descriptor) }
        var input = bytes
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var failedAt: Int?
        input.withUnsafeMutableBufferPointer { source in
            var inPointer = source.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
            var inLeft = source.count
            var flushing = false
            while true {
                // At the end of the input, a call with no input writes what a stateful charset holds.
                flushing = flushing || inLeft == 0
                let (produced, status, code) = buffer.withUnsafeMutableBufferPointer { target -> (Int, Int, Int32) in
                    var outPointer = target.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
                    var outLeft = target.count
                    let status = flushing ? iconv(descriptor, nil, nil, &outPointer, &outLeft) : iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    return (target.count - outLeft, status, errno)
                }
                out.append(contentsOf: buffer[0..<produced])
                if status != -1 {
                    if flushing { break }
                    continue
                }
                if code == E2BIG { continue }
                failedAt = source.count - inLeft
                break
            }
        }
        if let failedAt { throw .invalidBytes(charset: charset, offset: failedAt) }
        return out
    }
}
