/// One stored cookie: RFC 6265 §5.3's fields plus SameSite and Partitioned.
public struct Cookie: Equatable, Sendable {
    public enum SameSite: String, Sendable, CaseIterable {
        case strict = "Strict", lax = "Lax", none = "None"
    }

    public var name: String
    public var value: String
    /// The host (host-only) or the domain the cookie belongs to, lower-case, no leading dot.
    public var domain: String
    public var path: String
    /// Seconds since the epoch; nil for a session cookie.
    public var expires: Double?
    public var creation: Double
    public var lastAccess: Double
    public var hostOnly: Bool
    public var secure: Bool
    public var httpOnly: Bool
    public var sameSite: SameSite?
    public var partitioned: Bool

    public init(name: String, value: String, domain: String, path: String = "/", expires: Double? = nil,
                creation: Double = 0, lastAccess: Double? = nil, hostOnly: Bool = true, secure: Bool = false,
                httpOnly: Bool = false, sameSite: SameSite? = nil, partitioned: Bool = false) {
        self.name = name; self.value = value; self.domain = domain; self.path = path; self.expires = expires
        self.creation = creation; self.lastAccess = lastAccess ?? creation; self.hostOnly = hostOnly
        self.secure = secure; self.httpOnly = httpOnly; self.sameSite = sameSite; self.partitioned = partitioned
    }

    /// Whether it is kept past the session.
    public var isPersistent: Bool { expires != nil }

    /// Whether it has expired at `now`.
    public func isExpired(at now: Double) -> Bool { expires.map { $0 <= now } ?? false }

    /// `name=value` as a Cookie header carries it.
    public var pair: String { name.isEmpty ? value : "\(name)=\(value)" }

    /// The identity §5.3 step 11 replaces by: name, domain, path.
    public var key: CookieKey { CookieKey(name: name, domain: domain, path: path) }
}

/// Name, domain and path: two cookies with the same key are the same cookie.
public struct CookieKey: Hashable, Sendable {
    public let name: String
    public let domain: String
    public let path: String
}
