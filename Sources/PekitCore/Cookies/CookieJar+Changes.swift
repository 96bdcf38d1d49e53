/// A jar's own changes since it was made or last saved by merging: what `save(merging:)` applies
/// to the file as it is now, so that processes sharing one jar file keep each other's cookies.
/// Loading a file is not a change (it is what the jar started from); eviction is not either (the
/// jar was full: the file keeps its copy).
extension CookieJar {
    /// A change to the cookie with one key: stored (the jar's copy is written) or removed
    /// (a deletion, an expiring Set-Cookie, `remove`, `clear`).
    enum Change { case stored, removed }

    /// Whether the jar changed since it was made or saved by merging.
    public var hasChanges: Bool { lock.locked { !changes.isEmpty || storedUnjournaled } }

    /// Notes that the cookie with `key` was stored or removed (never while a file loads). A
    /// store is written only once the journal of stores is kept (`journalsStores`): before,
    /// every cookie of the jar is its own change, and `save(mergingInto:)` writes them all.
    @inline(__always)
    func noteChange(_ key: @autoclosure () -> CookieKey, _ change: Change) {
        guard journals(change) else { return }
        record(key(), change)
    }

    /// `noteChange` for a cookie whose key is made only when the journal keeps it: no closure
    /// reads the cookie (a received cookie's store, which runs for each one).
    @inline(__always)
    func noteChange(keyOf cookie: borrowing Cookie, _ change: Change) {
        guard journals(change) else { return }
        record(cookie.key, change)
    }

    /// Whether a change goes into the journal; a store that does not is noted as made.
    @inline(__always)
    private func journals(_ change: Change) -> Bool {
        guard loadDepth == 0 else { return false }
        if change == .stored && !journalsStores { storedUnjournaled = true; return false }
        return true
    }

    private func record(_ key: CookieKey, _ change: Change) {
        changes[key] = change
        // Stored cookies the jar evicted since are no change to write: let them go once the
        // journal outgrows the jar (O(1) amortized a change).
        if changes.count > 2 * max(storedCount, storedLimits.total) + 1024 { pruneChanges() }
    }

    private func pruneChanges() {
        var present = Set<CookieKey>()
        present.reserveCapacity(count)
        for list in byDomain.values { for cookie in list { present.insert(cookie.key) } }
        changes = changes.filter { $0.value == .removed || present.contains($0.key) }
    }

    /// Starts the journal of stores (a file is about to load, or the jar was just merged into
    /// one): the cookies the jar holds are its own until then, and are journaled as stored.
    func startJournalingStores() {
        guard !journalsStores else { return }
        journalsStores = true
        guard storedUnjournaled else { return }
        for list in byDomain.values { for cookie in list where changes[cookie.key] == nil { changes[cookie.key] = .stored } }
        storedUnjournaled = false
    }

    /// The cookie with `key`, if the jar has it.
    func cookie(_ key: CookieKey) -> Cookie? {
        byDomain[key.domain]?.first { key.matches($0) }
    }

    /// Writes `base` (the file as it is now) with this jar's changes applied, and forgets them.
    func applyChanges(to base: CookieJar) {
        for (key, change) in changes {
            switch change {
            case .stored: if let cookie = cookie(key) { try? base.set(cookie) }
            case .removed: base.remove(key)
            }
        }
    }
}
