/// Where flattened pairs go: a list (`Policy.pairs`), or straight into the encoded query
/// (`Policy.queryString`).
package protocol QueryPairSink: AnyObject {
    /// The encoder the sink writes keys with, when a flattener may instead encode each key a
    /// segment at a time as it composes it and hand it over encoded (`keyIsEncoded`): only a
    /// byte-local one (a byte's form never depends on its neighbours, so the segments' forms
    /// joined are the key's). nil: keys come raw.
    var composingKeyEncoder: PercentEncoder? { get }
    /// One pair: the key as composed (raw bytes, or encoded when `keyIsEncoded`; lent for the
    /// call), its value (nil: the key alone), and for comma-joined arrays the elements.
    func add(key: UnsafeBufferPointer<UInt8>, keyIsEncoded: Bool, value: ByteString?, commaParts: [ByteString]?)
    /// One pair whose value is a scalar's text, lent for the call (a walker reading values in
    /// place, such as pekit.query.encode's over Lua tables, makes no string of it).
    func add(key: UnsafeBufferPointer<UInt8>, keyIsEncoded: Bool, text: UnsafeBufferPointer<UInt8>)
}

/// The pairs as a list (keys always raw).
final class PairList: QueryPairSink {
    var pairs: [QueryPair] = []
    var composingKeyEncoder: PercentEncoder? { nil }
    func add(key: UnsafeBufferPointer<UInt8>, keyIsEncoded: Bool, value: ByteString?, commaParts: [ByteString]?) {
        pairs.append(QueryPair(key: ByteString(bytes: key), value: value, commaParts: commaParts))
    }
    func add(key: UnsafeBufferPointer<UInt8>, keyIsEncoded: Bool, text: UnsafeBufferPointer<UInt8>) {
        pairs.append(QueryPair(key: ByteString(bytes: key), value: ByteString(bytes: text)))
    }
}

/// Walks nested parameters under a policy, composing each key in one buffer (a segment appended
/// going down, taken off coming back), and gives each pair to its sink. `add` walks a
/// `PekitValue`; another walker (pekit.query.encode over Lua tables) drives the same key rules
/// through `under(top:)`, `under(item:)`, `under(entry:)` and the `emit` calls.
/// The sink is a class reached through the protocol, not a type parameter: the flattener is
/// then one non-generic type, called from other modules with no generic metadata at run time.
/// Noncopyable, as the key it composes is.
package struct Flattener: ~Copyable {
    package let policy: Policy
    package let sink: any QueryPairSink
    /// The key of the value being flattened.
    var key = ComposedKey()
    /// Set when keys are encoded segment by segment (`encode_keys = "segments"`).
    let segmentEncoder: PercentEncoder?
    /// The policy's key rules as plain tags, read at every key: switching over the policy's
    /// enums themselves copied them (a retain and a release of a closure's context, or of
    /// nothing, per key: a tenth of encoding a query).
    private let arrayStyle: Style, objectStyle: Style
    /// Whether entries and items go out in the order they are in (no sort, no `pairs` order).
    private let keepsOrder: Bool
    /// Set when `key` holds the key already encoded by the sink's `composingKeyEncoder`, each
    /// segment encoded once as it is added: a query repeats a map's key before each of its
    /// leaves, and encoding it whole for every pair was a third of writing the query.
    private let composesEncodedKeys: Bool
    /// The sink's key encoder (used when `composesEncodedKeys`). A stored value beside a flag,
    /// not an optional: binding an optional copied it, a retain and a release a segment.
    private let keyEncoder: PercentEncoder
    /// The bracket and dot bytes as keys are composed (encoded when keys are): inline bytes,
    /// not arrays, as reading an array property retained and released its buffer a segment.
    private let open: Punctuation, close: Punctuation, dot: Punctuation

    /// One to three bytes held inline (`[` or `%5B`).
    private struct Punctuation {
        let bytes: (UInt8, UInt8, UInt8), count: Int
        init(_ encoded: [UInt8]) {
            count = min(encoded.count, 3)
            bytes = (encoded.first ?? 0, encoded.count > 1 ? encoded[1] : 0, encoded.count > 2 ? encoded[2] : 0)
        }
        @inline(__always)
        func append(to key: inout ComposedKey) {
            key.append(bytes.0)
            if count > 1 { key.append(bytes.1); key.append(bytes.2) }
        }
    }

    private enum Style { case brackets, indices, plain, dots, custom, indicesWhenNested }

    package init(policy: Policy, sink: any QueryPairSink) {
        // Worked out in locals and stored at the end: a noncopyable value is not read while it
        // is being made.
        let segmentEncoder = policy.encodeKeys == .segments ? policy.encoder : nil
        let arrayStyle: Style, objectStyle: Style
        switch policy.arrays {
        case .brackets: arrayStyle = .brackets
        case .indices, .comma: arrayStyle = .indices
        case .repeat: arrayStyle = .plain
        case .indicesWhenNested: arrayStyle = .indicesWhenNested
        case .custom: arrayStyle = .custom
        }
        switch policy.objects {
        case .brackets: objectStyle = .brackets
        case .dots: objectStyle = .dots
        case .custom: objectStyle = .custom
        }
        let keepsOrder: Bool
        switch policy.order {
        case .given, .bytes: keepsOrder = true
        case .ascending, .pairs, .custom: keepsOrder = false
        }
        // Composed encoded unless a rule needs the raw key (a key function, segments encoded
        // on their own, the `pairs` order's lists) or the encoder would escape a digit.
        var composing = sink.composingKeyEncoder
        if arrayStyle == .custom || objectStyle == .custom || segmentEncoder != nil { composing = nil }
        if case .pairs = policy.order { composing = nil }
        if let encoder = composing, encoder.encode(bytes: Array("0123456789".utf8)).count != 10 { composing = nil }
        self.policy = policy
        self.sink = sink
        self.segmentEncoder = segmentEncoder
        self.arrayStyle = arrayStyle
        self.objectStyle = objectStyle
        self.keepsOrder = keepsOrder
        composesEncodedKeys = composing != nil
        keyEncoder = composing ?? PercentEncoder()
        open = Punctuation(composing?.encode(bytes: [0x5B]) ?? [0x5B])
        close = Punctuation(composing?.encode(bytes: [0x5D]) ?? [0x5D])
        dot = Punctuation(composing?.encode(bytes: [0x2E]) ?? [0x2E])
    }

    /// `name` appended to the key as a segment goes into it: encoded on its own when segments
    /// are (`encode_keys = "segments"`), by the key encoder when keys are composed encoded (the
    /// two never both), else raw.
    private mutating func appendSegment(_ name: UnsafeBufferPointer<UInt8>) {
        // Optional chaining reads the encoder in place (binding it copied it: a retain and a
        // release for every key).
        if let encoded = segmentEncoder?.encode(bytes: name) { return key.append(encoded) }
        if composesEncodedKeys { return key.append(name, encodedBy: keyEncoder) }
        key.append(name)
    }

    /// The segment `appendSegment` writes for `name`, on its own (for a policy's key function).
    private mutating func segment(_ name: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let mark = key.count
        appendSegment(name)
        defer { key.removeAll(keepingFirst: mark) }
        return Array(UnsafeBufferPointer(rebasing: key.bytes[mark...]))
    }

    mutating func top(_ value: PekitValue) throws {
        switch value {
        case .map(let map):
            let entries = try entries(map)
            if case .pairs = policy.order {
                return try sortedBySegment(entries.count) { f, i in try f.under(top: entries[i].key) { try $0.add(entries[i].value) } }
            }
            for entry in entries { try under(top: entry.key) { try $0.add(entry.value) } }
        case .null:
            break
        case .array(let items):
            // A list of {key, value} pairs keeps its order.
            for (i, item) in items.enumerated() {
                guard case .array(let pair) = item, pair.count == 2 || pair.count == 1, let key = QueryText.scalar(pair[0]) else {
                    throw QueryError("parameters[\(i + 1)]: parameters must be a map or a list of {key, value} pairs")
                }
                try under(top: key) { try $0.add(pair.count == 2 ? pair[1] : .null) }
            }
        default:
            throw QueryError("parameters must be a map or a list of {key, value} pairs, not \(value.kindWithArticle)")
        }
    }

    func entries(_ map: PekitMap) throws -> [PekitMap.Entry] {
        switch policy.order {
        case .given, .bytes, .pairs:
            return map.entries  // plain maps are already sorted by key
        case .ascending:
            return map.isOrdered ? stableSorted(map.entries) { $0.key < $1.key } : map.entries
        case .custom(let compare):
            return try stableSorted(map.entries) { try compare($0.key, $1.key) }
        }
    }

    func text(_ value: PekitValue) -> ByteString? { policy.text(value) }

    /// The `pairs` order, Alamofire's URLEncodedFormEncoder's: each of `count` children (a
    /// map's entries, an array's items) is written on its own with `write`, its pairs encoded
    /// and joined as the query writes them, and the children go out sorted by that text, at
    /// every level. So `k=[x, y]` beside `k[]=xz` gives `k[]=x&k[]=y&k[]=xz`, not a sort of
    /// the pairs one by one. O(depth) encodings of each pair.
    mutating func sortedBySegment(_ count: Int, _ write: (inout Flattener, Int) throws -> Void) throws {
        var segments: [(text: [UInt8], pairs: [QueryPair])] = []
        segments.reserveCapacity(count)
        for i in 0..<count {
            let list = PairList()
            var child = Flattener(policy: policy, sink: list)
            child.key.append(key.bytes)
            try write(&child, i)
            segments.append((policy.join(try policy.encodedPairs(list.pairs), prefixed: false), list.pairs))
        }
        for segment in stableSorted(segments, by: { $0.text.lexicographicallyPrecedes($1.text) }) {
            for pair in segment.pairs {
                pair.key.bytes.withUnsafeBufferPointer { sink.add(key: $0, keyIsEncoded: false, value: pair.value, commaParts: pair.commaParts) }
            }
        }
    }

    // MARK: The key rules

    /// A key is written again for every leaf under it: a long one is charged to the caller's
    /// `MemoryBudget` each time, so that a long name over many items (output of key × items
    /// bytes from an input of key + items) stops at the budget. Short keys cost nothing here:
    /// their share of the output is a constant times the input.
    @inline(__always)
    private func chargeKey() throws {
        if key.count > 64 { try MemoryBudget.charge(key.count) }
    }

    /// Runs `body` with the key of a top-level parameter.
    package mutating func under(top name: ByteString, _ body: (inout Self) throws -> Void) throws {
        let saved = key.array
        key.removeAll(keepingFirst: 0)
        name.bytes.withUnsafeBufferPointer { appendSegment($0) }
        defer { key.set(saved) }
        try chargeKey()
        try body(&self)
    }

    /// Runs `body` with the key of item `i` of the array under the current key, as the policy
    /// writes it (`[]`, `[i]`, the key itself, or the policy's function; comma-joined arrays
    /// that hold nested values take `[i]`). `nested` is asked only by the policy's function.
    package mutating func under(item i: Int, nested: @autoclosure () -> Bool, _ body: (inout Self) throws -> Void) throws {
        let mark = key.count
        switch arrayStyle {
        case .brackets:
            open.append(to: &key); close.append(to: &key)
        case .indices:
            open.append(to: &key)
            Self.withDecimal(Int64(i)) { key.append($0) }
            close.append(to: &key)
        case .indicesWhenNested:
            open.append(to: &key)
            if nested() { Self.withDecimal(Int64(i)) { key.append($0) } }
            close.append(to: &key)
        case .plain, .dots:
            break
        case .custom:
            guard case .custom(let makeKey) = policy.arrays else { break }
            let saved = key.array
            key.set(try makeKey(ByteString(saved), i, nested()).bytes)
            defer { key.set(saved) }
            try chargeKey()
            return try body(&self)
        }
        defer { key.removeAll(keepingFirst: mark) }
        try chargeKey()
        try body(&self)
    }

    /// Runs `body` with the key of the entry `name` of the map under the current key, as the
    /// policy writes it (`[name]`, `.name`, or the policy's function).
    package mutating func under(entry name: ByteString, _ body: (inout Self) throws -> Void) throws {
        try name.bytes.withUnsafeBufferPointer { try under(entry: $0, body) }
    }

    /// `under(entry:)` with the name lent as bytes (a walker reading keys where they are): no
    /// string made of it unless the policy's rules need one.
    package mutating func under(entry name: UnsafeBufferPointer<UInt8>, _ body: (inout Self) throws -> Void) throws {
        let mark = key.count
        switch objectStyle {
        case .brackets, .indices, .plain, .indicesWhenNested:
            open.append(to: &key); appendSegment(name); close.append(to: &key)
        case .dots:
            dot.append(to: &key); appendSegment(name)
        case .custom:
            guard case .custom(let makeKey) = policy.objects else { break }
            let saved = key.array, piece = segment(name)
            key.set(try makeKey(ByteString(saved), ByteString(piece)).bytes)
            defer { key.set(saved) }
            try chargeKey()
            return try body(&self)
        }
        defer { key.removeAll(keepingFirst: mark) }
        try chargeKey()
        try body(&self)
    }

    /// A pair under the current key.
    package mutating func emit(_ value: ByteString?, commaParts: [ByteString]? = nil) {
        sink.add(key: key.bytes, keyIsEncoded: composesEncodedKeys, value: value, commaParts: commaParts)
    }

    /// A scalar's text under the current key, lent for the call.
    package mutating func emit(text: UnsafeBufferPointer<UInt8>) {
        sink.add(key: key.bytes, keyIsEncoded: composesEncodedKeys, text: text)
    }

    /// A null under the current key, as the policy writes one.
    package mutating func emitNull() {
        switch policy.null {
        case .key: emit(nil)
        case .empty: emit("")
        case .skip: break
        case .text(let text): emit(ByteString(text))
        }
    }

    /// An empty array or map under the current key, as the policy writes one.
    package mutating func emitEmpty() {
        if policy.empty == .key { emit("") }
    }

    // MARK: Walking a PekitValue

    /// Flattens `value` under the current key.
    mutating func add(_ value: PekitValue) throws {
        switch value {
        case .null:
            emitNull()
        case .array(let items):
            guard !items.isEmpty else { return emitEmpty() }
            if case .comma = policy.arrays, items.allSatisfy({ !QueryText.isNested($0) }) {
                let parts = items.compactMap { item -> ByteString? in
                    if case .null = item { return "" }
                    return text(item)
                }
                return emit(ByteString(bytes: parts.map(\.bytes).joined(separator: [0x2C])), commaParts: parts)
            }
            if !keepsOrder, case .pairs = policy.order {
                return try sortedBySegment(items.count) { f, i in try f.under(item: i, nested: QueryText.isNested(items[i])) { try $0.add(items[i]) } }
            }
            try items.withUnsafeBufferPointer { items in
                for i in items.indices { try under(item: i, nested: QueryText.isNested(items[i])) { try $0.add(items[i]) } }
            }
        case .set(let items):
            guard !items.isEmpty else { return emitEmpty() }
            // AFNetworking's NSSet rule: sorted by string form, each under the key itself.
            let sorted = stableSorted(items) { a, b in
                guard let x = QueryText.scalar(a) else { return false }
                guard let y = QueryText.scalar(b) else { return true }
                return x < y
            }
            for item in sorted { try add(item) }
        case .map(let map):
            guard !map.isEmpty else { return emitEmpty() }
            // Through the list's buffer: each entry borrowed, not copied (a copy retains and
            // releases its key and value, a fifth of encoding a query).
            if keepsOrder { return try add(entries: map.entries) }
            let entries = try entries(map)
            if case .pairs = policy.order {
                return try sortedBySegment(entries.count) { f, i in try f.under(entry: entries[i].key) { try $0.add(entries[i].value) } }
            }
            try add(entries: entries)
        case .string(let s):
            // Lent, as a walker over Lua tables lends it: no optional string made for the sink.
            s.bytes.withUnsafeBufferPointer { emit(text: $0) }
        case .integer(let n) where policy.numbers.writesIntegersInDecimal(n):
            Self.withDecimal(n) { emit(text: $0) }
        default:
            emit(text(value))
        }
    }

    /// Each entry under its key, in the order given.
    private mutating func add(entries: [PekitMap.Entry]) throws {
        for i in entries.indices {
            try entries[i].key.bytes.withUnsafeBufferPointer { name in try under(entry: name) { try $0.add(entries[i].value) } }
        }
    }

    /// `n` in decimal, in bytes on the stack, lent to `body` (what `String(n)` gives).
    static func withDecimal<R>(_ n: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var i = 20, m = n.magnitude
            repeat {
                i -= 1
                buffer[i] = UInt8(0x30 + m % 10)
                m /= 10
            } while m > 0
            if n < 0 { i -= 1; buffer[i] = 0x2D }
            return body(UnsafeBufferPointer(rebasing: buffer[i..<20]))
        }
    }
}
