/// Building a URL from its parts, each encoded for its place, then parsed as the URL Standard
/// parses any URL (so the result is what a browser would make of the same text).
extension WHATWGURL {
    /// A path: text in URL form (`/a b/c` is `/a%20b/c`; `%XX` kept), or segments, each
    /// encoded whole (`["a/b", "50%"]` is `/a%2Fb/50%25`).
    public enum PathInput: Sendable, Equatable {
        /// A path as text, parsed as the `pathname` setter parses it.
        case text(String)
        /// A path as segments, each percent-encoded as a path segment.
        case segments([String])
    }

    /// Builds `scheme://user:password@host:port/path?query#fragment`.
    /// - Parameters:
    ///   - scheme: the scheme, without its `:` (`https`).
    ///   - username: the user name, percent-encoded as the URL needs.
    ///   - password: the password, percent-encoded as the URL needs.
    ///   - port: the port; the scheme's default is left out.
    ///   - path: the path, as text or as segments.
    ///   - fragment: the fragment without its `#`.
    ///   - host: a domain (Unicode is converted by IDNA), an IPv4 address in any form, or an IPv6
    ///     address with or without brackets. Without a host, a non-special scheme's path is opaque
    ///     (`mailto:` + path).
    ///   - query: the query text as it will appear (already encoded by a policy); `#` is escaped.
    /// - Throws: `ParseError` naming the part that makes no URL.
    public init(scheme: String, username: String = "", password: String = "", host: String? = nil, port: Int? = nil,
                path: PathInput = .segments([]), query: String? = nil, fragment: String? = nil) throws {
        guard let first = scheme.unicodeScalars.first, URLParser.isAlpha(first),
              scheme.unicodeScalars.allSatisfy({ URLParser.isAlpha($0) || URLParser.isDigit($0) || "+-.".unicodeScalars.contains($0) }) else {
            throw ParseError(reason: "\"\(scheme)\" is not a scheme (a letter, then letters, digits, \"+\", \"-\" or \".\")", offset: 1)
        }
        if let port, !(0...65535).contains(port) { throw ParseError(reason: "the port \(port) is not in 0…65535", offset: 1) }
        var text = scheme + ":"
        if var host {
            if host.contains(":") && !host.hasPrefix("[") { host = "[" + host + "]" }
            text += "//"
            if !username.isEmpty || !password.isEmpty {
                text += PercentEncodeSet.userinfo.encode(username.unicodeScalars)
                if !password.isEmpty { text += ":" + PercentEncodeSet.userinfo.encode(password.unicodeScalars) }
                text += "@"
            }
            // What would end the host early is refused by the host parser, not reinterpreted.
            for c in host.unicodeScalars where ["/", "?", "#", "@", "\\"].contains(c) {
                throw ParseError(reason: "the host \"\(host)\" holds \"\(c)\"", offset: 1)
            }
            text += host
            if let port { text += ":\(port)" }
        } else if WHATWGURL.defaultPort(of: scheme.lowercased()) != nil && scheme.lowercased() != "file" {
            throw ParseError(reason: "\(scheme.lowercased()) URLs need a host", offset: 1)
        } else if !username.isEmpty || !password.isEmpty || port != nil {
            throw ParseError(reason: "credentials and a port need a host", offset: 1)
        }
        switch path {
        case .text(let p):
            let escaped = PercentEncodeSet { $0 == 0x3F || $0 == 0x23 }.encode(p.unicodeScalars)
            text += host != nil && !escaped.isEmpty && !escaped.hasPrefix("/") ? "/" + escaped : escaped
        case .segments(let segments):
            text += segments.map { "/" + PercentEncodeSet.segment.encode($0.unicodeScalars) }.joined()
        }
        if let query { text += "?" + PercentEncodeSet { $0 == 0x23 }.encode(query.unicodeScalars) }
        if let fragment { text += "#" + fragment }
        self = try WHATWGURL(text)
    }
}

extension PercentEncodeSet {
    /// One path segment taken whole: all but RFC 3986's `pchar` (unreserved, sub-delims, `:`, `@`).
    static let segment = PercentEncodeSet { c in
        !((c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || "-._~!$&'()*+,;=:@".unicodeScalars.contains { $0.value == c })
    }
}
