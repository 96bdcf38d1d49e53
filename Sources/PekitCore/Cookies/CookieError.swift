/// Errors of the cookie store that a caller can see.
public enum CookieError: Error, Equatable, CustomStringConvertible {
    case publicSuffixList(String)
    case file(path: String, reason: String)
    case invalidCookie(String)

    public var description: String {
        switch self {
        case .publicSuffixList(let message): return message
        case .file(let path, let reason): return "\(path): \(reason)"
        case .invalidCookie(let message): return message
        }
    }
}
