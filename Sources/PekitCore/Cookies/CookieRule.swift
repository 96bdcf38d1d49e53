/// Why a cookie is not stored, or what was ignored in one that was (a warning, for
/// `attributeTooLong` on a Set-Cookie field): one case for each rule, named as Chromium's
/// `CookieInclusionStatus` names its exclusion and warning reasons, each citing the part of
/// RFC 6265bis (draft-ietf-httpbis-rfc6265bis) it comes from. Lua and the command line name it by
/// its `rawValue` (`rule = "host-prefix"`, beside the `reason` in words).
public enum CookieRule: String, CaseIterable, Sendable {
    /// Both the name and the value are empty.
    case emptyNameAndValue = "empty-name-and-value"
    /// A control character other than tab, anywhere in the cookie-string.
    case controlCharacter = "control-character"
    /// The name and value together are over the jar's limit (4,096 bytes by default).
    case nameValueTooLong = "name-value-too-long"
    /// An attribute value over 1,024 bytes: a path given to `jar:set` or a file is refused; in a
    /// Set-Cookie field the attribute is ignored and the stored cookie carries this warning.
    case attributeTooLong = "attribute-too-long"
    /// The Domain attribute is not a host name.
    case invalidDomain = "invalid-domain"
    /// The Domain attribute does not domain-match the request's host.
    case domainMismatch = "domain-mismatch"
    /// The Domain attribute is a public suffix.
    case publicSuffix = "public-suffix"
    /// An IP address's cookie names a Domain other than itself.
    case ipAddressDomain = "ip-address-domain"
    /// A non-HTTP API (a script's `jar:set`, `http = false`) set an HttpOnly cookie.
    case httpOnlyFromNonHTTP = "httponly-from-non-http"
    /// `__Secure-` without Secure, or from an origin that is not secure.
    case securePrefix = "secure-prefix"
    /// `__Host-` without Secure, with a Domain, or without an explicit `Path=/`.
    case hostPrefix = "host-prefix"
    /// `__Http-` (or `__Host-Http-`) without Secure and HttpOnly.
    case httpPrefix = "http-prefix"
    /// A cookie with no name whose value starts like a prefixed name (`=__Host-x`).
    case namelessPrefix = "nameless-prefix"
    /// Secure from an origin that is not secure (not https, not loopback).
    case secureFromInsecureOrigin = "secure-from-insecure-origin"
    /// SameSite=None without Secure.
    case sameSiteNoneInsecure = "samesite-none-insecure"
    /// SameSite=Lax or Strict from a response in a cross-site context that is not a top-level navigation.
    case sameSiteCrossSite = "samesite-cross-site"
    /// Partitioned without Secure (CHIPS: a partitioned cookie must be Secure).
    case partitionedInsecure = "partitioned-insecure"
    /// A cookie filter refused it.
    case filter = "filter"
    /// An insecure origin would shadow a Secure cookie of the same name ("leave secure cookies alone").
    case overwritesSecure = "overwrites-secure"
    /// A non-HTTP API would replace an HttpOnly cookie.
    case overwritesHttpOnly = "overwrites-httponly"

    /// Where the rule comes from.
    public var section: String {
        switch self {
        case .emptyNameAndValue: return "RFC 6265bis §5.6 (the name-value pair)"
        case .controlCharacter: return "RFC 6265bis §5.6 (control characters)"
        case .nameValueTooLong: return "RFC 6265bis §5.6 and §6.1 (4,096 bytes)"
        case .attributeTooLong: return "RFC 6265bis §5.6 (attribute values over 1,024 bytes)"
        case .invalidDomain: return "RFC 6265bis §5.6.3 (the Domain attribute)"
        case .domainMismatch, .ipAddressDomain: return "RFC 6265bis §5.7 (domain-match)"
        case .publicSuffix: return "RFC 6265bis §5.7 (public suffixes)"
        case .httpOnlyFromNonHTTP, .overwritesHttpOnly: return "RFC 6265bis §5.7 (the http-only-flag)"
        case .securePrefix, .hostPrefix, .httpPrefix, .namelessPrefix: return "RFC 6265bis §4.1.3 and §5.7 (cookie name prefixes)"
        case .secureFromInsecureOrigin: return "RFC 6265bis §5.7 (the secure-only-flag)"
        case .sameSiteNoneInsecure: return "RFC 6265bis §5.7 (SameSite=None needs Secure)"
        case .sameSiteCrossSite: return "RFC 6265bis §5.7 (same-site cookies set cross-site)"
        case .partitionedInsecure: return "CHIPS (draft-cutler-httpbis-partitioned-cookies): Partitioned needs Secure"
        case .filter: return "pekit: the jar's cookie filters"
        case .overwritesSecure: return "RFC 6265bis §5.7 (leave secure cookies alone)"
        }
    }
}

/// Whether a stored cookie is sent to a request, and if not, why: one case for each rule of
/// RFC 6265bis §5.8.3 (retrieval) and CHIPS, named in Lua as `CookieRule`'s are
/// (`jar:explain`'s `rule`).
public enum SendRule: String, CaseIterable, Sendable {
    /// Sent.
    case sent = "sent"
    /// Expired, and not sent (it is removed).
    case expired = "expired"
    /// A partitioned cookie kept for another top-level site.
    case partition = "partition"
    /// A host-only cookie for another host.
    case hostOnly = "host-only"
    /// The request's host is not the cookie's domain nor below it.
    case domainMismatch = "domain-mismatch"
    /// The request's path is not under the cookie's path.
    case pathMismatch = "path-mismatch"
    /// A filter's own matching said no.
    case filter = "filter"
    /// Secure, and the request is not over https (or loopback).
    case secureOnly = "secure-only"
    /// HttpOnly, and the read is not HTTP.
    case httpOnly = "httponly"
    /// SameSite=Strict, and the request is cross-site.
    case sameSiteStrict = "samesite-strict"
    /// SameSite=Lax (or none given), and the request is cross-site and not a safe top-level navigation.
    case sameSiteLax = "samesite-lax"
}

/// A cookie on its way into the jar, with what the storage rules read besides the cookie: how it
/// came (a response to `origin`, or a file or `jar:set`, with no origin), whether through HTTP,
/// the attributes as written, and the context of the response.
struct StorageCandidate {
    var cookie: Cookie
    /// The response's URL; nil for a cookie from a file or `jar:set`.
    let origin: RequestURL?
    /// Set-Cookie's Path and Domain attributes as written (nil: absent). A file's cookie has no
    /// attributes: its path is taken as written.
    let pathAttribute: String?
    let domainAttribute: String?
    let http: Bool
    let site: CookieJar.RequestContext.Site
    /// The name prefixes are matched with their case (`__secure-x` is no `__Secure-` cookie): curl
    /// reads a file's cookies so since 2026 (commit fdd6ba35, its test 2311), for its -b jars.
    var prefixesMatchCase = false

    /// The prefix of the cookie's name, as this candidate matches them.
    var namePrefix: Cookie.NamePrefix? { Cookie.namePrefix(cookie.name, matchingCase: prefixesMatchCase) }

    /// The path as its attributes gave it: `__Host-` needs an explicit `Path=/`.
    var explicitPath: String? { origin == nil ? cookie.path : pathAttribute }
}

extension CookieJar {
    /// The rules on a cookie's flags and name, in the order a refusal is reported, for every way
    /// a cookie enters the jar (Set-Cookie, files, `jar:set`): each gives its rule and why when
    /// the cookie breaks it. A new rule is one row here and one test.
    static let storageRules: [(rule: CookieRule, check: @Sendable (StorageCandidate) -> String?)] = [
        (.httpOnlyFromNonHTTP, { c in c.cookie.httpOnly && !c.http ? "HttpOnly cookies can only be set over HTTP" : nil }),
        (.securePrefix, { c in
            guard c.namePrefix == .secure else { return nil }
            if c.origin == nil { return c.cookie.secure ? nil : "a __Secure- cookie needs the Secure attribute" }
            return c.cookie.secure && c.origin?.isSecureContext == true ? nil : "a __Secure- cookie needs the Secure attribute and an https origin"
        }),
        (.hostPrefix, { c in
            guard let prefix = c.namePrefix, prefix == .host || prefix == .hostHTTP else { return nil }
            if c.origin == nil {
                return c.cookie.secure && c.cookie.hostOnly && c.cookie.path == "/" ? nil : "a __Host- cookie needs Secure, no Domain (host-only) and Path=/"
            }
            let ok = c.cookie.secure && c.origin?.isSecureContext == true && c.cookie.hostOnly && c.domainAttribute == nil && c.explicitPath == "/"
            return ok ? nil : "a __Host- cookie needs Secure, an https origin, no Domain and an explicit Path=/"
        }),
        (.httpPrefix, { c in
            guard let prefix = c.namePrefix, prefix == .http || prefix == .hostHTTP else { return nil }
            return c.cookie.secure && c.cookie.httpOnly ? nil : "a __Http- cookie needs Secure and HttpOnly"
        }),
        (.namelessPrefix, { c in
            c.cookie.name.isEmpty && Cookie.namePrefix(c.cookie.value, matchingCase: c.prefixesMatchCase) != nil
                ? "a cookie with no name cannot have a value that starts like a prefixed name (\(c.cookie.value.prefix(13))…)" : nil
        }),
        (.secureFromInsecureOrigin, { c in
            c.cookie.secure && c.origin.map({ !$0.isSecureContext }) == true ? "Secure cookies can only be set from https (or loopback)" : nil
        }),
        (.sameSiteNoneInsecure, { c in c.cookie.sameSite == Cookie.SameSite.none && !c.cookie.secure ? "SameSite=None needs the Secure attribute" : nil }),
        (.partitionedInsecure, { c in c.cookie.partitioned && !c.cookie.secure ? "a Partitioned cookie needs the Secure attribute" : nil }),
        (.sameSiteCrossSite, { c in
            guard c.site == .cross, let sameSite = c.cookie.sameSite, sameSite != .none else { return nil }
            return "a SameSite=\(sameSite.rawValue) cookie cannot be set by a response in a cross-site context (only by a same-site one or a top-level navigation)"
        }),
    ]

    /// The first storage rule a cookie breaks, and why, for the candidate these make. Most
    /// cookies break no rule, and asking each row costs a call and a copy of the cookie for
    /// nine rows (a seventh of loading a cookies.txt line): the candidate is made and the rows
    /// asked only when `mayBreakARule` finds what some row needs to refuse a cookie.
    static func brokenRule(_ cookie: borrowing Cookie, origin: RequestURL?, pathAttribute: String? = nil, domainAttribute: String? = nil,
                           http: Bool, site: CookieJar.RequestContext.Site, prefixesMatchCase: Bool = false) -> (rule: CookieRule, reason: String)? {
        guard mayBreakARule(cookie: cookie, origin: origin, http: http, site: site) else { return nil }
        var candidate = StorageCandidate(cookie: copy cookie, origin: origin, pathAttribute: pathAttribute, domainAttribute: domainAttribute, http: http, site: site)
        candidate.prefixesMatchCase = prefixesMatchCase
        return brokenRuleOfRows(candidate)
    }

    /// The first storage rule `candidate` breaks, asking every row: the reference `brokenRule`
    /// is held to (`FastPathDifferentialTests`, on random candidates).
    static func brokenRuleOfRows(_ candidate: StorageCandidate) -> (rule: CookieRule, reason: String)? {
        for (rule, check) in storageRules { if let reason = check(candidate) { return (rule, reason) } }
        return nil
    }

    /// False only when no row of `storageRules` can refuse such a cookie: each row needs one of
    /// these (a new row adds its own here).
    static func mayBreakARule(cookie c: borrowing Cookie, origin: RequestURL?, http: Bool, site: CookieJar.RequestContext.Site) -> Bool {
        if c.httpOnly && !http { return true }                                  // HttpOnly from non-HTTP
        if c.name.utf8.first.map({ $0 == 0x5F }) ?? true { return true }       // "__" prefixes; no name
        if !c.secure && (c.sameSite == Cookie.SameSite.none || c.partitioned) { return true }
        if c.secure, let origin, !origin.isSecureContext { return true }
        return site == .cross                                                    // SameSite set cross-site
    }
}
