/// A growable array in one block, shared by reference and never copied on write.
///
/// A parser that appends and updates hundreds of thousands of small records pays, with `Array`,
/// a uniqueness check (a runtime call) on every write and a bounds check on every access. This
/// type does neither: indices are trusted (checked in debug builds only), so it is for storage a
/// single owner fills with indices it made itself (`QSTree`'s nodes and slots), never for indices
/// that come from input.
final class FlatArray<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements.
    private(set) var count = 0

    /// An empty array with room for `capacity` elements.
    init(capacity: Int = 16) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// The element at `i` (0 ≤ i < count).
    @inline(__always)
    subscript(i: Int) -> Element {
        get {
            assert(i >= 0 && i < count)
            return base[i]
        }
        _modify {
            assert(i >= 0 && i < count)
            yield &base[i]
        }
    }

    /// Adds `element` at the end; its index. Amortised O(1).
    @inline(__always)
    @discardableResult
    func append(_ element: Element) -> Int {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
        return count - 1
    }

    /// Keeps the first `n` elements (n ≤ count), and the room.
    @inline(__always)
    func removeAll(keepingFirst n: Int = 0) {
        assert(n >= 0 && n <= count)
        (base + n).deinitialize(count: count - n)
        count = n
    }

    /// Room for `n` elements in all, allocated now.
    func reserveCapacity(_ n: Int) {
        if n > capacity { grow(to: n) }
    }

    private func grow(to n: Int) {
        var grown = capacity * 2
        while grown < n { grown *= 2 }
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: grown)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = grown
    }
}
