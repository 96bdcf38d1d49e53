/// Eviction at the jar's total limit in O(log n) a cookie (O(1) for cookies stored and sent in
/// time order, the common case): expired cookies first, then the least recently used, each found
/// through a lazy `TimeQueue` instead of a scan of the whole jar. An
/// entry is pushed when a cookie is stored or sent; one whose cookie has since changed or left is
/// skipped when it comes up, and the queues are rebuilt when stale entries outnumber the cookies
/// (or after a change not tracked entry by entry: a file loaded, limits enforced in bulk).
/// An entry names the cookie's domain and time, not its key: the jar's ticks make each stored
/// or sent time its own, and where times are equal (one header's cookies, a loaded file) any
/// cookie of that time is as least recently used as another. A key of three strings made for
/// every cookie stored at the limit was a sixth of receiving one.
struct EvictionIndex {
    /// A time the queues order by, and the cookie's domain in `domains`.
    struct Entry: Comparable {
        let time: Double
        let key: Int

        /// By time alone (entries of one time: any order).
        static func < (a: Entry, b: Entry) -> Bool { a.time < b.time }
    }

    /// The cookies' domains (the jar's own key strings, shared), each note's once, so that the
    /// queues hold plain values (moving an entry then retains and releases nothing).
    var domains: [String] = []
    /// The cookies the queues were built or noted with: each adds entries no pop removes (an
    /// expiry entry outlives its cookie's eviction), so this bounds the queues' size.
    var noted = 0
    var byAccess = TimeQueue()
    var byExpiry = TimeQueue()
    /// Whether the queues hold an entry for every cookie (when false, rebuilt before use).
    var valid = false

    /// Notes a cookie by its times: its last access, and its expiry when it has one.
    mutating func note(domain: String, lastAccess: Double, expires: Double?) {
        domains.append(domain)
        noted += 1
        byAccess.push(Entry(time: lastAccess, key: domains.count - 1))
        if let expires { byExpiry.push(Entry(time: expires, key: domains.count - 1)) }
    }

    mutating func reset() {
        domains = []
        noted = 0
        byAccess = TimeQueue()
        byExpiry = TimeQueue()
        valid = false
    }
}

/// Entries by their time, the earliest first: those that come in order (a last access is always
/// the jar's newest time; expiries mostly are, under one Max-Age) join a sorted run, taken from
/// its front in O(1); the others go to a heap, O(log n). The earlier of the two fronts is next.
struct TimeQueue {
    private var run: [EvictionIndex.Entry] = []
    private var head = 0
    private var heap = MinHeap()

    var count: Int { run.count - head + heap.count }

    var min: EvictionIndex.Entry? {
        guard head < run.count else { return heap.min }
        guard let other = heap.min, other.time < run[head].time else { return run[head] }
        return other
    }

    mutating func push(_ element: EvictionIndex.Entry) {
        if head == run.count || run[run.count - 1].time <= element.time { run.append(element) } else { heap.push(element) }
    }

    @discardableResult
    mutating func popMin() -> EvictionIndex.Entry? {
        guard head < run.count else { return heap.popMin() }
        if let other = heap.min, other.time < run[head].time { return heap.popMin() }
        let first = run[head]
        head += 1
        // The taken front dropped once it is half the run: O(1) a pop, amortized.
        if head == run.count {
            run.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= run.count {
            run.removeFirst(head)
            head = 0
        }
        return first
    }

    /// Replaces the contents with `elements`, sorted: O(n log n).
    mutating func build(_ elements: [EvictionIndex.Entry]) {
        run = elements
        run.sort()
        head = 0
        heap = MinHeap()
    }
}

/// A binary min-heap of entries by their time.
struct MinHeap {
    private(set) var items: [EvictionIndex.Entry] = []

    var count: Int { items.count }
    var min: EvictionIndex.Entry? { items.first }

    mutating func push(_ element: EvictionIndex.Entry) {
        items.append(element)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].time < items[parent].time else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func popMin() -> EvictionIndex.Entry? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return first }
        items[0] = last
        siftDown(from: 0)
        return first
    }

    /// Moves the element at `index` down until neither child is less than it.
    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left].time < items[smallest].time { smallest = left }
            if right < items.count, items[right].time < items[smallest].time { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

extension CookieJar {
    /// Notes a cookie just stored or sent, so eviction finds it by its new times.
    func noteForEviction(_ cookie: Cookie) {
        guard eviction.valid else { return }
        // Kept only while the jar is at its limit (a crawler's jar): below it, no lookup or store
        // pays for the queues, and they are rebuilt in O(n log n) when the limit is reached again.
        guard storedCount >= storedLimits.total else { eviction.reset(); return }
        eviction.note(domain: cookie.domain, lastAccess: cookie.lastAccess, expires: cookie.expires)
        // Stale entries (cookies sent again, replaced, evicted) past the live ones: start afresh,
        // O(n log n) once per 3n notes. An expiry entry outlives its cookie's eviction, so a jar
        // at its limit would otherwise grow the queues (and each push's cost) without end.
        if eviction.noted > 4 * storedCount + 1024 { eviction.valid = false }
    }

    func rebuildEviction() {
        var access: [EvictionIndex.Entry] = [], expiry: [EvictionIndex.Entry] = [], domains: [String] = []
        access.reserveCapacity(storedCount)
        domains.reserveCapacity(byDomain.count)
        for (domain, list) in byDomain {
            // One domain entry for all of its cookies.
            domains.append(domain)
            for c in list {
                access.append(.init(time: c.lastAccess, key: domains.count - 1))
                if let expires = c.expires { expiry.append(.init(time: expires, key: domains.count - 1)) }
            }
        }
        eviction.domains = domains
        eviction.noted = storedCount
        eviction.byAccess.build(access)
        eviction.byExpiry.build(expiry)
        eviction.valid = true
    }

    /// Within `limits.total`: every expired cookie removed (as `removeExpired` would), then the
    /// least recently used, one at a time. O(log n) a cookie removed, amortized.
    func evictOverTotal() {
        let total = storedLimits.total
        guard storedCount > total else { return }
        if !eviction.valid { rebuildEviction() }
        let now = storedClock()
        while let entry = eviction.byExpiry.min, entry.time <= now {
            eviction.byExpiry.popMin()
            removeCookie(inDomain: eviction.domains[entry.key]) { $0.expires == entry.time }
        }
        var removed = 0
        while storedCount > total, let entry = eviction.byAccess.popMin() {
            if removeCookie(inDomain: eviction.domains[entry.key], where: { $0.lastAccess == entry.time }) { removed += 1 }
        }
        evictedCount += removed
    }

    /// Removes the cookie with `key`; returns whether it was there.
    @discardableResult
    func removeCookie(_ key: CookieKey) -> Bool { removeCookie(inDomain: key.domain, where: key.matches) }

    /// Removes the first cookie of `domain` for which `chosen` holds (for eviction: the one of the
    /// entry's time); returns whether there was one. One dictionary lookup, however it ends: the
    /// domain's list is changed where it is.
    @discardableResult
    func removeCookie(inDomain domain: String, where chosen: (Cookie) -> Bool) -> Bool {
        guard let slot = byDomain.index(forKey: domain) else { return false }
        // No copy of the list is kept (one alive while it changes would copy every cookie in it).
        guard let i = byDomain.values[slot].firstIndex(where: chosen) else { return false }
        if byDomain.values[slot].count == 1 {
            byDomain.remove(at: slot)
        } else {
            byDomain.values[slot].remove(at: i)
        }
        storedCount -= 1
        return true
    }
}
