/// How a real server reads the Cookie header of a request: the cookie parser each server model's
/// framework runs, ported from its code and held to it by `cookie-vectors.json` (generated from
/// the servers themselves by `Tests/PekitCoreTests/Fixtures/cookie-servers/make_cookie_vectors.py`).
///
/// Servers disagree on nearly everything a browser never sends but a client may: spaces around
/// `=` and `;`, quotes, `%` escapes, a name said twice (PHP, Rack and Express keep the first,
/// Python the last, Go both), names with brackets or dots (PHP nests and mangles them), a pair
/// with no `=`, bytes past the cookie-octet set (Go drops the pair, Python drops the whole header).
public enum CookieServer: String, CaseIterable, Sendable {
    /// PHP 8.2's `$_COOKIE` (`php_default_treat_data` with `PARSE_COOKIE`).
    case php
    /// Rack 2.2's `Utils.parse_cookies_header` (`Rack::Request#cookies`; Rails, Sinatra).
    case rack
    /// Python 3.11's `http.cookies.SimpleCookie.load`, on the header as WSGI hands it over (latin-1).
    case python
    /// Go 1.19's `net/http` `Request.Cookies` (`readCookies`).
    case go
    /// The `cookie` package 0.5's `parse` (Express's `cookie-parser`), on the header as node's
    /// HTTP server hands it over (latin-1).
    case express

    /// The library and version modelled.
    public var modelled: String {
        switch self {
        case .php: return "PHP 8.2 $_COOKIE"
        case .rack: return "Rack 2.2 Utils.parse_cookies_header"
        case .python: return "Python 3.11 http.cookies.SimpleCookie"
        case .go: return "Go 1.19 net/http Request.Cookies"
        case .express: return "cookie 0.5 parse (Express cookie-parser)"
        }
    }

    /// What the server reads from one Cookie header value: a map of name to value in the
    /// server's order (PHP's may nest; Rack's value is null for a pair without `=`), or for Go
    /// the list of `[name, value]` pairs it returns (a name may come twice).
    /// - Parameter header: the field's value as received.
    /// - Throws: `QueryServerError` where the server raises (Python's `CookieError`).
    /// - Complexity: O(n) in the header's length (Python's pattern: O(n × longest name)).
    public func read(_ header: [UInt8]) throws -> PekitValue {
        switch self {
        case .php: return PHPParser().parseCookies(header)
        case .rack: return RackCookies.parse(header)
        case .python: return try PythonCookies.parse(header)
        case .go: return GoCookies.parse(header)
        case .express: return ExpressCookies.parse(header)
        }
    }

    /// Text read as latin-1 (each byte its code point), as WSGI and node hand a header over,
    /// written back as UTF-8 (what the server's program then holds, as JSON would show it).
    static func latin1ToUTF8<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for b in bytes {
            if b < 0x80 { out.append(b) } else { out.append(0xC0 | b >> 6); out.append(0x80 | b & 0x3F) }
        }
        return out
    }
}

extension QueryServer.Model {
    /// The cookie parser of this model's server (Express's for `qs`), or nil where the model is
    /// no server of its own (`whatwg`, `node-querystring`).
    public var cookieServer: CookieServer? {
        switch name {
        case "qs": return .express
        case "php": return .php
        case "rack": return .rack
        case "python": return .python
        case "go": return .go
        default: return nil
        }
    }
}
