/// Why a request could not be built; each names the field and the cause.
public enum RequestError: Error, Equatable, CustomStringConvertible {
    /// A method that is not an HTTP token.
    case invalidMethod(String)
    /// A header name that is not an HTTP token.
    case invalidHeaderName(String)
    /// A header value with a forbidden byte (CR, LF, NUL, another control byte) at the 1-based `position`.
    case invalidHeaderValue(name: String, byte: UInt8, position: Int)
    /// A URL that cannot be sent: why.
    case invalidURL(String)
    /// A file the body names could not be read: its path and why.
    case file(path: String, reason: String)
    /// Anything else that makes the request impossible, in words.
    case invalid(String)

    public var description: String {
        switch self {
        case .invalidMethod(let m): return "method \"\(PercentDecodingError.printable(Array(m.utf8)))\" is not an HTTP token"
        case .invalidHeaderName(let n): return "header name \"\(PercentDecodingError.printable(Array(n.utf8)))\" is not an HTTP token"
        case .invalidHeaderValue(let name, let byte, let position):
            let what = byte == 0x0D ? "CR" : byte == 0x0A ? "LF" : byte == 0 ? "NUL" : "control byte \\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            return "header \(name): the value contains \(what) at byte \(position) (header injection is refused)"
        case .invalidURL(let message): return message
        case .file(let path, let reason): return "\(path): \(reason)"
        case .invalid(let message): return message
        }
    }
}
