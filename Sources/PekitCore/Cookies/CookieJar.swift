/// An RFC 6265 cookie store: §5.3's storage model, §5.4's Cookie header, the public suffix
/// list, SameSite, the `__Secure-`/`__Host-` prefixes, limits with eviction, filters, and a
/// clock the caller can set.
///
/// Cookies are indexed by domain, so a lookup costs O(labels of the host + cookies of those
/// domains), whatever the number of unrelated domains (unless a filter replaces matching).
public final class CookieJar: @unchecked Sendable {
    /// Size limits (RFC 6265 §6.1's minimums, as browsers apply them).
    public struct Limits: Sendable {
        /// The most bytes of a cookie's name and value together (RFC 6265bis: 4096).
        public var maxNameValueBytes = 4096
        /// The most cookies one domain keeps; the least recently used go first.
        public var perDomain = 50
        /// The most cookies the jar keeps.
        public var total = 3000
        /// The largest cookie file `load` reads: 3,000 cookies of 4 KB are 12 MB, so a bigger
        /// file is not a cookie jar, and reading it whole could exhaust memory.
        public var fileBytes = 64 << 20
        /// The browsers' limits.
        public init() {}
    }

    /// How a request is made, for the Cookie header.
    public struct RequestContext: Sendable {
        /// An HTTP request (HttpOnly cookies are sent); false for script access.
        public var http = true
        /// How the request stands to the page it is made for (RFC 6265bis §5.2).
        public enum Site: String, Sendable, CaseIterable {
            /// Same-site: every cookie may go.
            case same = "same-site"
            /// A cross-site top-level navigation: Lax cookies go with a safe method, Strict ones do not.
            case crossNavigation = "cross-site-navigation"
            /// Cross-site: only SameSite=None cookies go.
            case cross = "cross-site"
        }
        /// Same-site (all cookies), a cross-site top-level navigation (not Strict), or cross-site (neither Strict nor Lax).
        public var site = Site.same
        /// The top-level page's URL (CHIPS): a partitioned cookie is stored under its site and sent
        /// only under it. nil: the request's own URL is the top-level one.
        public var topLevel: RequestURL?
        /// The site for cookies (RFC 6265bis §5.2): the URL of the page the request is made for.
        /// When set, `site` is judged for each request from it (`site(for:storing:in:)`), so each
        /// hop of a redirect gets its own; nil: `site` as given.
        public var siteForCookies: RequestURL?
        /// A top-level navigation (with `siteForCookies`): cross-site, it may still send Lax
        /// cookies with a safe method, and may set them.
        public var navigation = false
        /// The request's method (with `siteForCookies`): only a safe one (RFC 9110 §9.2.1) sends
        /// Lax cookies on a cross-site navigation.
        public var method = "GET"
        /// A context; the defaults are a same-site HTTP request at the top level.
        public init(http: Bool = true, site: Site = .same, topLevel: RequestURL? = nil, siteForCookies: RequestURL? = nil,
                    navigation: Bool = false, method: String = "GET") {
            self.http = http; self.site = site; self.topLevel = topLevel
            self.siteForCookies = siteForCookies; self.navigation = navigation; self.method = method
        }
    }

    /// What happened to one Set-Cookie header.
    public enum Outcome: Equatable, Sendable {
        /// Stored, with what was ignored on the way (Chromium's warning reasons).
        case stored(Cookie, warnings: [Warning] = [])
        /// An expired cookie: any old cookie of the same name, domain and path was removed.
        case removed(name: String, count: Int)
        /// Refused: the rule it broke (`CookieRule`, as Lua names it) and why, in words.
        case rejected(name: String, reason: String, rule: CookieRule)
    }

    /// Something ignored in a cookie that was stored: the rule (`attribute-too-long`) and what,
    /// in words.
    public struct Warning: Equatable, Sendable {
        /// The rule (`attribute-too-long`, …).
        public let rule: CookieRule
        /// What was ignored, in words.
        public let reason: String
    }

    // Every property and operation takes the jar's lock, so one jar may be shared by threads and
    // tasks: each operation (a Set-Cookie received, a Cookie header made, a file saved) happens
    // whole, as if the jar were used by one thread. Recursive, since filters and the clock run
    // inside operations and may read the jar.
    let lock = RecursiveLock()
    // The jar's own code, which runs with the lock held, reads these directly: a public getter
    // takes the lock again (a pthread mutex lock and unlock), about ten a received cookie.
    private(set) var storedLimits = Limits()
    private(set) var storedClock: @Sendable () -> Double
    private(set) var storedSuffixes: PublicSuffixList?
    private var storedLoader: (@Sendable () -> PublicSuffixList?)?
    private(set) var storedFilters: [CookieFilter] = []

    /// The limits on cookies and files (RFC 6265bis's at least, browsers' at most).
    public var limits: Limits {
        get { lock.locked { storedLimits } }
        set { lock.locked { storedLimits = newValue } }
    }
    /// Seconds since the epoch; set it to replay old traffic.
    public var clock: @Sendable () -> Double {
        get { lock.locked { storedClock } }
        set { lock.locked { storedClock = newValue } }
    }
    /// nil: no public suffix check (every Domain attribute that domain-matches is accepted),
    /// unless `suffixLoader` gives one.
    public var publicSuffixes: PublicSuffixList? {
        get { lock.locked { storedSuffixes } }
        set { lock.locked { storedSuffixes = newValue; lastSuffixCheck = nil; lastDomainCheck = nil } }
    }
    /// Reads the suffix list the first time a check needs it, when `publicSuffixes` is nil (so a
    /// command that never meets a domain cookie never reads the list).
    public var suffixLoader: (@Sendable () -> PublicSuffixList?)? {
        get { lock.locked { storedLoader } }
        set { lock.locked { storedLoader = newValue } }
    }
    /// The filters every cookie passes through, in order (`CookieFilter`).
    public var filters: [CookieFilter] {
        get { lock.locked { storedFilters } }
        set { lock.locked { storedFilters = newValue } }
    }

    /// How the Cookie header lists the cookies to send (`CookieHeaderRule`): RFC 6265bis's order
    /// (the default, browsers'), or curl's order and caps (`pekit request`, `pekit import curl`).
    public var headerRule: CookieHeaderRule {
        get { lock.locked { storedHeaderRule } }
        set { lock.locked { storedHeaderRule = newValue } }
    }
    @exclusivity(unchecked) var storedHeaderRule = CookieHeaderRule.rfc6265

    /// Keeps cookies as curl's cookie engine does (its -b and -c jars): the Cookie header in
    /// curl's order and caps (`CookieHeaderRule.curl`), a file's name prefixes matched with their
    /// case, and no browser's cap of 50 cookies a domain (the jar's total still caps them).
    public func keepAsCurl() {
        headerRule = .curl
        limits.perDomain = limits.total
    }

    // The jar's storage, read and changed on every cookie received or sent, without the runtime's
    // exclusivity checks (about 20 a received cookie, a tenth of its cost): only the jar's own
    // code touches these, and none holds an access across a call that could reach the jar again
    // (filters and the clock are called with no access open).
    /// Cookies by the domain they are stored under (§5.3 step 11: one list per domain).
    @exclusivity(unchecked) var byDomain: [String: [Cookie]] = [:]
    @exclusivity(unchecked) var storedCount = 0
    @exclusivity(unchecked) var evictedCount = 0
    /// The cookies chosen for one request, kept between requests so that choosing allocates nothing.
    @exclusivity(unchecked) var pickScratch: [Pick] = []
    /// The last Cookie header written, kept for its room.
    @exclusivity(unchecked) var headerScratch: [UInt8] = []
    /// The cookies in the jar.
    public var count: Int { lock.locked { storedCount } }
    /// Cookies removed so far to keep within `limits` (least recently used first).
    public var evicted: Int { lock.locked { evictedCount } }
    @exclusivity(unchecked) private var lastTime = 0.0
    /// While a file loads: where each cookie is in its domain's list, so that a repeated cookie
    /// replaces in place in O(1), and the limits wait until the end (one sort instead of a scan
    /// per cookie: loading N cookies is O(N log N)). See CookieJar+Bulk.swift.
    var bulk: BulkIndex? { didSet { eviction.valid = false } }
    /// What evicts at the total limit without scanning the jar (CookieJar+Eviction.swift).
    @exclusivity(unchecked) var eviction = EvictionIndex()
    /// The jar's own stores and removals by key since it was made or saved by merging
    /// (CookieJar+Changes.swift), and whether a file is loading (which changes nothing).
    @exclusivity(unchecked) var changes: [CookieKey: Change] = [:]
    var loadDepth = 0
    /// Whether stores are written in `changes`: only once the jar loaded a file or saved into one
    /// by merging. Before that every cookie in it is its own, and a merge writes them all: a jar
    /// that is never merged (a crawler's, a script's) keeps no journal of its stores (issue 70).
    var journalsStores = false
    /// A store was made while `journalsStores` was off (so the jar has changes to save).
    var storedUnjournaled = false
    /// The last domain checked against the suffix list, and the answer: a response's cookies
    /// mostly name one Domain, which is then looked up once.
    private var lastSuffixCheck: (domain: String, isSuffix: Bool)?
    /// The last Domain attribute checked for a host, and what it made of the cookie.
    @exclusivity(unchecked) var lastDomainCheck: DomainCheckMemo?
    enum DomainCheck {
        case hostOnly
        case domain(String)
        case rejected(CookieRule, String)
    }
    /// A Domain attribute (lower-cased), the host it came from, and its check: a class, so
    /// that asking it copies nothing (each received cookie with a Domain asks).
    final class DomainCheckMemo {
        let written: String, host: String, check: DomainCheck
        /// `written`'s bytes, when they are all ASCII (nil otherwise: no bytes answer).
        private let ascii: [UInt8]?
        init(written: String, host: String, check: DomainCheck) {
            self.written = written; self.host = host; self.check = check
            ascii = written.utf8.allSatisfy { $0 < 0x80 } ? Array(written.utf8) : nil
        }

        /// Whether `bytes`, lower-cased, are `written` and `host` is this host: ASCII only
        /// (other bytes are lower-cased as Unicode text, which the caller does). Bytes already
        /// in lower case (most Domain attributes) are one memcmp.
        func answers(_ bytes: UnsafeBufferPointer<UInt8>, host: String) -> Bool {
            guard let ascii, ascii.count == bytes.count, let given = bytes.baseAddress else { return false }
            let same = ascii.withUnsafeBufferPointer { mine in
                guard let base = mine.baseAddress else { return true }
                if CLibrary.equal(base, given, count: mine.count) { return true }
                // `written` is ASCII: a byte past it (lower-cased to itself) never equals its byte.
                for i in 0..<mine.count where ASCII.lower(bytes[i]) != mine[i] { return false }
                return true
            }
            return same && host == self.host
        }
    }

    /// A jar on the system clock that checks Domain attributes against the public suffix list
    /// (Debian's file, `PEKIT_PUBLIC_SUFFIX_LIST`), read when a check first needs it.
    public convenience init() {
        self.init(publicSuffixes: nil, clock: { UnixTime.now() })
        suffixLoader = { try? PublicSuffixList.loadFromProcessEnvironment() }
    }

    /// A jar on the clock `clock` (seconds since the epoch), checking Domain attributes against `publicSuffixes` (nil: no check).
    public init(publicSuffixes: PublicSuffixList?, clock: @escaping @Sendable () -> Double) {
        self.storedSuffixes = publicSuffixes
        self.storedClock = clock
    }

    /// The schemeful site of a URL, a partition's key (CHIPS): `https://example.com` for
    /// https://www.example.com/a (the registrable domain; the host itself for an IP address or
    /// when there is no list).
    public func site(of url: RequestURL) -> String {
        lock.lock(); defer { lock.unlock() }
        if publicSuffixes == nil, let loader = suffixLoader { suffixLoader = nil; publicSuffixes = loader() }
        let host = url.host
        let registrable = RequestURL.isIPAddress(host) ? host : publicSuffixes?.registrableDomain(host) ?? host
        return url.scheme + "://" + registrable
    }

    /// Whether `domain` is a public suffix, a trailing dot or not (`com.` is `com`: curl's
    /// CVE-2022-27779); false when there is no list.
    func isPublicSuffix(_ domain: String) -> Bool {
        if storedSuffixes == nil, let loader = storedLoader {
            storedLoader = nil
            publicSuffixes = loader()
        }
        guard let list = storedSuffixes else { return false }
        if let last = lastSuffixCheck, last.domain == domain { return last.isSuffix }
        let answer = list.isPublicSuffix(domain.utf8.last == UInt8(ascii: ".") ? String(domain.dropLast()) : domain)
        lastSuffixCheck = (domain, answer)
        return answer
    }

    /// Strictly increasing times, so that creation order is total even within one clock tick.
    func tick(at now: Double? = nil) -> Double {
        let now = now ?? storedClock()
        lastTime = max(now, lastTime.nextUp)
        return lastTime
    }

    // MARK: Matching (RFC 6265 §5.1.3, §5.1.4)

    /// §5.1.3: identical, or a suffix after a '.' of a host that is not an IP address.
    public static func domainMatches(_ host: String, _ domain: String) -> Bool {
        domainMatches(host, domain, hostIsIP: RequestURL.isIPAddress(host))
    }

    static func domainMatches(_ host: String, _ domain: String, hostIsIP: Bool) -> Bool {
        let hostCount = host.utf8.count, domainCount = domain.utf8.count
        guard hostCount == domainCount || (!hostIsIP && hostCount > domainCount) else { return false }
        // Compared in the strings' own bytes (a generic walk of the UTF-8 views cost more than
        // the rest of storing a cookie).
        var h = host, d = domain
        return h.withUTF8 { hb in
            d.withUTF8 { db in
                let start = hostCount - domainCount
                guard start == 0 || hb[start - 1] == UInt8(ascii: ".") else { return false }
                var i = 0
                while i < domainCount && hb[start + i] == db[i] { i += 1 }
                return i == domainCount
            }
        }
    }

    /// §5.1.4 path-match.
    public static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        // On the strings' own bytes where they are contiguous (always, for native strings).
        let direct = requestPath.utf8.withContiguousStorageIfAvailable { r in
            cookiePath.utf8.withContiguousStorageIfAvailable { c -> Bool in
                guard r.count >= c.count else { return false }
                if r.count == c.count && c.count == 0 { return true }
                if let rb = r.baseAddress, let cb = c.baseAddress, !CLibrary.equal(rb, cb, count: c.count) { return false }
                return r.count == c.count || (c.count > 0 && c[c.count - 1] == UInt8(ascii: "/")) || r[c.count] == UInt8(ascii: "/")
            }
        }
        if let direct, let matched = direct { return matched }
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

    func logicalHost(_ url: RequestURL) throws -> String {
        for filter in storedFilters { if let host = try filter.host?(url) { return host.lowercased() } }
        return url.host
    }

    // MARK: Managing

    /// Every cookie, in domain then path then creation order.
    public var all: [Cookie] { lock.locked { listed(byDomain.keys) } }

    /// The cookies of these domains in `all`'s order: by domain, then path, then creation.
    func listed<Domains: Sequence<String>>(_ domains: Domains) -> [Cookie] {
        domains.sorted().flatMap { domain in
            (byDomain[domain] ?? []).sorted { $0.path != $1.path ? $0.path < $1.path : $0.creation < $1.creation }
        }
    }

    /// Deletes the cookies that would be sent to `url` (all of them, or those named `name`);
    /// returns how many were deleted (the seed's `deleteCookieForURL`).
    @discardableResult
    public func delete(for url: RequestURL, name: String? = nil) throws -> Int {
        lock.lock(); defer { lock.unlock() }
        let host = try logicalHost(url)
        let now = clock()
        let doomed = try all.filter { cookie in
            guard name == nil || cookie.name == name else { return false }
            // Every partition's: deleting for a URL is not a request made under one top-level site.
            return try verdict(cookie, url: url, host: host, now: now, context: RequestContext(), partition: nil).0 == .sent
        }
        for cookie in doomed { remove(cookie.key) }
        return doomed.count
    }

    /// Removes one cookie by name, domain and path; returns whether it was there.
    @discardableResult
    public func remove(_ key: CookieKey) -> Bool {
        lock.lock(); defer { lock.unlock() }
        noteChange(key, .removed)
        return removeCookie(key)
    }

    /// Removes every cookie.
    public func clear() {
        lock.lock(); defer { lock.unlock() }
        for list in byDomain.values { for cookie in list { noteChange(cookie.key, .removed) } }
        byDomain = [:]
        storedCount = 0
        eviction.reset()
    }

    /// Removes expired cookies; returns how many.
    @discardableResult
    public func removeExpired() -> Int {
        lock.lock(); defer { lock.unlock() }
        let now = clock()
        var removed = 0
        // Only the lists with an expired cookie are made again.
        for (domain, list) in byDomain where list.contains(where: { $0.isExpired(at: now) }) {
            let kept = list.filter { !$0.isExpired(at: now) }
            removed += list.count - kept.count
            byDomain[domain] = kept.isEmpty ? nil : kept
        }
        storedCount -= removed
        return removed
    }
}
