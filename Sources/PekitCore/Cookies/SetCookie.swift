/// A Set-Cookie header value parsed per RFC 6265 §5.2, before the storage model applies.
public struct SetCookie: Equatable, Sendable {
    public var name: String
    public var value: String
    /// Seconds since the epoch from Expires, if it parsed.
    public var expires: Int64?
    /// Max-Age in seconds, if it parsed (wins over Expires).
    public var maxAge: Int64?
    /// The Domain attribute, leading dot removed, lower-cased; nil when absent or empty.
    public var domain: String?
    /// The Path attribute when it starts with '/'; nil means the default path.
    public var path: String?
    public var secure = false
    public var httpOnly = false
    public var sameSite: Cookie.SameSite?
    public var partitioned = false

    /// Parses one Set-Cookie value; nil when §5.2 says to ignore it (no '=' in the name-value
    /// pair, or an empty name).
    public init?(_ header: String) {
        let text = Substring(header)
        let firstSemicolon = text.firstIndex(of: ";")
        let nameValue = text[..<(firstSemicolon ?? text.endIndex)]
        guard let eq = nameValue.firstIndex(of: "=") else { return nil }
        name = Self.trim(nameValue[..<eq])
        value = Self.trim(nameValue[nameValue.index(after: eq)...])
        guard !name.isEmpty else { return nil }
        guard let firstSemicolon else { return }
        for raw in text[text.index(after: firstSemicolon)...].split(separator: ";", omittingEmptySubsequences: false) {
            let attributeName: String, attributeValue: String
            if let e = raw.firstIndex(of: "=") {
                attributeName = Self.trim(raw[..<e]).lowercased()
                attributeValue = Self.trim(raw[raw.index(after: e)...])
            } else {
                attributeName = Self.trim(raw).lowercased()
                attributeValue = ""
            }
            switch attributeName {
            case "expires":
                if let seconds = CookieDate.parse(attributeValue) { expires = seconds }
            case "max-age":
                // A digit or '-' first, then digits only; otherwise the attribute is ignored.
                let bytes = Array(attributeValue.utf8)
                guard let first = bytes.first, first == 0x2D || (0x30...0x39).contains(first),
                      bytes.dropFirst().allSatisfy({ (0x30...0x39).contains($0) }), bytes != [0x2D] else { continue }
                maxAge = Int64(attributeValue) ?? (first == 0x2D ? Int64.min : Int64.max)
            case "domain":
                var domain = Substring(attributeValue)
                if domain.hasPrefix(".") { domain = domain.dropFirst() }
                self.domain = domain.isEmpty ? nil : domain.lowercased()
            case "path":
                path = attributeValue.hasPrefix("/") ? attributeValue : nil
            case "secure": secure = true
            case "httponly": httpOnly = true
            case "samesite":
                sameSite = Cookie.SameSite.allCases.first { $0.rawValue.lowercased() == attributeValue.lowercased() }
            case "partitioned": partitioned = true
            default: break
            }
        }
    }

    static func trim(_ s: Substring) -> String {
        var s = s
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
