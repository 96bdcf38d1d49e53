/// Eviction at the jar's total limit in O(log n) a cookie: expired cookies first, then the least
/// recently used, each found through a lazy min-heap instead of a scan of the whole jar. An
/// entry is pushed when a cookie is stored or sent; one whose cookie has since changed or left is
/// skipped when it comes up, and the heaps are rebuilt when stale entries outnumber the cookies
/// (or after a change not tracked entry by entry: a file loaded, limits enforced in bulk).
struct EvictionIndex {
    /// A cookie by its key, with the time the heap orders it by.
    struct Entry {
        let time: Double
        let domain: String
        let name: String
        let path: String
    }

    var byAccess = MinHeap<Entry> { $0.time < $1.time }
    var byExpiry = MinHeap<Entry> { $0.time < $1.time }
    /// Whether the heaps hold an entry for every cookie (when false, rebuilt before use).
    var valid = false

    mutating func reset() {
        byAccess = MinHeap { $0.time < $1.time }
        byExpiry = MinHeap { $0.time < $1.time }
        valid = false
    }
}

/// A binary min-heap under `less`.
struct MinHeap<Element> {
    private(set) var items: [Element] = []
    let less: (Element, Element) -> Bool

    init(_ less: @escaping (Element, Element) -> Bool) { self.less = less }

    var count: Int { items.count }
    var min: Element? { items.first }

    mutating func push(_ element: Element) {
        items.append(element)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func popMin() -> Element? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return first }
        items[0] = last
        siftDown(from: 0)
        return first
    }

    /// Replaces the contents with `elements`, ordered in O(n).
    mutating func build(_ elements: [Element]) {
        items = elements
        guard items.count > 1 else { return }
        for start in stride(from: items.count / 2 - 1, through: 0, by: -1) { siftDown(from: start) }
    }

    /// Moves the element at `index` down until neither child is less than it.
    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, less(items[left], items[smallest]) { smallest = left }
            if right < items.count, less(items[right], items[smallest]) { smallest = right }
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
        // pays for the heaps, and they are rebuilt in O(n) when the limit is reached again.
        guard count >= limits.total else { eviction.reset(); return }
        eviction.byAccess.push(.init(time: cookie.lastAccess, domain: cookie.domain, name: cookie.name, path: cookie.path))
        if let expires = cookie.expires {
            eviction.byExpiry.push(.init(time: expires, domain: cookie.domain, name: cookie.name, path: cookie.path))
        }
        // Stale entries (cookies sent again, replaced, removed) past the live ones: start afresh.
        if eviction.byAccess.count > 2 * count + 1024 { eviction.valid = false }
    }

    func rebuildEviction() {
        var access: [EvictionIndex.Entry] = [], expiry: [EvictionIndex.Entry] = []
        access.reserveCapacity(count)
        for (domain, list) in byDomain {
            for c in list {
                access.append(.init(time: c.lastAccess, domain: domain, name: c.name, path: c.path))
                if let expires = c.expires { expiry.append(.init(time: expires, domain: domain, name: c.name, path: c.path)) }
            }
        }
        eviction.byAccess.build(access)
        eviction.byExpiry.build(expiry)
        eviction.valid = true
    }

    /// Within `limits.total`: every expired cookie removed (as `removeExpired` would), then the
    /// least recently used, one at a time. O(log n) a cookie removed, amortized.
    func evictOverTotal() {
        guard count > limits.total else { return }
        if !eviction.valid { rebuildEviction() }
        let now = clock()
        while let entry = eviction.byExpiry.min, entry.time <= now {
            eviction.byExpiry.popMin()
            if let i = index(of: entry), byDomain[entry.domain]?[i].expires == entry.time { removeCookie(domain: entry.domain, at: i) }
        }
        while count > limits.total, let entry = eviction.byAccess.popMin() {
            guard let i = index(of: entry), byDomain[entry.domain]?[i].lastAccess == entry.time else { continue }
            removeCookie(domain: entry.domain, at: i)
            evicted += 1
        }
    }

    private func index(of entry: EvictionIndex.Entry) -> Int? {
        byDomain[entry.domain]?.firstIndex { $0.name == entry.name && $0.path == entry.path }
    }

    private func removeCookie(domain: String, at index: Int) {
        byDomain[domain]?.remove(at: index)
        if byDomain[domain]?.isEmpty == true { byDomain[domain] = nil }
        count -= 1
    }
}
