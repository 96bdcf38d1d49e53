import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PekitCore

extension Cookie {
    /// `HTTPCookiePropertyKey.sameSitePolicy`'s raw value (Apple's; corelibs has no constant).
    static let sameSiteKey = HTTPCookiePropertyKey("SameSite")

    /// The cookie as Foundation's `HTTPCookie`, and what `HTTPCookie` cannot hold.
    ///
    /// `HTTPCookie` has no partition (CHIPS), no `SameSite=None` (Apple's keeps Lax and Strict,
    /// swift-corelibs-foundation's on Linux no SameSite at all), no
    /// creation or last-access time, and does not know the `__Host-` and `__Secure-` prefixes'
    /// rules (a store that takes it back will not check them). Each is named in `notKept`, so
    /// a caller can decide whether the conversion is good enough.
    /// - Returns: nil for a cookie `HTTPCookie` refuses (a nameless cookie: RFC 6265bis keeps
    ///   `Set-Cookie: v` as a cookie with an empty name, which `HTTPCookie` cannot make).
    public func httpCookie() -> (cookie: HTTPCookie, notKept: [String])? {
        var properties: [HTTPCookiePropertyKey: Any] = [
            .name: name, .value: value, .path: path,
            // A domain cookie is written with its leading dot, a host-only one without (as
            // HTTPCookie reads the two).
            .domain: hostOnly ? domain : "." + domain,
        ]
        if let expires { properties[.expires] = Date(timeIntervalSince1970: expires) }
        if secure { properties[.secure] = "TRUE" }
        var notKept: [String] = []
        if httpOnly { properties[HTTPCookiePropertyKey("HttpOnly")] = "TRUE" }
        switch sameSite {
        case .lax: properties[Self.sameSiteKey] = "lax"
        case .strict: properties[Self.sameSiteKey] = "strict"
        case .none?: notKept.append("SameSite=None (HTTPCookie knows only Lax and Strict)")
        case nil: break
        }
        if partitioned { notKept.append("Partitioned" + (partitionKey.map { " (partition \($0))" } ?? "") + " (HTTPCookie has no partitions)") }
        if let prefix = namePrefix { notKept.append("the \(prefix.rawValue) prefix's rules (HTTPCookie does not check them)") }
        if creation != 0 { notKept.append("the creation and last-access times") }
        guard !name.isEmpty, let cookie = HTTPCookie(properties: properties) else { return nil }
        // swift-corelibs-foundation's HTTPCookie drops the SameSite property Apple's keeps.
        if let sameSite, sameSite != .none, cookie.properties?[Self.sameSiteKey] == nil {
            notKept.insert("SameSite=\(sameSite.rawValue) (this Foundation's HTTPCookie has no SameSite)", at: 0)
        }
        return (cookie, notKept)
    }

    /// A cookie from Foundation's `HTTPCookie` (one `HTTPCookieStorage` holds or
    /// `HTTPCookie.cookies(withResponseHeaderFields:for:)` made), as the jar would store it.
    /// A domain starting with a dot is a domain cookie (sent to subdomains), as HTTPCookie means it.
    /// - Parameter now: the creation time to give it (HTTPCookie keeps none).
    public init(_ cookie: HTTPCookie, now: Double = 0) {
        // Apple's HTTPCookie reads this key as its sameSitePolicy; swift-corelibs-foundation's
        // keeps it among the properties.
        let domainCookie = cookie.domain.hasPrefix(".")
        let sameSite: SameSite?
        switch (cookie.properties?[Self.sameSiteKey] as? String)?.lowercased() {
        case "lax": sameSite = .lax
        case "strict": sameSite = .strict
        default: sameSite = nil
        }
        self.init(name: cookie.name, value: cookie.value, domain: (domainCookie ? String(cookie.domain.dropFirst()) : cookie.domain).lowercased(),
                  path: cookie.path.isEmpty ? "/" : cookie.path, expires: cookie.expiresDate?.timeIntervalSince1970,
                  creation: now, hostOnly: !domainCookie, secure: cookie.isSecure, httpOnly: cookie.isHTTPOnly, sameSite: sameSite)
    }
}
