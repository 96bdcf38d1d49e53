/// Where flattened pairs go: a list (`Policy.pairs`), or straight into the encoded query
/// (`Policy.queryString`).
protocol QueryPairSink {
    /// One pair: the key as composed (raw bytes), its value (nil: the key alone), and for
    /// comma-joined arrays the elements.
    mutating func add(key: [UInt8], value: ByteString?, commaParts: [ByteString]?)
}

/// The pairs as a list.
struct PairList: QueryPairSink {
    var pairs: [QueryPair] = []
    mutating func add(key: [UInt8], value: ByteString?, commaParts: [ByteString]?) {
        pairs.append(QueryPair(key: ByteString(key), value: value, commaParts: commaParts))
    }
}

/// Walks nested parameters under a policy, composing each key in one buffer (a segment appended
/// going down, taken off coming back), and gives each pair to its sink.
struct Flattener<Sink: QueryPairSink> {
    let policy: Policy
    var sink: Sink
    /// The key of the value being flattened.
    var key: [UInt8] = []
    /// Set when keys are encoded segment by segment (`encode_keys = "segments"`).
    let segmentEncoder: PercentEncoder?

    init(policy: Policy, sink: Sink) {
        self.policy = policy
        self.sink = sink
        segmentEncoder = policy.encodeKeys == .segments ? policy.encoder : nil
    }

    /// A key segment as it goes into a composed key.
    func segment(_ key: ByteString) -> [UInt8] {
        guard let segmentEncoder else { return key.bytes }
        return segmentEncoder.encode(bytes: key.bytes)
    }

    mutating func top(_ value: PekitValue) throws {
        switch value {
        case .map(let map):
            for entry in try entries(map) { try add(under: segment(entry.key), entry.value) }
        case .null:
            break
        case .array(let items):
            // A list of {key, value} pairs keeps its order.
            for (i, item) in items.enumerated() {
                guard case .array(let pair) = item, pair.count == 2 || pair.count == 1, let key = QueryText.scalar(pair[0]) else {
                    throw QueryError("parameters[\(i + 1)]: parameters must be a map or a list of {key, value} pairs")
                }
                try add(under: segment(key), pair.count == 2 ? pair[1] : .null)
            }
        default:
            throw QueryError("parameters must be a map or a list of {key, value} pairs, not \(value.kindWithArticle)")
        }
    }

    func entries(_ map: PekitMap) throws -> [PekitMap.Entry] {
        switch policy.order {
        case .given, .bytes:
            return map.entries  // plain maps are already sorted by key
        case .ascending:
            return map.isOrdered ? stableSorted(map.entries) { $0.key < $1.key } : map.entries
        case .custom(let compare):
            return try stableSorted(map.entries) { try compare($0.key, $1.key) }
        }
    }

    func text(_ value: PekitValue) -> ByteString? { policy.text(value) }

    /// Flattens `value` under the current key with `suffix` added to it (a segment, `[]`, `[i]`).
    mutating func add<Suffix: Collection<UInt8>>(under suffix: Suffix, _ value: PekitValue) throws {
        let mark = key.count
        key.append(contentsOf: suffix)
        defer { key.removeSubrange(mark...) }
        try add(value)
    }

    /// Flattens `value` under a key a policy's function made (which need not extend the current one).
    mutating func add(replacingKeyWith made: ByteString, _ value: PekitValue) throws {
        let saved = key
        key = made.bytes
        defer { key = saved }
        try add(value)
    }

    mutating func emit(_ value: ByteString?, commaParts: [ByteString]? = nil) {
        sink.add(key: key, value: value, commaParts: commaParts)
    }

    /// Flattens `value` under the current key.
    mutating func add(_ value: PekitValue) throws {
        switch value {
        case .null:
            switch policy.null {
            case .key: emit(nil)
            case .empty: emit("")
            case .skip: break
            }
        case .array(let items):
            guard !items.isEmpty else { return empty() }
            switch policy.arrays {
            case .brackets:
                for item in items { try add(under: [0x5B, 0x5D] as [UInt8], item) }  // "[]"
            case .indices:
                for (i, item) in items.enumerated() { try add(atIndex: i, item) }
            case .repeat:
                for item in items { try add(item) }
            case .comma:
                if items.allSatisfy({ !QueryText.isNested($0) }) {
                    let parts = items.compactMap { item -> ByteString? in
                        if case .null = item { return "" }
                        return text(item)
                    }
                    emit(ByteString(bytes: parts.map(\.bytes).joined(separator: [0x2C])), commaParts: parts)
                } else {
                    for (i, item) in items.enumerated() { try add(atIndex: i, item) }
                }
            case .custom(let makeKey):
                for (i, item) in items.enumerated() { try add(replacingKeyWith: makeKey(ByteString(key), i, QueryText.isNested(item)), item) }
            }
        case .set(let items):
            guard !items.isEmpty else { return empty() }
            // AFNetworking's NSSet rule: sorted by string form, each under the key itself.
            let sorted = stableSorted(items) { a, b in
                guard let x = QueryText.scalar(a) else { return false }
                guard let y = QueryText.scalar(b) else { return true }
                return x < y
            }
            for item in sorted { try add(item) }
        case .map(let map):
            guard !map.isEmpty else { return empty() }
            for entry in try entries(map) {
                switch policy.objects {
                case .brackets:
                    let mark = key.count
                    key.append(0x5B); key.append(contentsOf: segment(entry.key)); key.append(0x5D)
                    defer { key.removeSubrange(mark...) }
                    try add(entry.value)
                case .dots:
                    let mark = key.count
                    key.append(0x2E); key.append(contentsOf: segment(entry.key))
                    defer { key.removeSubrange(mark...) }
                    try add(entry.value)
                case .custom(let makeKey):
                    try add(replacingKeyWith: makeKey(ByteString(key), ByteString(segment(entry.key))), entry.value)
                }
            }
        default:
            emit(text(value))
        }
    }

    mutating func empty() {
        if policy.empty == .key { emit("") }
    }

    /// Flattens `value` under the current key and `[i]` (its digits written without a string).
    mutating func add(atIndex i: Int, _ value: PekitValue) throws {
        let mark = key.count
        key.append(0x5B)
        let digitsStart = key.count
        var n = i
        repeat { key.append(UInt8(0x30 + n % 10)); n /= 10 } while n > 0
        key[digitsStart...].reverse()
        key.append(0x5D)
        defer { key.removeSubrange(mark...) }
        try add(value)
    }
}

/// The query itself: each pair encoded into it as it comes (`Policy.queryString`).
final class QueryWriter: QueryPairSink {
    private let keyEncoder: PercentEncoder?
    private let values: ValueEncoding
    private let prefix: [UInt8], separator: [UInt8], assign: [UInt8]
    private var out: [UInt8] = []
    /// Whether a pair was written (the prefix comes before the first, the separator between).
    private var started = false
    /// Where a key or value is encoded before it is copied in (grown to the longest).
    private var scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)

    init(policy: Policy) {
        keyEncoder = policy.encoder(for: policy.encodeKeys)
        values = ValueEncoding(policy)
        prefix = policy.prefix.bytes; separator = policy.separator.bytes; assign = policy.assign.bytes
    }

    deinit { scratch.deallocate() }

    private func append(_ bytes: UnsafeBufferPointer<UInt8>, encodedBy encoder: PercentEncoder?) {
        guard let encoder else { out.append(contentsOf: bytes); return }
        let room = PercentEncoder.maximumEncodedCount(bytes.count)
        if scratch.count < room {
            scratch.deallocate()
            scratch = .allocate(capacity: max(room, scratch.count * 2))
        }
        // With room for every byte escaped, encode(bytes:into:) always succeeds.
        let n = encoder.encode(bytes: bytes, into: scratch) ?? 0
        out.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<n]))
    }

    func add(key: [UInt8], value: ByteString?, commaParts: [ByteString]?) {
        out.append(contentsOf: started ? separator : prefix)
        started = true
        key.withUnsafeBufferPointer { append($0, encodedBy: keyEncoder) }
        guard let value else { return }
        out.append(contentsOf: assign)
        if commaParts == nil && !values.rawCommas {
            value.bytes.withUnsafeBufferPointer { append($0, encodedBy: values.encoder) }
        } else if let encoded = values.encode(value, commaParts: commaParts) {
            out.append(contentsOf: encoded)
        }
    }

    /// The query written so far.
    func finish() -> [UInt8] { out }
}
