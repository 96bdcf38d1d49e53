import PekitCore

/// Why a request could not be sent or completed. An HTTP error status is not one of these: a
/// 404 or a 500 is a response.
public enum HTTPError: Error, Equatable, CustomStringConvertible {
    /// The transfer failed: curl's error code, its detailed message, and a hint when the fix is clear.
    case transfer(method: String, url: String, code: Int, reason: String, hint: String?)
    case tooManyRedirects(url: String, limit: Int)
    /// A Location that cannot be followed (another scheme, not a URL).
    case badRedirect(url: String, location: String, reason: String)
    /// Stopped by the caller (Ctrl-C).
    case cancelled(url: String)
    /// The handle or an option could not be set up.
    case setup(String)

    public var description: String {
        switch self {
        case .transfer(let method, let url, let code, let reason, let hint):
            return "\(method) \(url): \(reason) (curl error \(code))" + (hint.map { "; \($0)" } ?? "")
        case .tooManyRedirects(let url, let limit):
            return "\(url): more than \(limit) redirects (raise max_redirects, or follow = false to see the response)"
        case .badRedirect(let url, let location, let reason):
            return "\(url): cannot follow redirect to \"\(PercentDecodingError.printable(Array(location.utf8)))\": \(reason)"
        case .cancelled(let url):
            return "\(url): interrupted"
        case .setup(let message):
            return message
        }
    }
}
