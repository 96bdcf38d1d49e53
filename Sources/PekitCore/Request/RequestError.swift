/// Why a request could not be built; each names the field and the cause.
public enum RequestError: Error, Equatable, CustomStringConvertible {
    case invalidMethod(String)
    case invalidHeaderName(String)
    case invalidHeaderValue(name: String, byte: UInt8, position: Int)
    case invalidURL(String)
    case file(path: String, reason: String)
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
