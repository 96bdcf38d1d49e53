/// A pluggable rule on top of RFC 6265: the URL-matching block of iOS cookie managers made
/// explicit. Every part is optional; several filters stack (all must accept, all must match).
public struct CookieFilter: Sendable {
    /// What messages call the filter (`refused by the filter "no trackers"`).
    public var name: String
    /// The logical host for a URL (HTTPDNS: the name behind an IP address); nil keeps the URL's.
    public var host: (@Sendable (RequestURL) throws -> String?)?
    /// Whether to store a cookie received from `url` (after parsing, before storing).
    public var accept: (@Sendable (Cookie, RequestURL) throws -> Bool)?
    /// Replaces RFC 6265's domain and path matching when set: whether to send `cookie` to `url`.
    public var match: (@Sendable (Cookie, RequestURL) throws -> Bool)?
    /// Changes a cookie before it is stored (nil: unchanged).
    public var rewrite: (@Sendable (Cookie, RequestURL) throws -> Cookie?)?

    /// A filter named `name`; each closure left nil leaves that step to the jar's own rules.
    public init(name: String, host: (@Sendable (RequestURL) throws -> String?)? = nil,
                accept: (@Sendable (Cookie, RequestURL) throws -> Bool)? = nil,
                match: (@Sendable (Cookie, RequestURL) throws -> Bool)? = nil,
                rewrite: (@Sendable (Cookie, RequestURL) throws -> Cookie?)? = nil) {
        self.name = name; self.host = host; self.accept = accept; self.match = match; self.rewrite = rewrite
    }
}
