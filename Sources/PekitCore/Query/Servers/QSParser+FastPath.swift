import Foundation

/// A faster way to the same result. qs collects the pieces by key, then merges one chain of
/// new objects per key into the result; for the common options the fast path instead walks the
/// result and adds each piece in place, in one pass. A repeated key is combined where qs would
/// combine it (the slot it made first, or the list it alone appends to). Whenever a piece meets
/// something qs's `merge` resolves in one of its irregular ways (a value meeting a map, a list
/// meeting a key, a list another key also fills, `__proto__`, a top-level name that is an array
/// index), the fast path gives up and the faithful port runs instead, so the result is always
/// the port's. `QSFastPathTests` checks the two agree on every fixture and on random input.
extension QSParser {
    /// The options the fast path takes on (the others change how values are decoded or split).
    var fastPathApplies: Bool {
        guard decoder == nil, charset == .utf8, !charsetSentinel, !comma, !interpretNumericEntities else { return false }
        if case .string(let separator) = delimiter { return !separator.isEmpty }
        return false
    }

    /// A child of a map or list: a value and the raw key of the piece that set it, or a map or
    /// list still being filled.
    enum FastChild {
        case value(PekitValue, owner: Range<Int>)
        case node(FastNode)
    }

    final class FastNode {
        let isArray: Bool
        /// Map entries in the order added.
        var entries: [(key: ByteString, child: FastChild)] = []
        /// Set when a map has a key that is an array index (JavaScript lists those first).
        var hasIndexKey = false
        /// For maps with many keys: key hash → first position; `nextSameHash` chains collisions.
        var positions: [Int: Int] = [:]
        var nextSameHash: [Int] = []
        /// List elements; nil is a hole.
        var items: [FastChild?] = []
        /// The raw key of the only piece that has filled this list with `[]` (nil once another did).
        var appendOwner: Range<Int>?

        init(isArray: Bool) {
            self.isArray = isArray
            if !isArray { entries.reserveCapacity(4) }
        }

        static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(key))
            return hasher.finalize()
        }

        func position(of key: UnsafeBufferPointer<UInt8>) -> Int? {
            if entries.count <= 8 {
                for i in entries.indices where Self.equal(entries[i].key, key) { return i }
                return nil
            }
            var p = positions[Self.hash(key)] ?? -1
            while p >= 0 {
                if Self.equal(entries[p].key, key) { return p }
                p = nextSameHash[p]
            }
            return nil
        }

        @inline(__always)
        static func equal(_ a: ByteString, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
            a.bytes.count == b.count && a.bytes.withUnsafeBufferPointer { x in b.count == 0 || memcmp(x.baseAddress!, b.baseAddress!, b.count) == 0 }
        }

        func add(_ key: ByteString, _ child: FastChild) {
            if !hasIndexKey, jsArrayIndex(key.bytes) != nil { hasIndexKey = true }
            entries.append((key, child))
            if entries.count == 9 {
                nextSameHash = Array(repeating: -1, count: 9)
                for i in 0..<9 { index(i) }
            } else if entries.count > 9 {
                nextSameHash.append(-1)
                index(entries.count - 1)
            }
        }

        private func index(_ i: Int) {
            let h = entries[i].key.bytes.withUnsafeBufferPointer { Self.hash($0) }
            nextSameHash[i] = positions[h] ?? -1
            positions[h] = i
        }

        func set(_ i: Int, _ child: FastChild) {
            if i >= items.count { items += repeatElement(nil, count: i - items.count + 1) }
            items[i] = child
        }

        func value(sparse: Bool) -> PekitValue {
            if isArray {
                var list: [PekitValue] = []
                list.reserveCapacity(items.count)
                for item in items {
                    if let item { list.append(Self.convert(item, sparse)) } else if sparse { list.append(.null) }
                }
                return .array(list)
            }
            var map: [PekitMap.Entry] = []
            map.reserveCapacity(entries.count)
            if hasIndexKey {
                // Object.keys order: array-index names first, ascending, then the rest as added.
                let indexed = entries.indices.compactMap { i in jsArrayIndex(entries[i].key.bytes).map { ($0, i) } }
                let first = Set(indexed.map(\.1))
                for (_, i) in indexed.sorted(by: { $0.0 < $1.0 }) { map.append(.init(key: entries[i].key, value: Self.convert(entries[i].child, sparse))) }
                for i in entries.indices where !first.contains(i) { map.append(.init(key: entries[i].key, value: Self.convert(entries[i].child, sparse))) }
            } else {
                for entry in entries { map.append(.init(key: entry.key, value: Self.convert(entry.child, sparse))) }
            }
            return .map(PekitMap(ordered: map))
        }

        static func convert(_ child: FastChild, _ sparse: Bool) -> PekitValue {
            switch child {
            case .value(let v, _): return v
            case .node(let n): return n.value(sparse: sparse)
            }
        }
    }

    enum Segment {
        case key(Range<Int>)
        case index(Int)
        case append
    }

    struct GiveUp: Error {}

    /// One pass over the pieces; the key of each is decoded into a reused buffer.
    struct FastState {
        let input: [UInt8]
        var key: [UInt8] = []
        var other: [UInt8] = []
        var chain: [Segment] = []
    }

    /// The result, or nil when the faithful port must decide.
    func fastParse(_ input: [UInt8]) -> PekitValue? {
        guard fastPathApplies, case .string(let separator) = delimiter else { return nil }
        var state = FastState(input: input)
        state.key.reserveCapacity(256)
        let root = FastNode(isArray: false)
        let sep = separator.bytes
        let limit = parameterLimit ?? Int.max
        do {
            var start = 0, pieces = 0, i = 0
            if limit > 0 {
                while i + sep.count <= input.count {
                    if input[i] == sep[0] && (sep.count == 1 || input[i..<i + sep.count].elementsEqual(sep)) {
                        try piece(start..<i, &state, root)
                        pieces += 1
                        i += sep.count
                        start = i
                        if pieces >= limit { break }
                    } else {
                        i += 1
                    }
                }
                if pieces < limit { try piece(start..<input.count, &state, root) }
            }
        } catch {
            return nil
        }
        return root.value(sparse: allowSparse)
    }

    private func piece(_ range: Range<Int>, _ state: inout FastState, _ root: FastNode) throws {
        let input = state.input
        var pos: Int? = nil
        var j = range.lowerBound
        while j < range.upperBound {
            let b = input[j]
            if b == 0x3D { if pos == nil { pos = j } } else if b == 0x5D, j + 1 < range.upperBound, input[j + 1] == 0x3D { pos = j + 1; break }
            j += 1
        }
        let keyRange = range.lowerBound..<(pos ?? range.upperBound)
        Self.decode(input[keyRange], into: &state.key)
        guard !state.key.isEmpty else { return }
        if state.key.count == 9, state.key == Self.proto { return }
        // A top-level name that is an array index comes first in qs's key order.
        if jsArrayIndex(state.key) != nil { throw GiveUp() }
        let value: PekitValue
        if let pos {
            value = .string(ByteString(Self.fastDecode(input[(pos + 1)..<range.upperBound])))
        } else {
            value = strictNullHandling ? .null : .string("")
        }
        if allowDots, state.key.contains(0x2E) { state.key = Self.dotsToBrackets(state.key) }
        guard try segments(&state) else { return }
        try insert(&state, keyRange, value, into: root)
    }

    /// qs's `utils.decode` for UTF-8, into `out`.
    static func decode(_ s: ArraySlice<UInt8>, into out: inout [UInt8]) {
        out = fastDecode(s)
    }

    static func fastDecode(_ s: ArraySlice<UInt8>) -> [UInt8] {
        s.withUnsafeBufferPointer { buffer in
            var plain = true
            for b in buffer where b == 0x25 || b == 0x2B { plain = false; break }
            if plain { return Array(buffer) }
            if let decoded = JSURIDecoding.decoded(buffer, plusAsSpace: true) { return decoded }
            return buffer.map { $0 == 0x2B ? 0x20 : $0 }
        }
    }

    /// qs's parseKeys: the chain of segments of `state.key`; false when qs drops the key.
    private func segments(_ state: inout FastState) throws -> Bool {
        state.chain.removeAll(keepingCapacity: true)
        let key = state.key
        let found = depth > 0 ? Self.bracketSegments(key, limit: depth + 1) : []
        let parentEnd = found.first?.lowerBound ?? key.count
        // A key that starts with a bracket makes qs merge a list into the top-level map (or, at
        // depth 0, strip the brackets of the whole key): the port decides those.
        guard parentEnd > 0, key[0] != 0x5B else { throw GiveUp() }
        do {
            let parent = key[0..<parentEnd]
            if Self.isPrototypeName(parent) { if !allowPrototypes { return false }; if parent.elementsEqual(Self.proto) { throw GiveUp() } }
            state.chain.append(.key(0..<parentEnd))
        }
        for (n, range) in found.enumerated() {
            if n >= depth {
                // The rest, as one literal segment (qs wraps it in brackets and takes them off again).
                state.chain.append(.key(range.lowerBound..<key.count))
                break
            }
            let inner = key[(range.lowerBound + 1)..<(range.upperBound - 1)]
            if Self.isPrototypeName(inner) { if !allowPrototypes { return false }; if inner.elementsEqual(Self.proto) { throw GiveUp() } }
            if inner.isEmpty {
                state.chain.append(parseArrays ? .append : .key(-1 ..< -1))
            } else if parseArrays, let index = Self.canonicalIndex(inner), index <= min(arrayLimit, 1 << 20) {
                state.chain.append(.index(index))
            } else {
                state.chain.append(.key(inner.startIndex..<inner.endIndex))
            }
        }
        return !state.chain.isEmpty
    }

    static let proto = Array("__proto__".utf8)
    static let zero: [UInt8] = [0x30]

    static func isPrototypeName(_ s: ArraySlice<UInt8>) -> Bool {
        guard s.count >= 7, s.count <= 20, let first = s.first, first == 0x5F || first == 0x63 || first == 0x68 || first == 0x69
                || first == 0x70 || first == 0x74 || first == 0x76 else { return false }
        return prototypeNames.contains(ByteString(bytes: s))
    }

    /// The bytes of a key segment (`-1..<-1` is the "0" qs writes for `[]` without arrays).
    @inline(__always)
    private func withName<T>(_ range: Range<Int>, _ key: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        if range.lowerBound < 0 { return try Self.zero.withUnsafeBufferPointer(body) }
        return try key.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Whether the piece at `owner` has the same decoded key as the current one.
    private func sameKey(_ owner: Range<Int>, _ state: inout FastState) -> Bool {
        Self.decode(state.input[owner], into: &state.other)
        if allowDots, state.other.contains(0x2E) { state.other = Self.dotsToBrackets(state.other) }
        return state.other == state.key
    }

    private func insert(_ state: inout FastState, _ owner: Range<Int>, _ value: PekitValue, into root: FastNode) throws {
        let chain = state.chain
        var node = root
        var level = 0
        while level < chain.count {
            let last = level == chain.count - 1
            let segment = chain[level]
            if node.isArray {
                switch segment {
                case .key:
                    throw GiveUp()  // qs turns the list into a map here
                case .index(let i):
                    node.appendOwner = nil
                    guard i < node.items.count, let existing = node.items[i] else {
                        node.set(i, build(chain, from: level + 1, value, owner, state.key)); return
                    }
                    switch existing {
                    case .node(let child) where !last:
                        node = child; level += 1; continue
                    case .value(let old, let first) where last:
                        guard sameKey(first, &state) else { throw GiveUp() }
                        node.items[i] = .value(Self.combine(old, value), owner: first)
                        return
                    default:
                        throw GiveUp()
                    }
                case .append:
                    if last {
                        // The list this key alone fills with [] (qs combines the key's values first).
                        guard node.appendOwner.map({ sameKey($0, &state) }) == true else { throw GiveUp() }
                        node.items.append(.value(value, owner: owner))
                        return
                    }
                    node.appendOwner = nil
                    // [].concat spreads an element that is itself a list: the port decides.
                    guard case .key = chain[level + 1] else { throw GiveUp() }
                    guard let first = node.items.first, let existing = first else {
                        node.set(0, build(chain, from: level + 1, value, owner, state.key)); return
                    }
                    guard case .node(let child) = existing else { throw GiveUp() }
                    node = child; level += 1; continue
                }
            }
            // In a map, [] is the key "0" of the list qs built; an element that is itself a list
            // is spread by [].concat: the port decides.
            if case .append = segment, !last, !{ if case .key = chain[level + 1] { return true }; return false }() { throw GiveUp() }
            let found: Int?
            switch segment {
            case .key(let range): found = withName(range, state.key) { node.position(of: $0) }
            case .index(let i): found = Array(String(i).utf8).withUnsafeBufferPointer { node.position(of: $0) }
            case .append: found = Self.zero.withUnsafeBufferPointer { node.position(of: $0) }
            }
            guard let p = found else {
                let name: ByteString
                switch segment {
                case .key(let range): name = range.lowerBound < 0 ? ByteString(Self.zero) : ByteString(bytes: state.key[range])
                case .index(let i): name = ByteString(String(i))
                case .append:
                    // Object.keys of the list qs built: "0", "1", … (a repeated key's values spread).
                    if last, case .array = value { throw GiveUp() }
                    name = ByteString(Self.zero)
                }
                node.add(name, build(chain, from: level + 1, value, owner, state.key)); return
            }
            switch node.entries[p].child {
            case .node(let child) where !last:
                node = child; level += 1
            case .value(let old, let first) where last:
                if case .append = segment { throw GiveUp() }
                guard sameKey(first, &state) else { throw GiveUp() }
                node.entries[p].child = .value(Self.combine(old, value), owner: first)
                return
            default:
                throw GiveUp()
            }
        }
    }

    /// `[].concat(a, b)` for the values of one key.
    static func combine(_ a: PekitValue, _ b: PekitValue) -> PekitValue {
        if case .array(var list) = a { list.append(b); return .array(list) }
        return .array([a, b])
    }

    /// qs's `parseObject` for the rest of a chain, built directly.
    private func build(_ chain: [Segment], from level: Int, _ value: PekitValue, _ owner: Range<Int>, _ key: [UInt8]) -> FastChild {
        var child = FastChild.value(value, owner: owner)
        var n = chain.count - 1
        while n >= level {
            switch chain[n] {
            case .append:
                let node = FastNode(isArray: true)
                switch child {
                case .node(let inner) where inner.isArray: node.items = inner.items
                default: node.items = [child]
                }
                if n == chain.count - 1 { node.appendOwner = owner }
                child = .node(node)
            case .index(let i):
                let node = FastNode(isArray: true)
                node.set(i, child)
                child = .node(node)
            case .key(let range):
                let node = FastNode(isArray: false)
                node.add(range.lowerBound < 0 ? ByteString(Self.zero) : ByteString(bytes: key[range]), child)
                child = .node(node)
            }
            n -= 1
        }
        return child
    }
}
