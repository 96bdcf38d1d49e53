/// Errors of the cookie store that a caller can see.
public enum CookieError: Error, Equatable, CustomStringConvertible {
    /// The public suffix list could not be read (the reason).
    case publicSuffixList(String)
    /// A cookie file could not be read or written: its path and why.
    case file(path: String, reason: String)
    /// A cookie (a file's line, a `jar:set` table) is not one: why.
    case invalidCookie(String)
    /// Saving would replace a file that is not a cookie jar (nothing in it loads).
    case notAJar(path: String, skipped: Int)

    public var description: String {
        switch self {
        case .publicSuffixList(let message): return message
        case .file(let path, let reason): return "\(path): \(reason)"
        case .invalidCookie(let message): return message
        case .notAJar(let path, let skipped):
            return "\(path) does not look like a cookie jar (\(skipped) line\(skipped == 1 ? "" : "s") skipped, none loaded); not replacing it"
        }
    }
}
