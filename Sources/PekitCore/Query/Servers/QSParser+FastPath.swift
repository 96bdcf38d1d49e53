
/// A faster way to the same result. qs collects the pieces by key, then merges one chain of
/// new objects per key into the result; for the common options the fast path instead walks the
/// result and adds each piece in place, in one pass, into a `QSTree`. A repeated key is combined
/// where qs would combine it (the slot it made first, or the list it alone appends to). Whenever
/// a piece meets something qs's `merge` resolves in one of its irregular ways (a value meeting a
/// map, a list meeting a key, a list another key also fills, `__proto__`, a top-level name that
/// is an array index), the fast path gives up and the faithful port runs instead, so the result
/// is always the port's. `QSFastPathTests` checks the two agree on every fixture and on random input.
extension QSParser {
    /// The options the fast path takes on (the others change how values are decoded or split).
    var fastPathApplies: Bool {
        guard decoder == nil, charset == .utf8, !charsetSentinel, !comma, !interpretNumericEntities else { return false }
        if case .string(let separator) = delimiter { return !separator.isEmpty }
        return false
    }

    /// One step of a key: a name, a list index (with its digits), or `[]`.
    enum Segment {
        case key(Range<Int>)
        case index(Int, Range<Int>)
        case append

        var isKey: Bool { if case .key = self { return true }; return false }
    }

    struct GiveUp: Error {}

    /// One pass over the pieces. Queries list the parameters of one object together, so the
    /// containers the last piece went through are kept: a piece whose key starts with the same
    /// segments starts where that one ended instead of looking each level up again.
    struct FastState {
        let input: UnsafeBufferPointer<UInt8>
        var tree = QSTree()
        /// The decoded key of this piece, and of the one before.
        var key = ByteArena(capacity: 256)
        var previous = ByteArena(capacity: 256)
        var other = ByteArena(capacity: 256)
        let chain = FlatArray<Segment>()
        /// Where each segment of the key ends (for the parent, where the first bracket starts).
        var ends = FlatArray<Int>()
        var previousEnds = FlatArray<Int>()
        /// The containers the last piece walked through: `containers[l]` holds its segment `l`.
        let containers = FlatArray<Int>()
        /// The first `=` at or after the last place searched (−1: none searched yet).
        var nextEquals = -1
        /// Whether `chain` holds the segments of `previous` (the last key put in the tree).
        var chainIsPrevious = false
        /// How many leading bytes this key shares with `previous`.
        var common = 0
        /// Where this piece's key is in the input.
        var keyRange = 0..<0

        init(input: UnsafeBufferPointer<UInt8>) {
            self.input = input
            containers.append(0)
        }
    }

    /// The result, or nil when the faithful port must decide.
    func fastParse(_ input: [UInt8]) -> PekitValue? {
        fastTree(input)?.value(sparse: allowSparse)
    }

    /// The fast path's tree, or nil when the faithful port must decide.
    func fastTree(_ input: [UInt8]) -> QSTree? {
        guard fastPathApplies, case .string(let separator) = delimiter, input.count < QSTree.maximumInput else { return nil }
        return input.withUnsafeBufferPointer { input -> QSTree? in
            var state = FastState(input: input)
            let sep = separator.bytes
            let limit = parameterLimit ?? Int.max
            // Sized by the parameters there are (an estimate from the length left some blocks
            // bigger than the allocator keeps: a page fault a page, every parse), up to the
            // limit read.
            state.tree.reserve(pieces: min(Self.count(sep[0], in: input), limit) + 1, bytes: input.count)
            do {
                var start = 0, pieces = 0, i = 0
                if limit > 0, sep.count == 1, let base = input.baseAddress {
                    // One byte: memchr finds each separator (a byte loop cost more than the pieces).
                    while pieces < limit, let hit = CLibrary.find(sep[0], in: base + start, count: input.count - start) {
                        let at = UnsafeRawPointer(base).distance(to: hit)
                        try piece(start..<at, &state)
                        pieces += 1
                        start = at + 1
                    }
                    if pieces < limit { try piece(start..<input.count, &state) }
                } else if limit > 0 {
                    let first = sep[0]
                    while i + sep.count <= input.count {
                        if input[i] == first && (sep.count == 1 || input[i..<i + sep.count].elementsEqual(sep)) {
                            try piece(start..<i, &state)
                            pieces += 1
                            i += sep.count
                            start = i
                            if pieces >= limit { break }
                        } else {
                            i += 1
                        }
                    }
                    if pieces < limit { try piece(start..<input.count, &state) }
                }
            } catch {
                return nil
            }
            return state.tree
        }
    }

    /// How many times `byte` occurs (memchr is vectorised; a byte loop costs more than the parse).
    static func count(_ byte: UInt8, in input: UnsafeBufferPointer<UInt8>) -> Int {
        guard var p = input.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
        let end = p + input.count
        var n = 0
        while p < end, let hit = CLibrary.find(byte, in: p, count: end - p) { n += 1; p = hit + 1 }
        return n
    }

    /// The first `=` at or after `from` (the input's end when there is none). Pieces are read
    /// in order, so the search past a piece's last `=` finds the next piece's first and keeps it
    /// for that piece: each `=` is found by one memchr, where a search bounded by the piece
    /// ended in one more call a piece.
    private static func equals(from: Int, _ state: inout FastState) -> Int {
        if state.nextEquals >= from { return state.nextEquals }
        let input = state.input
        guard from < input.count, let base = input.baseAddress,
              let hit = CLibrary.find(0x3D, in: base + from, count: input.count - from) else {
            state.nextEquals = input.count
            return input.count
        }
        state.nextEquals = UnsafeRawPointer(base).distance(to: hit)
        return state.nextEquals
    }

    private func piece(_ range: Range<Int>, _ state: inout FastState) throws {
        let input = state.input
        // qs splits at the first `]=` if there is one, else at the first `=`.
        var pos: Int? = nil
        var j = Self.equals(from: range.lowerBound, &state)
        while j < range.upperBound {
            if pos == nil { pos = j }
            if j > range.lowerBound, input[j - 1] == 0x5D { pos = j; break }
            j = Self.equals(from: j + 1, &state)
        }
        let keyRange = range.lowerBound..<(pos ?? range.upperBound)
        state.keyRange = keyRange
        decodeKey(keyRange, input, into: state.key)
        let key = state.key.buffer
        guard !key.isEmpty else { return }
        if key.count == 9, key.elementsEqual(Self.proto) { return }
        // A top-level name that is an array index comes first in qs's key order.
        if key[0] &- 0x30 < 10, jsArrayIndex(key) != nil { throw GiveUp() }
        guard try segments(&state) else { state.chainIsPrevious = false; return }
        let valueRange = pos.map { ($0 + 1)..<range.upperBound }
        try insert(&state, keyRange, valueRange)
        swap(&state.key, &state.previous)
        swap(&state.ends, &state.previousEnds)
        state.chainIsPrevious = true
    }

    /// qs's `utils.decode` of a key (and `allowDots`' rewrite), into `out`.
    private func decodeKey(_ range: Range<Int>, _ input: UnsafeBufferPointer<UInt8>, into out: ByteArena) {
        out.reset()
        Self.decode(UnsafeBufferPointer(rebasing: input[range]), into: out)
        if allowDots, out.buffer.contains(0x2E) {
            let dotted = Self.dotsToBrackets(Array(out.buffer))
            out.reset()
            _ = dotted.withUnsafeBufferPointer { out.append($0) }
        }
    }

    /// qs's `utils.decode` for UTF-8 (`+` is a space; text `decodeURIComponent` rejects is kept),
    /// appended to `out`; the number of bytes written.
    @discardableResult
    static func decode(_ s: UnsafeBufferPointer<UInt8>, into out: ByteArena) -> Int {
        let target = out.reserve(s.count)
        // No separate look for a `%` or `+` first: the decoder copies a plain run as fast, and
        // most keys and values have an escape.
        var n = s.count
        if let decoded = JSURIDecoding.decode(s, plusAsSpace: true, into: target) {
            n = decoded
        } else {
            for (k, b) in s.enumerated() { target[k] = b == 0x2B ? 0x20 : b }
        }
        out.commit(n)
        return n
    }

    /// qs's parseKeys: the chain of segments of the key; false when qs drops the key.
    private func segments(_ state: inout FastState) throws -> Bool {
        let key = state.key.buffer
        state.common = ByteSearch.commonPrefixLength(key, state.previous.buffer)
        // The last key's segments that end inside the prefix the two keys share are this key's
        // too (a query lists an object's parameters together: most of a key is its neighbour's),
        // so the scan starts after them. Not the last one: it may be the literal rest past the
        // depth, which runs to the key's end. The first (the name before the first match) only
        // with the match after it, which is what decides where the name ends.
        var kept = 0
        if state.chainIsPrevious {
            let limit = state.chain.count - 1
            while kept < limit, state.previousEnds[kept] <= state.common { kept += 1 }
            if kept == 1 { kept = 0 }
        }
        state.chain.removeAll(keepingFirst: kept)
        state.ends.removeAll()
        for l in 0..<kept { state.ends.append(state.previousEnds[l]) }
        var p = kept > 0 ? state.ends[kept - 1] : 0, found = kept > 0 ? kept - 1 : 0
        // The matches of /\[[^[\]]*]/g, read up to depth + 1 of them.
        let depth = readDepth
        while p < key.count, depth > 0 {
            guard key[p] == 0x5B else { p += 1; continue }
            var q = p + 1
            while q < key.count, key[q] != 0x5B, key[q] != 0x5D { q += 1 }
            if q == key.count { break }
            guard key[q] == 0x5D else { p = q; continue }
            if found == 0 {
                // A key that starts with a bracket makes qs merge a list into the top-level map
                // (or, at depth 0, strip the brackets of the whole key): the port decides those.
                guard p > 0, key[0] != 0x5B else { throw GiveUp() }
                guard try parent(key, p, &state) else { return false }
            }
            if found >= depth {
                // The rest, as one literal segment (qs wraps it in brackets and takes them off again).
                state.chain.append(.key(p..<key.count)); state.ends.append(key.count)
                return true
            }
            let inner = (p + 1)..<q
            let name = UnsafeBufferPointer(rebasing: key[inner])
            if Self.isPrototypeName(name) { if !keepsPrototypeNames { return false }; if name.elementsEqual(Self.proto) { throw GiveUp() } }
            if inner.isEmpty {
                state.chain.append(parseArrays ? .append : .key(-1 ..< -1))
            } else if parseArrays, name[0] &- 0x30 < 10, let index = Self.canonicalIndex(name), index <= min(arrayLimit, 1 << 20) {
                state.chain.append(.index(index, inner))
            } else {
                state.chain.append(.key(inner))
            }
            state.ends.append(q + 1)
            found += 1
            p = q + 1
        }
        if found == 0 {
            guard key[0] != 0x5B else { throw GiveUp() }
            guard try parent(key, key.count, &state) else { return false }
        }
        return true
    }

    /// The text before the first bracket, as the first segment; false when qs drops the key.
    private func parent(_ key: UnsafeBufferPointer<UInt8>, _ end: Int, _ state: inout FastState) throws -> Bool {
        let name = UnsafeBufferPointer(rebasing: key[0..<end])
        if Self.isPrototypeName(name) { if !keepsPrototypeNames { return false }; if name.elementsEqual(Self.proto) { throw GiveUp() } }
        state.chain.append(.key(0..<end))
        state.ends.append(end)
        return true
    }

    static let proto = Array("__proto__".utf8)
    /// The name "0", in memory that lives as long as the process (`name` hands out a pointer to it).
    nonisolated(unsafe) static let zero: UnsafePointer<UInt8> = {
        let byte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        byte.initialize(to: 0x30)
        return UnsafePointer(byte)
    }()

    static func isPrototypeName(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        guard s.count >= 7, s.count <= 20, let first = s.first, first == 0x5F || first == 0x63 || first == 0x68 || first == 0x69
                || first == 0x70 || first == 0x74 || first == 0x76 else { return false }
        return prototypeNames.contains(ByteString(bytes: s))
    }

    /// Whether the piece at `owner` has the same decoded key as the current one.
    private func sameKey(_ owner: Range<Int>, _ state: inout FastState) -> Bool {
        guard owner.lowerBound >= 0 else { return false }
        decodeKey(owner, state.input, into: state.other)
        guard state.other.buffer.elementsEqual(state.key.buffer) else { return false }
        guard allowDots else { return true }
        // qs combines the values of one key as decoded, before allowDots rewrites its dots:
        // `a.x` and `a[x]` are two keys to it, merged (where an empty value is dropped), not
        // combined. Compared as decoded, then.
        state.other.reset()
        Self.decode(UnsafeBufferPointer(rebasing: state.input[owner]), into: state.other)
        let theirs = Array(state.other.buffer)
        state.other.reset()
        Self.decode(UnsafeBufferPointer(rebasing: state.input[state.keyRange]), into: state.other)
        return state.other.buffer.elementsEqual(theirs)
    }

    /// How many leading containers of the last piece this one shares (at least the root).
    private func shared(_ state: inout FastState) throws -> Int {
        let common = state.common
        var l = 0
        while l + 1 < state.containers.count, l + 1 < state.chain.count, l < state.previousEnds.count,
              state.ends[l] == state.previousEnds[l], state.ends[l] <= common {
            l += 1
        }
        // The one check of the levels skipped that looks at the next segment.
        if l > 0, case .append = state.chain[l - 1], !state.chain[l].isKey { throw GiveUp() }
        return l
    }

    /// The value of the piece (decoded into the tree's text).
    private func content(_ valueRange: Range<Int>?, _ state: inout FastState) -> QSTree.Content {
        guard let valueRange else { return strictNullHandling ? .null : .string(state.tree.text.count, 0) }
        let start = state.tree.text.count
        let n = Self.decode(UnsafeBufferPointer(rebasing: state.input[valueRange]), into: state.tree.text)
        return .string(start, n)
    }

    private func insert(_ state: inout FastState, _ owner: Range<Int>, _ valueRange: Range<Int>?) throws {
        let chain = state.chain
        var level = try shared(&state)
        var node = state.containers[level]
        state.containers.removeAll(keepingFirst: min(level + 1, state.containers.count))
        let key = state.key.buffer
        while level < chain.count {
            let last = level == chain.count - 1
            let segment = chain[level]
            if state.tree.nodes[node].isArray {
                switch segment {
                case .key:
                    throw GiveUp()  // qs turns the list into a map here
                case .index(let i, _):
                    state.tree.nodes[node].appendOwner = -1 ..< -1
                    guard let s = state.tree.find(node, index: i) else {
                        let built = build(&state, from: level + 1, owner, valueRange)
                        state.tree.set(node, index: i, built, owner: owner); return
                    }
                    switch state.tree.slots[s].content {
                    case .node(let child) where !last:
                        node = Int(child); level += 1; state.containers.append(node); continue
                    case .string, .null, .list:
                        guard last, sameKey(state.tree.slots[s].owner, &state) else { throw GiveUp() }
                        state.tree.combine(s, content(valueRange, &state))
                        return
                    default:
                        throw GiveUp()
                    }
                case .append:
                    if last {
                        // The list this key alone fills with [] (qs combines the key's values first).
                        guard sameKey(state.tree.nodes[node].appendOwner, &state) else { throw GiveUp() }
                        let value = content(valueRange, &state)
                        state.tree.set(node, index: state.tree.nodes[node].length, value, owner: owner)
                        return
                    }
                    state.tree.nodes[node].appendOwner = -1 ..< -1
                    // [].concat spreads an element that is itself a list: the port decides.
                    guard chain[level + 1].isKey else { throw GiveUp() }
                    guard let s = state.tree.find(node, index: 0) else {
                        let built = build(&state, from: level + 1, owner, valueRange)
                        state.tree.set(node, index: 0, built, owner: owner); return
                    }
                    guard case .node(let child) = state.tree.slots[s].content else { throw GiveUp() }
                    node = Int(child); level += 1; state.containers.append(node); continue
                }
            }
            // In a map, [] is the key "0" of the list qs built; an element that is itself a list
            // is spread by [].concat: the port decides.
            if case .append = segment, !last, !chain[level + 1].isKey { throw GiveUp() }
            guard let s = state.tree.find(node, Self.name(segment, key)) else {
                let built = build(&state, from: level + 1, owner, valueRange)
                state.tree.add(node, key: Self.name(segment, key), built, owner: owner)
                return
            }
            switch state.tree.slots[s].content {
            case .node(let child) where !last:
                node = Int(child); level += 1; state.containers.append(node)
            case .string, .null, .list:
                guard last else { throw GiveUp() }
                if case .append = segment { throw GiveUp() }
                guard sameKey(state.tree.slots[s].owner, &state) else { throw GiveUp() }
                state.tree.combine(s, content(valueRange, &state))
                return
            default:
                throw GiveUp()
            }
        }
    }

    /// The bytes a segment names in a map (`[]`, and `.key(-1..<-1)` without arrays, are "0").
    /// Returned rather than passed to a closure: a closure over the state copied the whole tree
    /// (five retains and releases a lookup).
    @inline(__always)
    private static func name(_ segment: Segment, _ key: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        switch segment {
        case .key(let range) where range.lowerBound >= 0, .index(_, let range): return UnsafeBufferPointer(rebasing: key[range])
        default: return UnsafeBufferPointer(start: zero, count: 1)
        }
    }

    /// qs's `parseObject` for the rest of a chain, built directly.
    private func build(_ state: inout FastState, from level: Int, _ owner: Range<Int>, _ valueRange: Range<Int>?) -> QSTree.Content {
        let chain = state.chain
        let key = state.key.buffer
        var child = content(valueRange, &state)
        var n = chain.count - 1
        while n >= level {
            switch chain[n] {
            case .append:
                if case .node(let inner) = child, state.tree.nodes[Int(inner)].isArray {
                    // [].concat of a list is the list (it was built just now, so it is taken over).
                    state.tree.nodes[Int(inner)].appendOwner = -1 ..< -1
                } else {
                    let node = state.tree.newNode(isArray: true)
                    state.tree.set(node, index: 0, child, owner: owner)
                    if n == chain.count - 1 { state.tree.nodes[node].appendOwner = owner }
                    child = .node(node)
                }
            case .index(let i, _):
                let node = state.tree.newNode(isArray: true)
                state.tree.set(node, index: i, child, owner: owner)
                child = .node(node)
            case .key:
                let node = state.tree.newNode(isArray: false)
                state.tree.add(node, key: Self.name(chain[n], key), child, owner: owner)
                child = .node(node)
            }
            n -= 1
        }
        return child
    }
}
