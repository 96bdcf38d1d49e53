/// A URL as the WHATWG URL Standard parses and serializes it (what browsers, node and ada do):
/// `WHATWGURL("http://h/a b/汉?q=汉 字")` is `http://h/a%20b/%E6%B1%89?q=%E6%B1%89%20%E5%AD%97`.
/// This is the basic URL parser (§4.4) without state overrides, and the URL serializer (§4.5).
public struct WHATWGURL: Equatable, Sendable, CustomStringConvertible {
    public enum Path: Equatable, Sendable {
        case segments([String])
        /// A URL like `mailto:a@b` or `data:…` has one opaque path.
        case opaque(String)
    }

    public var scheme: String
    public var username = ""
    public var password = ""
    public var host: URLHost?
    public var port: Int?
    public var path = Path.segments([])
    public var query: String?
    public var fragment: String?

    /// Why an input is not a URL: what, and where (1-based code point offset).
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public let offset: Int
        public var description: String { "\(reason) (at code point \(offset))" }
    }

    static let specialPorts: [String: Int?] = ["ftp": 21, "file": nil, "http": 80, "https": 443, "ws": 80, "wss": 443]

    public var isSpecial: Bool { Self.specialPorts[scheme] != nil }

    /// Parses `input`, resolving it against `base` when it is relative.
    /// - Throws: `ParseError` with the reason and offset.
    public init(_ input: String, base: WHATWGURL? = nil) throws {
        var parser = URLParser(input: input, base: base)
        self = try parser.run()
    }

    init(scheme: String) { self.scheme = scheme }

    // MARK: serializing

    /// The URL serializer (§4.5): `href`.
    public var description: String {
        var out = scheme + ":"
        if let host {
            out += "//"
            if !username.isEmpty || !password.isEmpty {
                out += username
                if !password.isEmpty { out += ":" + password }
                out += "@"
            }
            out += host.description
            if let port { out += ":\(port)" }
        } else if case .segments(let s) = path, s.count > 1, s[0].isEmpty {
            out += "/."
        }
        out += pathname
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    public var href: String { description }
    public var pathname: String {
        switch path {
        case .opaque(let p): return p
        case .segments(let s): return s.map { "/" + $0 }.joined()
        }
    }
    public var search: String { query.map { $0.isEmpty ? "" : "?" + $0 } ?? "" }
    public var hash: String { fragment.map { $0.isEmpty ? "" : "#" + $0 } ?? "" }
    public var hostname: String { host?.description ?? "" }
    public var hostWithPort: String { host.map { $0.description + (port.map { ":\($0)" } ?? "") } ?? "" }
    public var portString: String { port.map(String.init) ?? "" }
    public var protocolName: String { scheme + ":" }

    /// The origin (§4.8 of HTML as the URL Standard defines it): `scheme://host[:port]` for
    /// http(s), ws(s) and ftp, the inner URL's for blob:, else "null".
    public var origin: String {
        switch scheme {
        case "http", "https", "ws", "wss", "ftp": return "\(scheme)://\(hostWithPort)"
        case "blob":
            if let inner = try? WHATWGURL(pathname), ["http", "https"].contains(inner.scheme) { return inner.origin }
            return "null"
        default: return "null"
        }
    }
}
