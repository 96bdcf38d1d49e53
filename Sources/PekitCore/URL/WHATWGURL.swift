/// A URL as the WHATWG URL Standard parses and serializes it (what browsers, node and ada do):
/// `WHATWGURL("http://h/a b/汉?q=汉 字")` is `http://h/a%20b/%E6%B1%89?q=%E6%B1%89%20%E5%AD%97`.
/// This is the basic URL parser (§4.4) without state overrides, and the URL serializer (§4.5).
public struct WHATWGURL: Equatable, Sendable, CustomStringConvertible {
    public enum Path: Equatable, Sendable {
        case segments([String])
        /// A URL like `mailto:a@b` or `data:…` has one opaque path.
        case opaque(String)
    }

    /// The scheme, lower case; setting it also sets `isSpecial` (read at every character while parsing).
    public var scheme: String { didSet { isSpecial = Self.defaultPort(of: scheme) != nil } }
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

    /// The special schemes' default ports (`.some(nil)` for file, which has none); nil for the
    /// schemes that are not special.
    static func defaultPort(of scheme: String) -> Int?? {
        switch scheme {
        case "http", "ws": return .some(80)
        case "https", "wss": return .some(443)
        case "ftp": return .some(21)
        case "file": return .some(nil)
        default: return nil
        }
    }

    /// http, https, ws, wss, ftp or file: the schemes with their own parsing rules.
    public private(set) var isSpecial = false

    /// Parses `input`, resolving it against `base` when it is relative.
    /// - Throws: `ParseError` with the reason and offset.
    public init(_ input: String, base: WHATWGURL? = nil) throws {
        var parser = URLParser(input: input, base: base)
        self = try parser.run()
    }

    init(scheme: String) { self.scheme = scheme; isSpecial = Self.defaultPort(of: scheme) != nil }

    // MARK: serializing

    /// The URL serializer (§4.5): `href`.
    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(scheme.utf8.count + username.utf8.count + password.utf8.count + 40 + (query?.utf8.count ?? 0) + (fragment?.utf8.count ?? 0))
        out += scheme.utf8
        out.append(0x3A)
        if let host {
            out += [0x2F, 0x2F]
            if !username.isEmpty || !password.isEmpty {
                out += username.utf8
                if !password.isEmpty { out.append(0x3A); out += password.utf8 }
                out.append(0x40)
            }
            out += host.description.utf8
            if let port { out.append(0x3A); out += String(port).utf8 }
        } else if case .segments(let s) = path, s.count > 1, s[0].isEmpty {
            out += [0x2F, 0x2E]
        }
        appendPathname(to: &out)
        if let query { out.append(0x3F); out += query.utf8 }
        if let fragment { out.append(0x23); out += fragment.utf8 }
        return String(decoding: out, as: UTF8.self)
    }

    func appendPathname(to out: inout [UInt8]) {
        switch path {
        case .opaque(let p): out += p.utf8
        case .segments(let s): for segment in s { out.append(0x2F); out += segment.utf8 }
        }
    }

    public var href: String { description }
    public var pathname: String {
        if case .opaque(let p) = path { return p }
        var out: [UInt8] = []
        appendPathname(to: &out)
        return String(decoding: out, as: UTF8.self)
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
