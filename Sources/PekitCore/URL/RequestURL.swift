/// The parts of an absolute http(s) URL that cookies and requests need, parsed per RFC 3986
/// without re-encoding anything: scheme, host (lower-cased; IPv6 without brackets), port, path,
/// query. Userinfo and fragment are kept apart.
public struct RequestURL: Equatable, Sendable, CustomStringConvertible {
    public var scheme: String
    public var userinfo: String?
    public var host: String
    public var port: Int?
    /// The path as written ("" when absent).
    public var path: String
    public var query: String?
    public var fragment: String?

    /// Why a URL could not be used.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let url: String
        public let reason: String
        public var description: String { "invalid URL \"\(url)\": \(reason)" }
    }

    /// Parses an absolute URL (`scheme://host[:port][/path][?query][#fragment]`).
    public init(_ text: String) throws {
        func fail(_ reason: String) -> ParseError { ParseError(url: text, reason: reason) }
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else {
            throw fail("expected scheme://host")
        }
        let scheme = text[..<colon].lowercased()
        guard let first = scheme.first, first.isLetter, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else {
            throw fail("invalid scheme")
        }
        self.scheme = scheme
        var rest = text[text.index(colon, offsetBy: 3)...]
        if let hash = rest.firstIndex(of: "#") { fragment = String(rest[rest.index(after: hash)...]); rest = rest[..<hash] } else { fragment = nil }
        if let q = rest.firstIndex(of: "?") { query = String(rest[rest.index(after: q)...]); rest = rest[..<q] } else { query = nil }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        path = String(rest[authorityEnd...])
        if let at = authority.lastIndex(of: "@") { userinfo = String(authority[..<at]); authority = authority[authority.index(after: at)...] } else { userinfo = nil }
        let (hostPart, portText) = try Self.splitHostPort(authority, fail)
        guard !hostPart.isEmpty else { throw fail("no host") }
        host = hostPart.lowercased()
        if let portText, !portText.isEmpty {
            guard let port = Int(portText), (0...65535).contains(port) else { throw fail("invalid port \"\(portText)\"") }
            self.port = port
        } else {
            port = nil
        }
    }

    /// `host[:port]` or `[IPv6][:port]` split at the port's colon (brackets removed); the port
    /// text is nil when there is no colon. `fail` makes the error for a bracket left open or
    /// text after the closing one.
    static func splitHostPort<E: Error>(_ text: Substring, _ fail: (String) -> E) throws -> (host: Substring, port: Substring?) {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw fail("unclosed '[' in the host") }
            let after = text[text.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw fail("unexpected text after the IPv6 address") }
            return (text[text.index(after: text.startIndex)..<close], after.isEmpty ? nil : after.dropFirst())
        }
        guard let colon = text.lastIndex(of: ":") else { return (text, nil) }
        return (text[..<colon], text[text.index(after: colon)...])
    }

    /// Whether the host is an IPv4 or IPv6 address (never domain-matched by suffix).
    public var hostIsIPAddress: Bool { Self.isIPAddress(host) }

    public static func isIPAddress(_ host: String) -> Bool {
        var parts = 0, digits = 0, value = 0
        for byte in host.utf8 {
            switch byte {
            case UInt8(ascii: ":"): return true  // IPv6 (brackets already removed)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                if digits > 3 || value > 255 { return false }
            case UInt8(ascii: "."):
                if digits == 0 { return false }
                parts += 1; digits = 0; value = 0
            default:
                return false
            }
        }
        return parts == 3 && digits > 0
    }

    /// https, wss, or a loopback host (which browsers treat as secure).
    public var isSecureContext: Bool {
        scheme == "https" || scheme == "wss" || host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host.hasPrefix("127.")
    }

    /// The path for cookie matching: "/" when empty.
    public var cookiePath: String { path.isEmpty ? "/" : path }

    /// The port to connect to (the scheme's default when none is given).
    public var effectivePort: Int { port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0) }

    /// `host` or `host:port`, as a Host header writes it (IPv6 in brackets).
    public var authority: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(h):\($0)" } ?? h
    }

    public var description: String {
        var s = "\(scheme)://"
        if let userinfo { s += userinfo + "@" }
        s += authority + path
        if let query { s += "?" + query }
        if let fragment { s += "#" + fragment }
        return s
    }
}
