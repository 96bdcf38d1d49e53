/// Storing cookies: RFC 6265 §5.3, the limits, eviction.
extension CookieJar {
    // MARK: Storing (§5.3)

    /// Stores what `setCookie` says, as received in a response to `url`.
    /// - Parameter setCookie: the Set-Cookie field's value.
    /// - Parameter url: the URL of the request the response answered.
    /// - Parameter http: false for a non-HTTP API (it may not set or replace HttpOnly cookies).
    /// - Parameter site: the response's context: a cross-site one (not a top-level navigation)
    ///   cannot set a SameSite=Lax or Strict cookie (RFC 6265bis §5.7).
    /// - Parameter topLevel: the top-level page's URL (CHIPS): a `Partitioned` cookie is kept
    ///   under its site; nil: `url` is the top-level one.
    public func receive(_ setCookie: String, from url: RequestURL, http: Bool = true, site: RequestContext.Site = .same,
                        topLevel: RequestURL? = nil) throws -> Outcome {
        lock.lock(); defer { lock.unlock() }
        var header = setCookie
        return try header.withUTF8 { try store(bytes: $0, from: url, http: http, site: site, topLevel: topLevel) }
    }

    /// `receive` in a request's context, as `header(for:context:)` takes it: its `http`, its
    /// top-level page, and its site, judged for `url` as a response's (`site(for:storing:in:)`).
    public func receive(bytes: UnsafeBufferPointer<UInt8>, from url: RequestURL, context: RequestContext) throws -> Outcome {
        lock.lock(); defer { lock.unlock() }
        return try store(bytes: bytes, from: url, http: context.http, site: context.site(for: url, storing: true, in: self), topLevel: context.topLevel)
    }

    /// `receive` of a Set-Cookie value's bytes where they are (a script's string, a response's
    /// header): no string is made of the whole value. Bytes that are not UTF-8 are read as
    /// `receive` reads them, each field's replaced as it becomes text.
    public func receive(bytes: UnsafeBufferPointer<UInt8>, from url: RequestURL, http: Bool = true,
                        site: RequestContext.Site = .same, topLevel: RequestURL? = nil) throws -> Outcome {
        lock.lock(); defer { lock.unlock() }
        return try store(bytes: bytes, from: url, http: http, site: site, topLevel: topLevel)
    }

    /// `receive(bytes:…)` with the lock held.
    private func store(bytes: UnsafeBufferPointer<UInt8>, from url: RequestURL, http: Bool, site: RequestContext.Site,
                       topLevel: RequestURL?) throws -> Outcome {
        var domainRange: Range<Int>?
        guard let parsed = SetCookie.parse(bytes, domain: &domainRange) else {
            let setCookie = String(decoding: bytes, as: UTF8.self)
            let name = setCookie.split(separator: ";").first.map { String($0.prefix(40)) } ?? ""
            return .rejected(name: name, reason: "not a cookie: its name and value are both empty (RFC 6265bis section 5.6)", rule: .emptyNameAndValue)
        }
        let name = parsed.name
        func reject(_ rule: CookieRule, _ reason: String) -> Outcome { .rejected(name: name, reason: reason, rule: rule) }
        // One scan of the whole value, eight bytes a step, clears most cookies of every check
        // below (this runs for each one received); only a value it does not clear, a tab in the
        // name (which a cookies.txt line cannot carry) or a long pair is looked at closely.
        let clean = SetCookie.controlCharacter(bytes) == nil
        let size = name.utf8.count + (parsed.rawValue?.count ?? parsed.value.utf8.count)
        if !clean || size > storedLimits.maxNameValueBytes || name.utf8.contains(0x09),
           let (rule, problem) = Cookie.problem(name: name, value: parsed.value, limit: storedLimits.maxNameValueBytes, valueBytes: parsed.rawValue?.count) {
            return reject(rule, problem)
        }
        // In an attribute: the name and value were looked at above, with their own words, so
        // only what follows the first ';' is scanned.
        if !clean {
            let attributes = bytes.firstIndex(of: 0x3B) ?? bytes.count
            if let (at, byte) = SetCookie.controlCharacter(UnsafeBufferPointer(rebasing: bytes[attributes...])) {
                let offset = attributes + at
                return reject(.controlCharacter, "the Set-Cookie value holds control byte 0x\(ASCII.hex(byte)) at byte \(offset) (the whole cookie is ignored, as RFC 6265bis section 5.6 says)")
            }
        }
        let wall = storedClock()
        let now = tick(at: wall)
        let host = try logicalHost(url)
        // The cap counts from the clock's time, not the tie-breaking tick, so that storing the same
        // cookie again (a saved jar loaded back) keeps the same expiry.
        var expires: Double?
        if let maxAge = parsed.maxAge {
            expires = maxAge <= 0 ? -Double.greatestFiniteMagnitude
                : try Cookie.keptExpiry(now + Double(min(maxAge, Int64(1) << 40)), now: wall)
        } else if let seconds = parsed.expires {
            expires = try Cookie.keptExpiry(Double(seconds), now: wall)
        }
        var domainAttribute: String?, domain = host, hostOnly = true
        if let domainRange {
            // A response's cookies mostly name one Domain: the answer for the last one is kept,
            // and the attribute's text is made only when it is another.
            let written = UnsafeBufferPointer(rebasing: bytes[domainRange])
            let memo: DomainCheckMemo
            if let last = lastDomainCheck, last.answers(written, host: host) {
                memo = last
            } else {
                let text = ASCII.lowercased(written)
                memo = DomainCheckMemo(written: text, host: host, check: domainCheck(text, host: host))
                lastDomainCheck = memo
            }
            domainAttribute = memo.written
            switch memo.check {
            case .rejected(let rule, let reason): return reject(rule, reason)
            case .hostOnly: break
            case .domain(let named): (domain, hostOnly) = (named, false)
            }
        }
        // Made once its fields are known: a cookie made and then changed field by field (and
        // across a `try`) was copied on the way.
        var cookie = Cookie(name: name, value: parsed.value, domain: domain, path: parsed.path ?? Self.defaultPath(url.path),
                            expires: expires, creation: now, hostOnly: hostOnly, secure: parsed.secure, httpOnly: parsed.httpOnly,
                            sameSite: parsed.sameSite, partitioned: parsed.partitioned)
        if let raw = parsed.rawValue { cookie.rawValue = raw }
        let secureOrigin = url.isSecureContext
        if let (rule, reason) = Self.brokenRule(cookie, origin: url, pathAttribute: parsed.path, domainAttribute: domainAttribute, http: http, site: site) {
            return reject(rule, reason)
        }
        // CHIPS: a partitioned cookie belongs to the top-level site it was set under.
        if cookie.partitioned { cookie.partitionKey = self.site(of: topLevel ?? url) }
        for filter in storedFilters {
            if let rewrite = filter.rewrite, let changed = try rewrite(cookie, url) { cookie = changed }
            if let accept = filter.accept, try !accept(cookie, url) { return reject(.filter, "refused by the filter \"\(filter.name)\"") }
        }
        // Leave secure cookies alone (RFC 6265bis §5.7 step 16): an insecure origin cannot shadow
        // one whose domain domain-matches the new one's either way (a parent's or a subdomain's).
        if !cookie.secure && !secureOrigin {
            // The fields as their own values: a closure that read `cookie` would make every
            // store keep the cookie in memory rather than in registers, and copy it.
            let (newName, newDomain, newPath) = (cookie.name, cookie.domain, cookie.path)
            let below = "." + newDomain
            let related = cookies(inDomainsOf: newDomain) + byDomain.lazy.filter { $0.key.hasSuffix(below) }.flatMap(\.value)
            let shadowed = related.contains { old in
                old.secure && old.name == newName && (Self.domainMatches(old.domain, newDomain) || Self.domainMatches(newDomain, old.domain))
                    && Self.pathMatches(newPath, old.path)
            }
            if shadowed { return reject(.overwritesSecure, "a Secure cookie of that name exists; an insecure origin cannot replace it") }
        }
        // One dictionary lookup, the domain's list changed where it is: a copy of the list
        // (`var list = byDomain[d]`) would copy every cookie of the domain while the dictionary
        // still holds it.
        let domainCount: Int
        if let slot = byDomain.index(forKey: cookie.domain) {
            // The domain's key shared: one string for all its cookies, not one each.
            cookie.domain = byDomain.keys[slot]
            // Compared field by field, through a pointer: a key made of the cookie's strings
            // (retained, then released) or a closure that captured the cookie (which copied it)
            // was a twentieth of receiving one.
            let found = withUnsafeMutablePointer(to: &cookie) { new in byDomain.values[slot].firstIndex { $0.hasSameKey(as: new.pointee) } }
            if let index = found {
                if byDomain.values[slot][index].httpOnly && !http { return reject(.overwritesHttpOnly, "an HttpOnly cookie of that name exists") }
                cookie.creation = byDomain.values[slot][index].creation
                if cookie.isExpired(at: now) {
                    if byDomain.values[slot].count == 1 { byDomain.remove(at: slot) } else { byDomain.values[slot].remove(at: index) }
                    storedCount -= 1
                    noteChange(keyOf: cookie, .removed)
                    return .removed(name: name, count: 1)
                }
                byDomain.values[slot][index] = cookie
                storedCount -= 1
            } else {
                if cookie.isExpired(at: now) { noteChange(keyOf: cookie, .removed); return .removed(name: name, count: 0) }
                byDomain.values[slot].append(cookie)
            }
            domainCount = byDomain.values[slot].count
        } else {
            if cookie.isExpired(at: now) { noteChange(keyOf: cookie, .removed); return .removed(name: name, count: 0) }
            byDomain[cookie.domain] = [cookie]
            domainCount = 1
        }
        storedCount += 1
        noteForEviction(cookie)
        noteChange(keyOf: cookie, .stored)
        if domainCount > storedLimits.perDomain { enforceLimits(domain: cookie.domain, now: now) } else { evictOverTotal() }
        let warnings = parsed.ignoredAttributes.map {
            Warning(rule: .attributeTooLong, reason: "the \($0) attribute's value is over \(SetCookie.maxAttributeValue) bytes: ignored")
        }
        return .stored(cookie, warnings: warnings)
    }

    /// What a Domain attribute (as parsed: lower-cased, no leading dot) makes of a cookie from
    /// `host`: stored for that domain, for the host only, or refused and why.
    func domainCheck(_ written: String, host: String) -> DomainCheck {
        let hostIsIP = RequestURL.isIPAddress(host)
        // An IPv6 host takes only itself as the URL writes it, in brackets (a leading dot aside),
        // as Chromium compares them (net/cookies/cookie_util.cc, GetCookieDomainWithString: the
        // attribute against GURL's host, "[2606:2800::1]"): `Domain=2606:2800::1` is refused.
        if hostIsIP && host.contains(":") {
            let attribute = written.hasPrefix(".") ? written.dropFirst() : Substring(written)
            guard attribute.lowercased() == "[\(host)]" else {
                return .rejected(.ipAddressDomain, "Domain=\(written) does not match the host [\(host)]: an IPv6 address takes no Domain attribute but itself, in brackets")
            }
            return .hostOnly
        }
        // The Domain attribute is a host as the request's is: 例子.中国 is xn--fsqu00a.xn--fiqs8s,
        // 0x7F.1 is 127.0.0.1 (RFC 6265bis §5.6.2 lower-cases and converts to A-labels).
        var domain: String
        do { domain = try RequestURL.checkedCanonicalHost(written) } catch {
            return .rejected(.invalidDomain, "Domain=\(written) is not a host name: \(error)")
        }
        // Messages name the attribute as written, and the host it is when that differs.
        let shown = written == domain ? domain : "\(written) (\(domain))"
        // An IP address takes no Domain but itself (RFC 6265 §5.1.3: a domain string that is an
        // IP address matches only identically), in any of its written forms.
        if hostIsIP {
            guard RequestURL.canonicalHost(domain) == host else {
                return .rejected(.ipAddressDomain, "Domain=\(shown) does not match the host \(host): an IP address takes no Domain attribute but itself")
            }
            domain = ""
        }
        if !domain.isEmpty, isPublicSuffix(domain) {
            guard domain == host else { return .rejected(.publicSuffix, "Domain=\(shown) is a public suffix") }
            domain = ""
        }
        guard !domain.isEmpty else { return .hostOnly }
        guard Self.domainMatches(host, domain, hostIsIP: hostIsIP) else { return .rejected(.domainMismatch, "Domain=\(shown) does not domain-match the host \(host)") }
        // An IP address is only ever matched exactly.
        return hostIsIP ? .hostOnly : .domain(domain)
    }

    /// Stores a cookie as it is (the non-HTTP `jar:set`, a loaded file), replacing one with the
    /// same key; its expiry is capped at `Cookie.maximumLifetime` from now.
    /// - Throws: `CookieError.invalidCookie` for control bytes in the name or value, a name and
    ///   value over the size limit, or an expiry that is not a number.
    public func set(_ given: consuming Cookie) throws {
        // Taken, not copied (a file's loader passes each cookie on): the copy of a cookie with
        // its seven strings was a tenth of loading a cookies.txt line.
        var cookie = consume given
        lock.lock(); defer { lock.unlock() }
        if let (_, problem) = Cookie.problem(name: cookie.name, value: cookie.value, limit: storedLimits.maxNameValueBytes, valueBytes: cookie.rawValue?.count) {
            throw CookieError.invalidCookie("cookie \"\(String(cookie.name.prefix(40)))\": \(problem)")
        }
        try checkStorable(&cookie)
        let wall = storedClock()
        let now = tick(at: wall)
        cookie.expires = try Cookie.keptExpiry(cookie.expires, now: wall)
        if cookie.creation == 0 || !cookie.creation.isFinite { cookie.creation = now }
        if !cookie.lastAccess.isFinite { cookie.lastAccess = cookie.creation }
        cookie.lastAccess = max(cookie.lastAccess, cookie.creation)
        if var index = bulk {
            // The only reference while it changes: with `bulk` still holding it, each cookie
            // copied the whole index (copy on write), O(N) a cookie.
            bulk = nil
            storeInBulk(consume cookie, &index)
            bulk = index
            return
        }
        // Changed in place, as `receive` does (no copy of the domain's list).
        if let slot = byDomain.index(forKey: cookie.domain),
           let index = byDomain.values[slot].firstIndex(where: cookie.key.matches) {
            byDomain.values[slot].remove(at: index)
            storedCount -= 1
        }
        byDomain[cookie.domain, default: []].append(cookie)
        storedCount += 1
        noteForEviction(cookie)
        noteChange(cookie.key, .stored)
        enforceLimits(domain: cookie.domain, now: now)
    }


    /// The rules a received cookie passes that do not depend on the response's URL, for a cookie
    /// that enters the jar another way (a file, `jar:set`): its domain a host name (canonical: an
    /// IP address only ever matched exactly), no domain cookie for a public suffix (RFC 6265
    /// §5.3 step 5), the `__Secure-` and `__Host-` prefixes (RFC 6265bis §4.1.3), and
    /// `SameSite=None` only with `Secure`.
    /// - Throws: `CookieError.invalidCookie` naming the cookie and the rule.
    func checkStorable(_ cookie: inout Cookie) throws {
        func refuse(_ why: String) -> CookieError { .invalidCookie("cookie \"\(String(cookie.name.prefix(40)))\": \(why)") }
        let domain: String, isIP: Bool
        if let known = bulk?.hosts[cookie.domain] {
            // A file names each domain many times: its canonical form is found once a load.
            (domain, isIP) = known
        } else {
            do { domain = try RequestURL.checkedCanonicalHost(cookie.domain) } catch { throw refuse("the domain \"\(cookie.domain)\" is not a host name: \(error)") }
            isIP = RequestURL.isIPAddress(domain)
            bulk?.hosts[cookie.domain] = (domain, isIP)
        }
        cookie.domain = domain
        // A path is written into cookies.txt as it is: a control character in it is refused,
        // as a received cookie with one is (RFC 6265bis §5.6).
        var path = cookie.path
        if let (offset, byte) = path.withUTF8({ SetCookie.controlCharacter($0) }) {
            throw refuse("the path holds control byte 0x\(ASCII.hex(byte)) at byte \(offset)")
        }
        if cookie.path.utf8.count > SetCookie.maxAttributeValue { throw refuse("the path is over \(SetCookie.maxAttributeValue) bytes") }
        if isIP { cookie.hostOnly = true }
        if !cookie.hostOnly && isPublicSuffix(domain) { throw refuse("the domain \(domain) is a public suffix") }
        // The same rules a received cookie passes, but for those that need a response.
        if let (_, reason) = Self.brokenRule(cookie, origin: nil, http: true, site: .same, prefixesMatchCase: headerRule == .curl) {
            throw refuse(reason)
        }
    }

    func enforceLimits(domain: String, now: Double) {
        if var list = byDomain[domain], list.count > storedLimits.perDomain {
            list.removeAll { $0.isExpired(at: now) }
            while list.count > storedLimits.perDomain, let oldest = list.indices.min(by: { list[$0].lastAccess < list[$1].lastAccess }) {
                list.remove(at: oldest)
                evictedCount += 1
            }
            storedCount -= (byDomain[domain]?.count ?? 0) - list.count
            byDomain[domain] = list
        }
        evictOverTotal()
    }

    /// Cookies stored under `domain` or any of its parent domains.
    func cookies(inDomainsOf host: String) -> [Cookie] {
        candidateDomains(host).flatMap { byDomain[$0] ?? [] }
    }

    func candidateDomains(_ host: String) -> [String] {
        var result: [String] = []
        forEachCandidateDomain(host) { result.append($0) }
        return result
    }

    /// The host itself, then each parent domain at a '.' (none for an IP address), without an
    /// array: what choosing cookies for a request walks.
    func forEachCandidateDomain(_ host: String, _ body: (String) -> Void) {
        body(host)
        // Over the host's bytes: the generic walk of its UTF-8 view was a twentieth of a lookup.
        var text = host
        text.withUTF8 { bytes in
            if RequestURL.isIPAddress(bytes) { return }
            var i = 0
            while i < bytes.count {
                guard bytes[i] == UInt8(ascii: "."), i + 1 < bytes.count else { i += 1; continue }
                i += 1
                body(String(decoding: UnsafeBufferPointer(rebasing: bytes[i...]), as: UTF8.self))
            }
        }
    }
}
