/// An RFC 6265 cookie store: §5.3's storage model, §5.4's Cookie header, the public suffix
/// list, SameSite, the `__Secure-`/`__Host-` prefixes, limits with eviction, filters, and a
/// clock the caller can set.
///
/// Cookies are indexed by domain, so a lookup costs O(labels of the host + cookies of those
/// domains), whatever the number of unrelated domains (unless a filter replaces matching).
public final class CookieJar {
    /// Size limits (RFC 6265 §6.1's minimums, as browsers apply them).
    public struct Limits: Sendable {
        public var maxNameValueBytes = 4096
        public var perDomain = 50
        public var total = 3000
        /// The largest cookie file `load` reads: 3,000 cookies of 4 KB are 12 MB, so a bigger
        /// file is not a cookie jar, and reading it whole could exhaust memory.
        public var fileBytes = 64 << 20
        public init() {}
    }

    /// How a request is made, for the Cookie header.
    public struct RequestContext: Sendable {
        /// An HTTP request (HttpOnly cookies are sent); false for script access.
        public var http = true
        public enum Site: String, Sendable { case same = "same-site", crossNavigation = "cross-site-navigation", cross = "cross-site" }
        /// Same-site (all cookies), a cross-site top-level navigation (not Strict), or cross-site (neither Strict nor Lax).
        public var site = Site.same
        public init(http: Bool = true, site: Site = .same) { self.http = http; self.site = site }
    }

    /// What happened to one Set-Cookie header.
    public enum Outcome: Equatable, Sendable {
        case stored(Cookie)
        /// An expired cookie: any old cookie of the same name, domain and path was removed.
        case removed(name: String, count: Int)
        case rejected(name: String, reason: String)
    }

    public var limits = Limits()
    /// Seconds since the epoch; set it to replay old traffic.
    public var clock: @Sendable () -> Double
    /// nil: no public suffix check (every Domain attribute that domain-matches is accepted).
    public var publicSuffixes: PublicSuffixList?
    public var filters: [CookieFilter] = []

    private var byDomain: [String: [Cookie]] = [:]
    private(set) public var count = 0
    /// Cookies removed so far to keep within `limits` (least recently used first).
    private(set) public var evicted = 0
    private var lastTime = 0.0

    public init(publicSuffixes: PublicSuffixList?, clock: @escaping @Sendable () -> Double) {
        self.publicSuffixes = publicSuffixes
        self.clock = clock
    }

    /// Strictly increasing times, so that creation order is total even within one clock tick.
    private func tick() -> Double {
        let now = clock()
        lastTime = max(now, lastTime.nextUp)
        return lastTime
    }

    // MARK: Matching (RFC 6265 §5.1.3, §5.1.4)

    /// §5.1.3: identical, or a suffix after a '.' of a host that is not an IP address.
    public static func domainMatches(_ host: String, _ domain: String) -> Bool {
        domainMatches(host, domain, hostIsIP: RequestURL.isIPAddress(host))
    }

    static func domainMatches(_ host: String, _ domain: String, hostIsIP: Bool) -> Bool {
        if host == domain { return true }
        guard !hostIsIP, host.utf8.count > domain.utf8.count else { return false }
        let h = host.utf8, d = domain.utf8
        let start = h.index(h.endIndex, offsetBy: -d.count)
        return h[start...].elementsEqual(d) && h[h.index(before: start)] == UInt8(ascii: ".")
    }

    /// §5.1.4 path-match.
    public static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        let r = requestPath.utf8, c = cookiePath.utf8
        if r.count < c.count || !r.starts(with: c) { return false }
        if r.count == c.count || c.last == UInt8(ascii: "/") { return true }
        return r[r.index(r.startIndex, offsetBy: c.count)] == UInt8(ascii: "/")
    }

    /// §5.1.4 default-path of a request path.
    public static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    private func logicalHost(_ url: RequestURL) throws -> String {
        for filter in filters { if let host = try filter.host?(url) { return host.lowercased() } }
        return url.host
    }

    // MARK: Storing (§5.3)

    /// Stores what `setCookie` says, as received in a response to `url`.
    /// - Parameter http: false for a non-HTTP API (it may not set or replace HttpOnly cookies).
    public func receive(_ setCookie: String, from url: RequestURL, http: Bool = true) throws -> Outcome {
        guard let parsed = SetCookie(setCookie) else {
            let name = setCookie.split(separator: ";").first.map { String($0.prefix(40)) } ?? ""
            return .rejected(name: name, reason: "not a cookie: the name=value part has no '=' or an empty name (RFC 6265 section 5.2)")
        }
        let name = parsed.name
        func reject(_ reason: String) -> Outcome { .rejected(name: name, reason: reason) }
        guard name.utf8.count + parsed.value.utf8.count <= limits.maxNameValueBytes else {
            return reject("name and value are \(name.utf8.count + parsed.value.utf8.count) bytes; the limit is \(limits.maxNameValueBytes)")
        }
        let now = tick()
        let host = try logicalHost(url)
        var cookie = Cookie(name: name, value: parsed.value, domain: host, path: parsed.path ?? Self.defaultPath(url.path),
                            creation: now, hostOnly: true, secure: parsed.secure, httpOnly: parsed.httpOnly,
                            sameSite: parsed.sameSite, partitioned: parsed.partitioned)
        if let maxAge = parsed.maxAge {
            cookie.expires = maxAge <= 0 ? -Double.greatestFiniteMagnitude : now + Double(min(maxAge, Int64(1) << 40))
        } else if let expires = parsed.expires {
            cookie.expires = Double(expires)
        }
        if var domain = parsed.domain {
            if let list = publicSuffixes, list.isPublicSuffix(domain) {
                guard domain == host else { return reject("Domain=\(domain) is a public suffix") }
                domain = ""
            }
            if !domain.isEmpty {
                guard Self.domainMatches(host, domain) else { return reject("Domain=\(domain) does not domain-match the host \(host)") }
                if RequestURL.isIPAddress(host) {
                    cookie.hostOnly = true  // an IP address is only ever matched exactly
                } else {
                    cookie.hostOnly = false
                    cookie.domain = domain
                }
            }
        }
        if cookie.httpOnly && !http { return reject("HttpOnly cookies can only be set over HTTP") }
        let secureOrigin = url.isSecureContext
        let lowerName = name.lowercased()
        if lowerName.hasPrefix("__secure-") && !(cookie.secure && secureOrigin) {
            return reject("a __Secure- cookie needs the Secure attribute and an https origin")
        }
        if lowerName.hasPrefix("__host-") && !(cookie.secure && secureOrigin && cookie.hostOnly && parsed.domain == nil && cookie.path == "/") {
            return reject("a __Host- cookie needs Secure, an https origin, no Domain and Path=/")
        }
        if cookie.secure && !secureOrigin { return reject("Secure cookies can only be set from https (or loopback)") }
        if cookie.sameSite == Cookie.SameSite.none && !cookie.secure { return reject("SameSite=None needs the Secure attribute") }
        for filter in filters {
            if let rewrite = filter.rewrite, let changed = try rewrite(cookie, url) { cookie = changed }
            if let accept = filter.accept, try !accept(cookie, url) { return reject("refused by the filter \"\(filter.name)\"") }
        }
        // Leave secure cookies alone (RFC 6265bis): an insecure origin cannot shadow one.
        if !cookie.secure && !secureOrigin {
            let shadowed = cookies(inDomainsOf: cookie.domain).contains { old in
                old.secure && old.name == cookie.name && (Self.domainMatches(old.domain, cookie.domain) || Self.domainMatches(cookie.domain, old.domain))
                    && Self.pathMatches(cookie.path, old.path)
            }
            if shadowed { return reject("a Secure cookie of that name exists; an insecure origin cannot replace it") }
        }
        var list = byDomain[cookie.domain] ?? []
        if let index = list.firstIndex(where: { $0.name == cookie.name && $0.path == cookie.path }) {
            let old = list[index]
            if old.httpOnly && !http { return reject("an HttpOnly cookie of that name exists") }
            cookie.creation = old.creation
            list.remove(at: index)
            count -= 1
        }
        if cookie.isExpired(at: now) {
            let removed = (byDomain[cookie.domain]?.count ?? 0) - list.count
            byDomain[cookie.domain] = list.isEmpty ? nil : list
            return .removed(name: name, count: removed)
        }
        list.append(cookie)
        byDomain[cookie.domain] = list
        count += 1
        enforceLimits(domain: cookie.domain, now: now)
        return .stored(cookie)
    }

    /// Stores a cookie as it is (the non-HTTP `jar:set`), replacing one with the same key.
    public func set(_ cookie: Cookie) {
        var cookie = cookie
        let now = tick()
        if cookie.creation == 0 { cookie.creation = now }
        cookie.lastAccess = max(cookie.lastAccess, cookie.creation)
        var list = byDomain[cookie.domain] ?? []
        if let index = list.firstIndex(where: { $0.name == cookie.name && $0.path == cookie.path }) {
            list.remove(at: index)
            count -= 1
        }
        list.append(cookie)
        byDomain[cookie.domain] = list
        count += 1
        enforceLimits(domain: cookie.domain, now: now)
    }

    private func enforceLimits(domain: String, now: Double) {
        if var list = byDomain[domain], list.count > limits.perDomain {
            list.removeAll { $0.isExpired(at: now) }
            while list.count > limits.perDomain, let oldest = list.indices.min(by: { list[$0].lastAccess < list[$1].lastAccess }) {
                list.remove(at: oldest)
                evicted += 1
            }
            count -= (byDomain[domain]?.count ?? 0) - list.count
            byDomain[domain] = list
        }
        if count > limits.total {
            removeExpired()
            while count > limits.total, let (domain, index) = leastRecentlyUsed() {
                byDomain[domain]?.remove(at: index)
                if byDomain[domain]?.isEmpty == true { byDomain[domain] = nil }
                count -= 1
                evicted += 1
            }
        }
    }

    private func leastRecentlyUsed() -> (String, Int)? {
        var best: (String, Int, Double)?
        for (domain, list) in byDomain {
            for (i, cookie) in list.enumerated() where cookie.lastAccess < (best?.2 ?? .infinity) { best = (domain, i, cookie.lastAccess) }
        }
        return best.map { ($0.0, $0.1) }
    }

    /// Cookies stored under `domain` or any of its parent domains.
    private func cookies(inDomainsOf host: String) -> [Cookie] {
        candidateDomains(host).flatMap { byDomain[$0] ?? [] }
    }

    private func candidateDomains(_ host: String) -> [String] {
        if RequestURL.isIPAddress(host) { return [host] }
        var result = [host]
        let bytes = Array(host.utf8)
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: ".") && i + 1 < bytes.count {
            result.append(String(decoding: bytes[(i + 1)...], as: UTF8.self))
        }
        return result
    }

    // MARK: Sending (§5.4)

    /// Why a cookie is or is not sent to a URL.
    public struct Verdict: Equatable, Sendable {
        public let cookie: Cookie
        public let sent: Bool
        public let reason: String
    }

    /// The verdict for every cookie in the jar (for `explain`), without touching last-access.
    public func explain(_ url: RequestURL, context: RequestContext = RequestContext()) throws -> [Verdict] {
        let host = try logicalHost(url)
        let now = clock()
        return try all.map { cookie in
            let (sent, reason) = try verdict(cookie, url: url, host: host, now: now, context: context)
            return Verdict(cookie: cookie, sent: sent, reason: reason)
        }
    }

    private func verdict(_ cookie: Cookie, url: RequestURL, host: String, now: Double, context: RequestContext) throws -> (Bool, String) {
        if cookie.isExpired(at: now) { return (false, "expired") }
        let matchers = filters.compactMap { filter in filter.match.map { (filter.name, $0) } }
        if matchers.isEmpty {
            if cookie.hostOnly {
                if host != cookie.domain { return (false, "domain: host-only cookie for \(cookie.domain), not \(host)") }
            } else if !Self.domainMatches(host, cookie.domain) {
                return (false, "domain: \(host) does not domain-match \(cookie.domain)")
            }
            if !Self.pathMatches(url.cookiePath, cookie.path) { return (false, "path: \(url.cookiePath) does not path-match \(cookie.path)") }
        } else {
            for (name, match) in matchers where try !match(cookie, url) { return (false, "filter: \"\(name)\" does not match") }
        }
        if cookie.secure && !url.isSecureContext { return (false, "secure: only sent over https (or loopback)") }
        if cookie.httpOnly && !context.http { return (false, "httponly: not for non-HTTP access") }
        switch (cookie.sameSite, context.site) {
        case (.strict?, .cross), (.strict?, .crossNavigation): return (false, "samesite: Strict, and the request is cross-site")
        case (.lax?, .cross): return (false, "samesite: Lax, and the request is a cross-site subresource")
        default: break
        }
        let how = matchers.isEmpty ? (cookie.hostOnly ? "host-only cookie for \(host)" : "\(host) domain-matches \(cookie.domain)") : "matched by the filter"
        return (true, "sent: \(how), path \(cookie.path) matches \(url.cookiePath)")
    }

    /// The cookies to send to `url`, in §5.4's order (longer paths first, then earlier
    /// creation); their last-access times are updated.
    public func cookies(for url: RequestURL, context: RequestContext = RequestContext()) throws -> [Cookie] {
        let host = try logicalHost(url)
        let now = tick()
        if filters.contains(where: { $0.match != nil }) {
            // A filter replaces RFC matching: every cookie is a candidate.
            var chosen = try all.filter { try verdict($0, url: url, host: host, now: now, context: context).0 }
            chosen.sort { a, b in a.path.count != b.path.count ? a.path.count > b.path.count : a.creation < b.creation }
            for cookie in chosen {
                if let i = byDomain[cookie.domain]?.firstIndex(where: { $0.name == cookie.name && $0.path == cookie.path }) {
                    byDomain[cookie.domain]?[i].lastAccess = now
                }
            }
            return chosen
        }
        // The fast path: only the domains the host can match, no messages built. Every candidate
        // domain is the host or a parent of it at a '.', so a domain cookie stored under one
        // domain-matches by construction; a host-only one needs the host itself.
        let path = url.cookiePath
        let secure = url.isSecureContext
        var chosen: [Cookie] = []
        for domain in candidateDomains(host) {
            // Modified in place (one lookup per domain), last-access set on what is sent.
            byDomain[domain]?.collectSendable(into: &chosen, requestHost: host, listDomain: domain, path: path,
                                              secure: secure, context: context, now: now)
        }
        chosen.sort { a, b in
            a.path.utf8.count != b.path.utf8.count ? a.path.utf8.count > b.path.utf8.count : a.creation < b.creation
        }
        return chosen
    }

    /// The Cookie header value for `url`, or nil when no cookie is sent.
    public func header(for url: RequestURL, context: RequestContext = RequestContext()) throws -> String? {
        let list = try cookies(for: url, context: context)
        guard !list.isEmpty else { return nil }
        var header = ""
        header.reserveCapacity(list.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 3 })
        for (i, cookie) in list.enumerated() {
            if i > 0 { header += "; " }
            if !cookie.name.isEmpty { header += cookie.name; header += "=" }
            header += cookie.value
        }
        return header
    }

    // MARK: Managing

    /// Every cookie, in domain then path then creation order.
    public var all: [Cookie] {
        byDomain.keys.sorted().flatMap { domain in
            byDomain[domain]!.sorted { $0.path != $1.path ? $0.path < $1.path : $0.creation < $1.creation }
        }
    }

    /// Deletes the cookies that would be sent to `url` (all of them, or those named `name`);
    /// returns how many were deleted (the seed's `deleteCookieForURL`).
    @discardableResult
    public func delete(for url: RequestURL, name: String? = nil) throws -> Int {
        let host = try logicalHost(url)
        let now = clock()
        let doomed = try all.filter { cookie in
            guard name == nil || cookie.name == name else { return false }
            return try verdict(cookie, url: url, host: host, now: now, context: RequestContext()).0
        }
        for cookie in doomed { remove(cookie.key) }
        return doomed.count
    }

    /// Removes one cookie by name, domain and path; returns whether it was there.
    @discardableResult
    public func remove(_ key: CookieKey) -> Bool {
        guard let i = byDomain[key.domain]?.firstIndex(where: { $0.name == key.name && $0.path == key.path }) else { return false }
        byDomain[key.domain]?.remove(at: i)
        if byDomain[key.domain]?.isEmpty == true { byDomain[key.domain] = nil }
        count -= 1
        return true
    }

    /// Removes every cookie.
    public func clear() {
        byDomain = [:]
        count = 0
    }

    /// Removes expired cookies; returns how many.
    @discardableResult
    public func removeExpired() -> Int {
        let now = clock()
        var removed = 0
        for (domain, list) in byDomain {
            let kept = list.filter { !$0.isExpired(at: now) }
            removed += list.count - kept.count
            byDomain[domain] = kept.isEmpty ? nil : kept
        }
        count -= removed
        return removed
    }
}

extension Array where Element == Cookie {
    /// Appends the cookies of one domain's list that §5.4 sends, stamping their last access.
    mutating func collectSendable(into chosen: inout [Cookie], requestHost: String, listDomain: String, path: String,
                                  secure: Bool, context: CookieJar.RequestContext, now: Double) {
        for i in indices {
            let c = self[i]
            if c.isExpired(at: now) { continue }
            if c.hostOnly && listDomain != requestHost { continue }
            if !CookieJar.pathMatches(path, c.path) { continue }
            if c.secure && !secure { continue }
            if c.httpOnly && !context.http { continue }
            if c.sameSite == .strict && context.site != .same { continue }
            if c.sameSite == .lax && context.site == .cross { continue }
            self[i].lastAccess = now
            chosen.append(self[i])
        }
    }
}
