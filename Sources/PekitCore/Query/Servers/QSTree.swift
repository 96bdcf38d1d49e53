
/// The tree qs's fast path builds, in a few flat arrays instead of one object per map, list and
/// string: a parse of a large query then costs a handful of allocations rather than several per
/// parameter. Decoded keys and values live in one byte arena; maps and lists are `Node`s whose
/// children are `Slot`s chained in the order added; a node with many children is also found
/// through one hash index shared by the whole tree. `walk(into:sparse:)` hands the result to a
/// `QueryTreeSink` (`value(sparse:)` is the walk into a `PekitValueSink`).
struct QSTree {
    /// What a slot holds.
    enum Content {
        case string(start: Int32, count: Int32)
        case null
        /// Several values of one repeated key (`[].concat`), in `lists`.
        case list(Int32)
        case node(Int32)

        static func string(_ start: Int, _ count: Int) -> Content { .string(start: Int32(truncatingIfNeeded: start), count: Int32(truncatingIfNeeded: count)) }
        static func node(_ n: Int) -> Content { .node(Int32(truncatingIfNeeded: n)) }
    }

    struct Node {
        let isArray: Bool
        var head = -1, tail = -1
        var count = 0
        /// Lists: the highest index + 1 (holes included).
        var length = 0
        /// Lists: children were added in ascending index order.
        var ascending = true
        /// Maps: a key is an array index (JavaScript lists those first).
        var hasIndexKey = false
        /// Children are in the hash index.
        var hashed = false
        /// The raw key of the only piece that has filled this list with `[]` (lowerBound −1: none).
        var appendOwner = -1 ..< -1
        init(isArray: Bool) { self.isArray = isArray }
    }

    /// 32-bit fields (the fast path takes queries under 1 GB) keep a slot to 40 bytes.
    struct Slot {
        var next: Int32 = -1
        let parent: Int32
        /// Maps: the key in `text`; lists: the index.
        let keyStart: Int32, keyCount: Int32
        let ownerStart: Int32, ownerEnd: Int32
        var hash: Int32 = 0
        var content: Content

        init(parent: Int, keyStart: Int, keyCount: Int, content: Content, owner: Range<Int>) {
            self.parent = Int32(truncatingIfNeeded: parent)
            self.keyStart = Int32(truncatingIfNeeded: keyStart)
            self.keyCount = Int32(truncatingIfNeeded: keyCount)
            ownerStart = Int32(truncatingIfNeeded: owner.lowerBound)
            ownerEnd = Int32(truncatingIfNeeded: owner.upperBound)
            self.content = content
        }

        var key: (start: Int, count: Int) { (Int(keyStart), Int(keyCount)) }
        var index: Int { Int(keyStart) }
        /// The raw key of the piece that set a value.
        var owner: Range<Int> { Int(ownerStart)..<Int(ownerEnd) }
        var following: Int { Int(next) }
    }

    /// Largest query the tree takes (its offsets are 32-bit).
    static let maximumInput = 1 << 30

    let text = ByteArena()
    /// Nodes and slots are written a dozen times a parameter: `FlatArray`s, with no
    /// copy-on-write check on each write (a tenth of a parse, as `Array`s).
    let nodes = FlatArray<Node>(capacity: 64)
    let slots = FlatArray<Slot>(capacity: 64)
    var lists: [[Content]] = []
    /// Open addressing: slot number + 1, 0 when free.
    private var index: [Int32] = []
    private var indexed = 0

    init() {
        nodes.append(Node(isArray: false))
    }

    /// Room for a query of about `pieces` parameters in `bytes` bytes (each parameter adds a
    /// slot, and about one in three a node; the decoded text is never longer than the query).
    mutating func reserve(pieces: Int, bytes: Int) {
        slots.reserveCapacity(pieces + pieces / 4)
        nodes.reserveCapacity(pieces / 2)
        _ = text.reserve(min(pieces * 16, bytes))
    }

    // MARK: lookup

    /// A 32-bit hash (what a slot keeps) of a key in map `node`, seeded per process by `Hasher`.
    private static func hash(_ node: Int, _ key: UnsafeRawBufferPointer) -> Int32 {
        var hasher = Hasher()
        hasher.combine(node)
        hasher.combine(bytes: key)
        return Int32(truncatingIfNeeded: hasher.finalize())
    }

    private static func hash(_ node: Int, index: Int) -> Int32 {
        var hasher = Hasher()
        hasher.combine(node)
        hasher.combine(index)
        hasher.combine(0xA5)
        return Int32(truncatingIfNeeded: hasher.finalize())
    }

    private func start(_ h: Int32) -> Int { Int(UInt32(bitPattern: h)) & (index.count - 1) }

    /// The child of map `node` named `key`.
    func find(_ node: Int, _ key: UnsafeBufferPointer<UInt8>) -> Int? {
        if nodes[node].hashed {
            let h = Self.hash(node, UnsafeRawBufferPointer(key))
            var p = start(h)
            while index[p] != 0 {
                let s = Int(index[p] - 1)
                if slots[s].hash == h, slots[s].parent == node, text.equals(slots[s].key, key) { return s }
                p = (p + 1) & (index.count - 1)
            }
            return nil
        }
        var s = nodes[node].head
        while s >= 0 {
            if text.equals(slots[s].key, key) { return s }
            s = slots[s].following
        }
        return nil
    }

    /// The element of list `node` at `i` (nil for a hole or past the end).
    func find(_ node: Int, index i: Int) -> Int? {
        guard i < nodes[node].length else { return nil }
        if nodes[node].hashed {
            let h = Self.hash(node, index: i)
            var p = start(h)
            while index[p] != 0 {
                let s = Int(index[p] - 1)
                if slots[s].hash == h, slots[s].parent == node, slots[s].index == i { return s }
                p = (p + 1) & (index.count - 1)
            }
            return nil
        }
        var s = nodes[node].head
        while s >= 0 {
            if slots[s].index == i { return s }
            s = slots[s].following
        }
        return nil
    }

    // MARK: building

    func newNode(isArray: Bool) -> Int {
        nodes.append(Node(isArray: isArray))
    }

    /// Adds `content` to map `node` under `key`.
    mutating func add(_ node: Int, key: UnsafeBufferPointer<UInt8>, _ content: Content, owner: Range<Int>) {
        if !nodes[node].hasIndexKey, jsArrayIndex(key) != nil { nodes[node].hasIndexKey = true }
        let start = text.append(key)
        link(node, Slot(parent: node, keyStart: start, keyCount: key.count, content: content, owner: owner))
    }

    /// Puts `content` at `i` of list `node` (a hole or past the end).
    mutating func set(_ node: Int, index i: Int, _ content: Content, owner: Range<Int>) {
        if nodes[node].tail >= 0, slots[nodes[node].tail].index > i { nodes[node].ascending = false }
        nodes[node].length = max(nodes[node].length, i + 1)
        link(node, Slot(parent: node, keyStart: i, keyCount: 0, content: content, owner: owner))
    }

    private mutating func link(_ node: Int, _ slot: Slot) {
        let s = slots.append(slot)
        if nodes[node].tail >= 0 { slots[nodes[node].tail].next = Int32(truncatingIfNeeded: s) } else { nodes[node].head = s }
        nodes[node].tail = s
        nodes[node].count += 1
        if nodes[node].hashed {
            enter(s)
        } else if nodes[node].count > 8 {
            nodes[node].hashed = true
            var c = nodes[node].head
            while c >= 0 { enter(c); c = slots[c].following }
        }
    }

    private mutating func enter(_ s: Int) {
        if (indexed + 1) * 2 > index.count { grow() }
        let node = Int(slots[s].parent)
        let h = nodes[node].isArray ? Self.hash(node, index: slots[s].index)
            : text.withBytes(slots[s].key) { Self.hash(node, UnsafeRawBufferPointer($0)) }
        slots[s].hash = h
        place(s)
        indexed += 1
    }

    private mutating func place(_ s: Int) {
        var p = start(slots[s].hash)
        while index[p] != 0 { p = (p + 1) & (index.count - 1) }
        index[p] = Int32(truncatingIfNeeded: s + 1)
    }

    private mutating func grow() {
        let old = index
        index = Array(repeating: 0, count: max(64, old.count * 2))
        for entry in old where entry != 0 { place(Int(entry - 1)) }
    }

    /// `[].concat(a, b)` for two values of one key.
    mutating func combine(_ s: Int, _ value: Content) {
        if case .list(let l) = slots[s].content { lists[Int(l)].append(value); return }
        lists.append([slots[s].content, value])
        slots[s].content = .list(Int32(truncatingIfNeeded: lists.count - 1))
    }

    // MARK: output

    /// The children of `node` in the order qs's object lists them: lists by index, maps with
    /// array-index names first (ascending), then the rest as added.
    func children(_ node: Int) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(nodes[node].count)
        var s = nodes[node].head
        while s >= 0 { out.append(s); s = slots[s].following }
        if nodes[node].isArray {
            out.sort { slots[$0].index < slots[$1].index }
        } else {
            let indices = out.map { s in text.withBytes(slots[s].key) { jsArrayIndex($0) } }
            let named = zip(out, indices).compactMap { s, i in i.map { (s, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
            out = named + zip(out, indices).filter { $0.1 == nil }.map(\.0)
        }
        return out
    }

    /// Calls `body` with each child of `node` in qs's order (the chain itself unless reordered).
    @inline(__always)
    func forEachChild(_ node: Int, _ body: (Int) -> Void) {
        if nodes[node].isArray ? nodes[node].ascending : !nodes[node].hasIndexKey {
            var s = nodes[node].head
            while s >= 0 { body(s); s = slots[s].following }
        } else {
            for s in children(node) { body(s) }
        }
    }

    /// The result as a value; `sparse` keeps a list's holes as nulls.
    func value(sparse: Bool) -> PekitValue {
        var sink = PekitValueSink(strings: slots.count)
        walk(into: &sink, sparse: sparse)
        return sink.result
    }

    /// Hands the result to `sink` from the top down, without building a `PekitValue`.
    func walk<Sink: QueryTreeSink>(into sink: inout Sink, sparse: Bool) {
        walk(.node(0), into: &sink, sparse: sparse)
    }

    private func walk<Sink: QueryTreeSink>(_ content: Content, into sink: inout Sink, sparse: Bool) {
        if sink.exhausted { return }  // out of memory: the caller reports it
        switch content {
        case .string(let start, let count): text.withBytes((Int(start), Int(count))) { sink.string($0) }
        case .null: sink.null()
        case .list(let l):
            sink.beginList(count: lists[Int(l)].count)
            for (i, item) in lists[Int(l)].enumerated() { walk(item, into: &sink, sparse: sparse); sink.setElement(i + 1) }
            sink.endList()
        case .node(let n32):
            let n = Int(n32)
            if nodes[n].isArray {
                sink.beginList(count: sparse ? nodes[n].length : nodes[n].count)
                var position = 0
                forEachChild(n) { s in
                    if sparse { while position < slots[s].index, !sink.exhausted { position += 1; sink.null(); sink.setElement(position) } }
                    walk(slots[s].content, into: &sink, sparse: sparse)
                    position += 1
                    sink.setElement(position)
                }
                if sparse { while position < nodes[n].length, !sink.exhausted { position += 1; sink.null(); sink.setElement(position) } }
                sink.endList()
            } else {
                sink.beginMap(count: nodes[n].count)
                forEachChild(n) { s in
                    text.withBytes(slots[s].key) { sink.key($0) }
                    walk(slots[s].content, into: &sink, sparse: sparse)
                    sink.setField()
                }
                sink.endMap()
            }
        }
    }
}

/// Receives a parsed query from the top down, as a stack machine: a container is begun, then
/// each of its children is given (a map's key first) and set into it. The Lua bridge builds Lua
/// tables this way straight from the parser's tree.
public protocol QueryTreeSink {
    /// A string value.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>)
    /// A null value (`strictNullHandling`, a sparse list's hole).
    mutating func null()
    /// Starts a list of `count` elements; each is followed by `setElement`.
    mutating func beginList(count: Int)
    /// Sets the value just given as element `position` (from 1) of the list being built.
    mutating func setElement(_ position: Int)
    /// Ends the list begun last.
    mutating func endList()
    /// Starts a map of `count` entries; each is a `key`, a value, then `setField`.
    mutating func beginMap(count: Int)
    /// The key of the next entry.
    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Sets the key and value just given into the map being built.
    mutating func setField()
    /// Ends the map begun last.
    mutating func endMap()
    /// Whether the sink ran out of memory (its `MemoryBudget`): the walk stops.
    var exhausted: Bool { get }
}

extension QueryTreeSink {
    public var exhausted: Bool { false }
}

/// Builds a `PekitValue` from a walk: one open list or map per level, the last value given
/// waiting to be set into it.
struct PekitValueSink: QueryTreeSink {
    private var lists: [[PekitValue]] = []
    private var maps: [[PekitMap.Entry]] = []
    private var keys: [ByteString] = []
    private var last = PekitValue.null
    private var shared: ByteStringCache

    /// A sink for a walk that gives about `strings` keys and values.
    init(strings: Int) { shared = ByteStringCache(expected: strings) }

    /// The value of the whole walk: the container or value it gave last.
    var result: PekitValue { last }

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) { last = .string(shared.string(bytes)) }
    mutating func null() { last = .null }
    private(set) var exhausted = false
    mutating func beginList(count: Int) {
        lists.append([])
        // A sparse list is as long as its highest index, whatever the input's length.
        guard MemoryBudget.allows(count &* MemoryLayout<PekitValue>.stride) else { exhausted = true; return }
        lists[lists.count - 1].reserveCapacity(count)
    }
    /// The last value, moved out (a copy would retain it, and overwriting `last` later release it).
    private mutating func takeLast() -> PekitValue {
        var value = PekitValue.null
        swap(&value, &last)
        return value
    }
    mutating func setElement(_ position: Int) { lists[lists.count - 1].append(takeLast()) }
    mutating func endList() { last = .array(lists.removeLast()) }
    mutating func beginMap(count: Int) {
        maps.append([])
        maps[maps.count - 1].reserveCapacity(count)
    }
    mutating func key(_ bytes: UnsafeBufferPointer<UInt8>) { keys.append(shared.string(bytes)) }
    mutating func setField() { maps[maps.count - 1].append(.init(key: keys.removeLast(), value: takeLast())) }
    mutating func endMap() { last = .map(PekitMap(ordered: maps.removeLast())) }
}

/// Bytes appended to one growing buffer and read back by offset.
final class ByteArena {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 4096) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Room for `n` more bytes at `count`; returns where to write them.
    func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if count + n > capacity {
            var grown = capacity * 2
            while grown < count + n { grown *= 2 }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            bigger.update(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity = grown
        }
        return base + count
    }

    /// Forgets the contents, keeping the room.
    func reset() { count = 0 }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Marks `n` reserved bytes as written.
    func commit(_ n: Int) { count += n }

    /// Appends `bytes`; returns their offset.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let start = count
        if let source = bytes.baseAddress { reserve(bytes.count).update(from: source, count: bytes.count) }
        count += bytes.count
        return start
    }

    func equals(_ key: (start: Int, count: Int), _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let (start, n) = key
        guard n == other.count, let address = other.baseAddress else { return n == other.count }
        return CLibrary.equal(base + start, address, count: n)
    }

    func withBytes<T>(_ range: (start: Int, count: Int), _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try body(UnsafeBufferPointer(start: base + range.start, count: range.count))
    }
}
