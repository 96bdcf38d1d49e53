/// One stored cookie: RFC 6265 §5.3's fields plus SameSite and Partitioned.
public struct Cookie: Equatable, Sendable {
    /// Whether a cookie goes with cross-site requests (RFC 6265bis §4.1.2.7).
    public enum SameSite: String, Sendable, CaseIterable {
        /// `Strict`: same-site requests only; `Lax`: also top-level navigations with a safe method; `None`: every request (Secure required).
        case strict = "Strict", lax = "Lax", none = "None"
    }

    /// The cookie's name (may be empty: `Set-Cookie: v` is a nameless cookie whose value is `v`).
    public var name: String
    /// The value as text (bytes that are not UTF-8 shown repaired, as U+FFFD).
    public var value: String
    /// The value's own bytes where they are not UTF-8 (`cookiesarebananas=\xFFtest\xFF`): sent
    /// back, saved and given to Lua as they came; nil when `value`'s UTF-8 is them.
    public var rawValue: [UInt8]?
    /// The host (host-only) or the domain the cookie belongs to, lower-case, no leading dot.
    public var domain: String
    /// The path the cookie is sent under (`/` and everything below it).
    public var path: String
    /// Seconds since the epoch; nil for a session cookie.
    public var expires: Double?
    /// When it was first stored, in seconds since the epoch (kept when a newer cookie replaces it).
    public var creation: Double
    /// When it was last stored or sent, in seconds since the epoch (eviction removes the least recent).
    public var lastAccess: Double
    /// Sent to `domain` only, not its subdomains (no `Domain` attribute was given).
    public var hostOnly: Bool
    /// Sent over https (or to loopback) only.
    public var secure: Bool
    /// Sent with HTTP requests only, never shown to scripts.
    public var httpOnly: Bool
    /// The `SameSite` attribute; nil when none was given (treated as `Lax` for sending, as browsers do).
    public var sameSite: SameSite?
    /// Whether it came with `Partitioned` (CHIPS): kept per top-level site.
    public var partitioned: Bool
    /// For a partitioned cookie (CHIPS): the top-level site it was set under
    /// (`https://example.com`, scheme and registrable domain), and the only one it is sent under.
    /// nil: not partitioned, or from a file that did not say (sent under any).
    public var partitionKey: String?

    /// A cookie with these fields; `lastAccess` defaults to `creation`, and `partitionKey` counts only when `partitioned`.
    public init(name: String, value: String, domain: String, path: String = "/", expires: Double? = nil,
                creation: Double = 0, lastAccess: Double? = nil, hostOnly: Bool = true, secure: Bool = false,
                httpOnly: Bool = false, sameSite: SameSite? = nil, partitioned: Bool = false, partitionKey: String? = nil) {
        self.name = name; self.value = value; self.domain = domain; self.path = path; self.expires = expires
        self.creation = creation; self.lastAccess = lastAccess ?? creation; self.hostOnly = hostOnly
        self.secure = secure; self.httpOnly = httpOnly; self.sameSite = sameSite; self.partitioned = partitioned
        self.partitionKey = partitioned ? partitionKey : nil
        rawValue = nil
    }

    /// The value's bytes, as they are sent.
    public var valueBytes: [UInt8] { rawValue ?? Array(value.utf8) }

    /// Sets the value from bytes, kept as they are where they are not UTF-8.
    public mutating func setValue(bytes: [UInt8]) {
        // The array kept as it is when not UTF-8 (the buffer form would copy it).
        if let text = ValidUTF8.string(bytes) { value = text; rawValue = nil } else {
            value = String(decoding: bytes, as: UTF8.self); rawValue = bytes
        }
    }

    /// `setValue(bytes:)` from bytes where they are (a line of a file): an array is made of
    /// them only when they are not UTF-8.
    package mutating func setValue(bytes: UnsafeBufferPointer<UInt8>) {
        if let text = ValidUTF8.string(bytes) { value = text; rawValue = nil } else {
            value = String(decoding: bytes, as: UTF8.self); rawValue = Array(bytes)
        }
    }

    /// Whether it is kept past the session.
    public var isPersistent: Bool { expires != nil }

    /// Whether it has expired at `now`.
    public func isExpired(at now: Double) -> Bool { expires.map { $0 <= now } ?? false }

    /// `name=value` as a Cookie header carries it (as text).
    public var pair: String { name.isEmpty ? value : "\(name)=\(value)" }

    /// `name=value` as its bytes go on the wire.
    public var pairBytes: [UInt8] {
        var out: [UInt8] = []
        appendPair(to: &out)
        return out
    }

    /// Appends `name=value`'s bytes (the value's as they came), with no copy made of either.
    public func appendPair(to out: inout [UInt8]) {
        withUnsafePointer(to: self) { Self.appendPair(of: $0, to: &out) }
    }

    /// `appendPair` of a cookie read where it is stored (a method call would copy the cookie).
    static func appendPair(of cookie: UnsafePointer<Cookie>, to out: inout [UInt8]) {
        if !cookie.pointee.name.isEmpty { append(cookie.pointee.name, to: &out); out.append(0x3D) }
        if let raw = cookie.pointee.rawValue { out += raw } else { append(cookie.pointee.value, to: &out) }
    }

    // A string's bytes in one copy where they are contiguous (native strings always are).
    private static func append(_ text: String, to out: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil { out += text.utf8 }
    }

    /// The identity a new cookie replaces by (RFC 6265bis §5.7 step 23): name, domain, the
    /// host-only flag and path. A host-only `a` from example.com and `a; Domain=example.com` are
    /// two cookies, as in Chromium and Firefox.
    public var key: CookieKey { CookieKey(name: name, domain: domain, path: path, hostOnly: hostOnly, partitionKey: partitionKey) }

    /// Whether `other`, of the same domain's list, has this cookie's key: `key.matches` without
    /// a key made (and its strings retained) for the comparison.
    @inline(__always)
    func hasSameKey(as other: borrowing Cookie) -> Bool {
        name == other.name && path == other.path && hostOnly == other.hostOnly && partitionKey == other.partitionKey
    }
}

/// Name, domain, host-only flag and path: two cookies with the same key are the same cookie.
public struct CookieKey: Hashable, Sendable {
    /// The cookie's name.
    public let name: String
    /// Its domain, lower case, no leading dot.
    public let domain: String
    /// Its path.
    public let path: String
    /// Whether it is host-only.
    public let hostOnly: Bool
    /// A partitioned cookie's top-level site: the same cookie in two partitions is two cookies.
    public let partitionKey: String?

    /// The key of a cookie with these fields.
    public init(name: String, domain: String, path: String, hostOnly: Bool, partitionKey: String? = nil) {
        self.name = name; self.domain = domain; self.path = path; self.hostOnly = hostOnly; self.partitionKey = partitionKey
    }

    /// Whether `cookie`, found in this key's domain's list, is the cookie of this key.
    public func matches(_ cookie: Cookie) -> Bool {
        cookie.name == name && cookie.path == path && cookie.hostOnly == hostOnly && cookie.partitionKey == partitionKey
    }
}
