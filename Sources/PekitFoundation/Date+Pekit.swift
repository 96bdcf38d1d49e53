import Foundation
import PekitCore

// PekitCore keeps instants as seconds since 1970 (UTC), as it has no Foundation: these are the
// same values as `Date`s, for Swift code that has them.

extension CookieJar {
    /// A jar whose clock is `now` (replaying old traffic, tests), checking Domain attributes
    /// against `publicSuffixes` (nil: no check).
    public convenience init(publicSuffixes: PublicSuffixList?, now: @escaping @Sendable () -> Date) {
        self.init(publicSuffixes: publicSuffixes, clock: { now().timeIntervalSince1970 })
    }

    /// The jar's time now.
    public var now: Date { Date(timeIntervalSince1970: clock()) }
}

extension Cookie {
    /// When the cookie expires; nil: a session cookie.
    public var expiresDate: Date? {
        get { expires.map(Date.init(timeIntervalSince1970:)) }
        set { expires = newValue?.timeIntervalSince1970 }
    }

    /// When the jar first stored the cookie (RFC 6265 §5.3 step 11: kept when it is replaced).
    public var creationDate: Date {
        get { Date(timeIntervalSince1970: creation) }
        set { creation = newValue.timeIntervalSince1970 }
    }

    /// When the jar last sent or stored the cookie.
    public var lastAccessDate: Date {
        get { Date(timeIntervalSince1970: lastAccess) }
        set { lastAccess = newValue.timeIntervalSince1970 }
    }
}
