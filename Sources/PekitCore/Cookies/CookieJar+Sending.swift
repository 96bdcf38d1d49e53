/// Choosing the cookies to send: RFC 6265 §5.4, and why each is or is not sent.
extension CookieJar {
    // MARK: Sending (§5.4)

    /// Why a cookie is or is not sent to a URL.
    public struct Verdict: Equatable, Sendable {
        /// The stored cookie.
        public let cookie: Cookie
        /// Whether it goes with the request.
        public let sent: Bool
        /// Why, in words.
        public let reason: String
        /// The rule that decided (`.sent` when it is sent).
        public let rule: SendRule
    }

    /// The verdict for every cookie in the jar (for `explain`), without touching last-access.
    public func explain(_ url: RequestURL, context: RequestContext = RequestContext()) throws -> [Verdict] {
        lock.lock(); defer { lock.unlock() }
        return try verdicts(all, url: url, host: try logicalHost(url), context: context)
    }

    /// The verdicts that concern `url`, for saying on every hop what was sent and what was held
    /// back: every cookie sent, and every other stored under the host or one of its parent
    /// domains (the cookies a reader would ask about), without touching last-access. Only those
    /// domains' cookies are judged, unless a filter's own matching may send any cookie.
    public func explainRelevant(_ url: RequestURL, context: RequestContext = RequestContext()) throws -> [Verdict] {
        lock.lock(); defer { lock.unlock() }
        let host = try logicalHost(url)
        if filters.contains(where: { $0.match != nil }) {
            let domains = Set(candidateDomains(host))
            return try verdicts(all, url: url, host: host, context: context).filter { $0.sent || domains.contains($0.cookie.domain) }
        }
        return try verdicts(listed(candidateDomains(host)), url: url, host: host, context: context)
    }

    private func verdicts(_ cookies: [Cookie], url: RequestURL, host: String, context: RequestContext) throws -> [Verdict] {
        let context = context.resolved(for: url, in: self)
        let now = clock()
        let partition = site(of: context.topLevel ?? url)
        return try cookies.map { cookie in
            let (rule, reason) = try verdict(cookie, url: url, host: host, now: now, context: context, partition: partition)
            return Verdict(cookie: cookie, sent: rule == .sent, reason: reason, rule: rule)
        }
    }

    /// One verdict as a line: `cookie sid: sent: host-only cookie for h, path / matches /`, or why not.
    public static func line(_ verdict: Verdict) -> String {
        "cookie \(verdict.cookie.name.isEmpty ? "(no name)" : verdict.cookie.name): \(verdict.reason)"
    }

    /// What became of one Set-Cookie field, as a line: stored, removed, or refused and by which rule.
    public static func line(_ outcome: Outcome) -> String {
        func named(_ name: String) -> String { name.isEmpty ? "(no name)" : name }
        switch outcome {
        case .stored(let c, let warnings):
            return "Set-Cookie \(named(c.name)): stored for \(c.hostOnly ? "host " : "domain ")\(c.domain), path \(c.path)"
                + warnings.map { " (\($0.rule.rawValue): \($0.reason))" }.joined()
        case .removed(let name, let count): return "Set-Cookie \(named(name)): expired" + (count > 0 ? ", the stored one removed" : ", nothing stored")
        case .rejected(let name, let reason, let rule): return "Set-Cookie \(named(name)): refused (\(rule.rawValue)): \(reason)"
        }
    }

    func verdict(_ cookie: Cookie, url: RequestURL, host: String, now: Double, context: RequestContext, partition: String?) throws -> (SendRule, String) {
        if cookie.isExpired(at: now) { return (.expired, "expired") }
        if let key = cookie.partitionKey, let partition, key != partition { return (.partition, "partition: kept for the top-level site \(key), not \(partition)") }
        let matchers = filters.compactMap { filter in filter.match.map { (filter.name, $0) } }
        if matchers.isEmpty {
            if cookie.hostOnly {
                if host != cookie.domain { return (.hostOnly, "domain: host-only cookie for \(cookie.domain), not \(host)") }
            } else if !Self.domainMatches(host, cookie.domain) {
                return (.domainMismatch, "domain: \(host) does not domain-match \(cookie.domain)")
            }
            if !Self.pathMatches(url.cookiePath, cookie.path) { return (.pathMismatch, "path: \(url.cookiePath) does not path-match \(cookie.path)") }
        } else {
            for (name, match) in matchers where try !match(cookie, url) { return (.filter, "filter: \"\(name)\" does not match") }
        }
        if cookie.secure && !url.isSecureContext { return (.secureOnly, "secure: only sent over https (or loopback)") }
        if cookie.httpOnly && !context.http { return (.httpOnly, "httponly: not for non-HTTP access") }
        switch (cookie.sameSite, context.site) {
        case (.strict?, .cross), (.strict?, .crossNavigation): return (.sameSiteStrict, "samesite: Strict, and the request is cross-site")
        case (.lax?, .cross): return (.sameSiteLax, "samesite: Lax, and the request is a cross-site subresource")
        default: break
        }
        let how = matchers.isEmpty ? (cookie.hostOnly ? "host-only cookie for \(host)" : "\(host) domain-matches \(cookie.domain)") : "matched by the filter"
        return (.sent, "sent: \(how), path \(cookie.path) matches \(url.cookiePath)")
    }

    /// The cookies to send to `url`, in §5.4's order (longer paths first, then earlier
    /// creation); their last-access times are updated.
    public func cookies(for url: RequestURL, context: RequestContext = RequestContext()) throws -> [Cookie] {
        lock.lock(); defer { lock.unlock() }
        let context = context.resolved(for: url, in: self)
        let host = try logicalHost(url)
        let now = tick()
        if filters.contains(where: { $0.match != nil }) {
            // A filter replaces RFC matching: every cookie is a candidate.
            let partition = site(of: context.topLevel ?? url)
            var chosen = try all.filter { try verdict($0, url: url, host: host, now: now, context: context, partition: partition).0 == .sent }
            Self.sortInHeaderOrder(&chosen)
            for cookie in chosen {
                if let i = byDomain[cookie.domain]?.firstIndex(where: cookie.key.matches) {
                    byDomain[cookie.domain]?[i].lastAccess = now
                    if let sent = byDomain[cookie.domain]?[i] { noteForEviction(sent) }
                }
            }
            return chosen
        }
        let picks = pickSendable(url, host: host, context: context, now: now)
        defer { pickScratch = picks }
        return picks.map { byDomain.values[$0.list][$0.index] }
    }

    /// Where one cookie to send is stored, and what its place in the header depends on: the
    /// header is written from the lists themselves, no cookie copied (issue 47).
    struct Pick {
        let list: [String: [Cookie]].Index
        let index: Int
        let pathLength: Int
        let creation: Double
    }

    /// The cookies §5.4 sends to `url` in header order, their last access stamped: only the
    /// domains the host can match, no messages built. Every candidate domain is the host or a
    /// parent of it at a '.', so a domain cookie stored under one domain-matches by
    /// construction; a host-only one needs the host itself. Not for jars with a match filter.
    func pickSendable(_ url: RequestURL, host: String, context: RequestContext, now: Double) -> [Pick] {
        let path = url.cookiePath
        let secure = url.isSecureContext
        // The scratch list of the last request, emptied (its room kept).
        var picks = pickScratch
        pickScratch = []
        picks.removeAll(keepingCapacity: true)
        // The request's partition, worked out only when a partitioned cookie asks (most never do).
        var partition: String?
        forEachCandidateDomain(host) { domain in
            guard let list = byDomain.index(forKey: domain) else { return }
            // Read and stamped in place through the list's buffer (no cookie copied); the
            // dictionary's indices stay valid (no key is added or removed).
            let sendsHostOnly = domain == host
            byDomain.values[list].withUnsafeMutableBufferPointer { cookies in
                guard let first = cookies.baseAddress else { return }
                for i in 0..<cookies.count {
                    // Fields read through the pointer: a method or a copy of the cookie would
                    // retain and release each of its strings.
                    let c = first + i
                    if let expires = c.pointee.expires, expires <= now { continue }
                    if c.pointee.hostOnly && !sendsHostOnly { continue }
                    if c.pointee.secure && !secure || c.pointee.httpOnly && !context.http { continue }
                    if let sameSite = c.pointee.sameSite, sameSite == .strict && context.site != .same || sameSite == .lax && context.site == .cross { continue }
                    if !Self.pathMatches(path, c.pointee.path) { continue }
                    if let key = c.pointee.partitionKey {
                        if partition == nil { partition = site(of: context.topLevel ?? url) }
                        if key != partition { continue }
                    }
                    c.pointee.lastAccess = now
                    picks.append(Pick(list: list, index: i, pathLength: c.pointee.path.utf8.count, creation: c.pointee.creation))
                    if eviction.valid { noteForEviction(c.pointee) }
                }
            }
        }
        if storedHeaderRule == .curl { return curlOrder(picks) }
        // §5.8.3 step 2: longer paths first, then the older.
        picks.sort { a, b in a.pathLength != b.pathLength ? a.pathLength > b.pathLength : a.creation < b.creation }
        return picks
    }

    /// `CookieHeaderRule.curl`'s choice and order of the picks (the 8,190-byte cap is the
    /// header writer's).
    private func curlOrder(_ picks: [Pick]) -> [Pick] {
        var picks = picks
        picks.sort { $0.creation < $1.creation }
        if picks.count > CookieHeaderRule.curlMaxCookies { picks.removeLast(picks.count - CookieHeaderRule.curlMaxCookies) }
        func lengths(_ pick: Pick) -> (domain: Int, name: Int) {
            let cookie = byDomain.values[pick.list][pick.index]
            return (cookie.domain.utf8.count, cookie.name.utf8.count)
        }
        picks.sort { a, b in
            if a.pathLength != b.pathLength { return a.pathLength > b.pathLength }
            let (la, lb) = (lengths(a), lengths(b))
            if la.domain != lb.domain { return la.domain > lb.domain }
            if la.name != lb.name { return la.name > lb.name }
            return a.creation > b.creation
        }
        return picks
    }

    /// Cookies in the order a Cookie header lists them (§5.8.3 step 2): longer paths first,
    /// then the older.
    public static func headerOrder(_ cookies: [Cookie]) -> [Cookie] {
        var sorted = cookies
        sortInHeaderOrder(&sorted)
        return sorted
    }

    /// `headerOrder` in place (paths compared by their bytes' length, as §5.8.3 counts them).
    static func sortInHeaderOrder(_ cookies: inout [Cookie]) {
        cookies.sort { a, b in a.path.utf8.count != b.path.utf8.count ? a.path.utf8.count > b.path.utf8.count : a.creation < b.creation }
    }

    /// The Cookie header value for `url` as its bytes go on the wire (a value that is not UTF-8
    /// as it came), or nil when no cookie is sent.
    public func headerBytes(for url: RequestURL, context: RequestContext = RequestContext()) throws -> [UInt8]? {
        try withHeader(for: url, context: context) { Array($0) }
    }

    /// The Cookie header value for `url` as text (bytes that are not UTF-8 repaired), or nil
    /// when no cookie is sent.
    public func header(for url: RequestURL, context: RequestContext = RequestContext()) throws -> String? {
        try withHeader(for: url, context: context) { String(decoding: $0, as: UTF8.self) }
    }

    /// The header's bytes for `url`, written into a buffer the jar keeps between requests (the
    /// caller makes the one allocation of its result), or nil when no cookie is sent.
    private func withHeader<R>(for url: RequestURL, context: RequestContext, _ body: (UnsafeBufferPointer<UInt8>) -> R) throws -> R? {
        lock.lock(); defer { lock.unlock() }
        var header = headerScratch
        headerScratch = []
        header.removeAll(keepingCapacity: true)
        defer { headerScratch = header }
        if filters.contains(where: { $0.match != nil }) {
            let list = try cookies(for: url, context: context)
            guard !list.isEmpty else { return nil }
            for (i, cookie) in list.enumerated() {
                if i > 0 { header += [0x3B, 0x20] }
                cookie.appendPair(to: &header)
            }
            return header.withUnsafeBufferPointer(body)
        }
        let context = context.resolved(for: url, in: self)
        let picks = pickSendable(url, host: try logicalHost(url), context: context, now: tick())
        defer { pickScratch = picks }
        guard !picks.isEmpty else { return nil }
        let curl = storedHeaderRule == .curl
        for (i, pick) in picks.enumerated() {
            if curl {
                // curl stops at the first pair that would take the header to its cap.
                let cookie = byDomain.values[pick.list][pick.index]
                if header.count + cookie.name.utf8.count + cookie.valueBytes.count + 1 >= CookieHeaderRule.curlMaxHeader { break }
            }
            if i > 0 { header.append(0x3B); header.append(0x20) }
            byDomain.values[pick.list].withUnsafeBufferPointer { list in if let base = list.baseAddress { Cookie.appendPair(of: base + pick.index, to: &header) } }
        }
        return header.withUnsafeBufferPointer(body)
    }
}
