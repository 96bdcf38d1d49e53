/// Storing many cookies at once (a file being loaded): each cookie found again by a hash of its
/// key rather than by string dictionaries, and the limits applied once at the end.
struct BulkIndex {
    /// FNV-1a of a cookie's domain, name and path → its place in its domain's list. Two keys with
    /// the same hash share an entry (the later one's); a place is always checked against the
    /// cookie there, and a mismatch falls back to a scan of the domain's list, so a collision
    /// costs time, never a wrong answer. A hash with no entry belongs to no cookie in the jar.
    var places: [UInt64: Int] = [:]
    /// Each domain as the file writes it → its canonical host and whether that is an IP address
    /// (`checkStorable`'s work, done once a domain a load).
    var hosts: [String: (canonical: String, isIP: Bool)] = [:]

    static func hash(_ cookie: Cookie) -> UInt64 {
        add(cookie.partitionKey ?? "", to: FNV1a.add(cookie.hostOnly ? 1 : 0, to: add(cookie.path, to: add(cookie.name, to: add(cookie.domain, to: FNV1a.basis)))))
    }

    /// The text's bytes and a separator no UTF-8 byte equals, continuing from `h`.
    private static func add(_ text: String, to h: UInt64) -> UInt64 {
        var text = text
        return FNV1a.add(0xFF, to: text.withUTF8 { FNV1a.add($0, to: h) })
    }
}

extension CookieJar {
    /// Stores many cookies (a file being loaded): `body` calls `set`, the limits apply once at
    /// the end, each by one sort. O(N log N) for N cookies.
    func bulkSet(_ body: () throws -> Void) rethrows {
        var index = BulkIndex()
        index.places.reserveCapacity(count)
        for list in byDomain.values {
            for (i, c) in list.enumerated() { index.places[BulkIndex.hash(c)] = i }
        }
        bulk = index
        defer {
            bulk = nil
            enforceAllLimits()
        }
        try body()
    }

    /// `set`'s work while a file loads: the cookie replaces the one with its key where it is, or
    /// joins its domain's list. One string hash (the domain's) and one integer lookup a cookie.
    func storeInBulk(_ cookie: consuming Cookie, _ index: inout BulkIndex) {
        let hash = BulkIndex.hash(cookie)
        guard let slot = byDomain.index(forKey: cookie.domain) else {
            index.places[hash] = 0
            byDomain[cookie.domain] = [cookie]
            storedCount += 1
            return
        }
        // One string for the domain's cookies, not one each.
        cookie.domain = byDomain.keys[slot]
        if let place = index.places[hash] {
            let key = cookie.key
            let same = { (old: Cookie) in key.matches(old) }
            if place < byDomain.values[slot].count && same(byDomain.values[slot][place]) {
                byDomain.values[slot][place] = consume cookie
                return
            }
            if let found = byDomain.values[slot].firstIndex(where: same) {  // a hash shared by two keys
                byDomain.values[slot][found] = consume cookie
                return
            }
        }
        index.places[hash] = byDomain.values[slot].count
        byDomain.values[slot].append(consume cookie)
        storedCount += 1
    }

    /// Every domain within `limits.perDomain` and the jar within `limits.total`, least recently
    /// used first, expired cookies before any other. O(N log N); cookies are neither copied nor
    /// sorted, only their places.
    func enforceAllLimits() {
        if count > limits.total || byDomain.values.contains(where: { $0.count > limits.perDomain }) { removeExpired() }
        var slot = byDomain.startIndex
        while slot != byDomain.endIndex {
            let list = byDomain.values[slot]
            if list.count > limits.perDomain {
                // The most recently used kept, a later place first among equal times.
                let kept = list.indices.sorted { (list[$0].lastAccess, $0) > (list[$1].lastAccess, $1) }
                    .prefix(limits.perDomain).sorted().map { list[$0] }
                evictedCount += list.count - kept.count
                storedCount -= list.count - kept.count
                byDomain.values[slot] = kept
            }
            slot = byDomain.index(after: slot)
        }
        guard count > limits.total else { return }
        // Every cookie's time and place, as plain values: the least recently used go.
        var all: [(lastAccess: Double, domain: Int, place: Int)] = []
        all.reserveCapacity(count)
        var slots: [Dictionary<String, [Cookie]>.Index] = []
        for s in byDomain.indices {
            for (i, c) in byDomain.values[s].enumerated() { all.append((c.lastAccess, slots.count, i)) }
            slots.append(s)
        }
        all.sort { ($0.lastAccess, $0.domain, $0.place) < ($1.lastAccess, $1.domain, $1.place) }
        var drop = slots.map { Array(repeating: false, count: byDomain.values[$0].count) }
        for item in all.prefix(count - limits.total) { drop[item.domain][item.place] = true }
        var emptied: [String] = []
        for (d, s) in slots.enumerated() {
            let dropped = drop[d].lazy.filter { $0 }.count
            guard dropped > 0 else { continue }
            let list = byDomain.values[s]
            let kept = list.indices.filter { !drop[d][$0] }.map { list[$0] }
            if kept.isEmpty { emptied.append(byDomain.keys[s]) } else { byDomain.values[s] = kept }
            evictedCount += dropped
            storedCount -= dropped
        }
        for domain in emptied { byDomain[domain] = nil }
    }
}
