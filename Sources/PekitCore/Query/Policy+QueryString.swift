/// Flattens nested parameters into `key=value` pairs under a policy (AFNetworking's
/// `AFQueryStringPairsFromKeyAndValue`, generalised): maps recurse with `objects`, arrays with
/// `arrays`, sets become repeated keys sorted by their string form, scalars are written as the
/// policy says. O(n log n) in the number of leaves.
extension Policy {
    /// The pairs, unencoded, in the order the policy gives them.
    /// - Parameter value: a map, an ordered map, or a list of `{key, value}` pairs.
    /// - Throws: `QueryError` for a top-level value that is not a map, an error thrown by a
    ///   custom function of the policy, or `MemoryBudget.Exceeded` past the budget the caller
    ///   set (`MemoryBudget.with`; none: never).
    public func pairs(_ value: PekitValue) throws -> [QueryPair] {
        let list = PairList()
        var flattener = Flattener(policy: self, sink: list)
        try flattener.top(value)
        if sortsEncodedPairs {
            return try encodedPairs(list.pairs).map(\.pair)
        }
        return list.pairs
    }

    /// The query string: the pairs encoded and joined, with the policy's prefix when not empty.
    /// Unless pairs are sorted by their encoded bytes (`order = "bytes"`), each pair is encoded
    /// straight into the query as it is flattened: no list of pairs, no string per key.
    /// - Throws: what `pairs(_:)` throws.
    public func queryString(_ value: PekitValue) throws -> ByteString {
        if sortsEncodedPairs { return ByteString(join(try encodedPairs(pairs(value)))) }
        let writer = QueryWriter(policy: self)
        var flattener = Flattener(policy: self, sink: writer)
        try flattener.top(value)
        return ByteString(writer.finish())
    }

    func join(_ encoded: [EncodedPair], prefixed: Bool = true) -> [UInt8] {
        guard !encoded.isEmpty else { return [] }
        var out = prefixed ? prefix.bytes : []
        out.reserveCapacity(encoded.reduce(0) { $0 + $1.key.count + ($1.value?.count ?? 0) + 2 })
        for (i, pair) in encoded.enumerated() {
            if i > 0 { out += separator.bytes }
            out += pair.key
            if let value = pair.value { out += assign.bytes; out += value }
        }
        return out
    }

    struct EncodedPair {
        let pair: QueryPair
        let key: [UInt8]
        let value: [UInt8]?
    }

    /// Whether pairs are sorted by their encoded bytes once all are encoded (`pairs` sorts each
    /// level's children as the flattener writes them).
    var sortsEncodedPairs: Bool {
        if case .bytes = order { return true }
        return false
    }

    /// Each pair with its encoded key and value; sorted by encoded key then value under `bytes`.
    func encodedPairs(_ pairs: [QueryPair]) throws -> [EncodedPair] {
        let keyEncoder = encoder(for: encodeKeys)
        let values = ValueEncoding(self)
        var result = pairs.map { pair -> EncodedPair in
            let key = keyEncoder?.encode(bytes: pair.key.bytes) ?? pair.key.bytes
            return EncodedPair(pair: pair, key: key, value: values.encode(pair.value, commaParts: pair.commaParts))
        }
        if case .bytes = order {
            result = stableSorted(result) { a, b in
                if a.key != b.key { return a.key.lexicographicallyPrecedes(b.key) }
                return (a.value ?? []).lexicographicallyPrecedes(b.value ?? [])
            }
        }
        return result
    }
}

/// How a policy encodes a pair's value, comma-joined arrays included.
struct ValueEncoding {
    let encoder: PercentEncoder?
    /// Comma-joined arrays: each element encoded with ',' escaped, so the split is unambiguous;
    /// the joining comma is written as the policy writes a comma.
    let partEncoder: PercentEncoder?
    let joiner: [UInt8]
    /// qs 6.11 with arrayFormat comma and encodeValuesOnly (keys left as they are) splits every
    /// value at its commas and encodes the pieces, so commas go out raw (stringify.js).
    let rawCommas: Bool

    init(_ policy: Policy) {
        encoder = policy.encoder(for: policy.encodeValues)
        var part = encoder
        part?.allowed.remove(0x2C)
        partEncoder = part
        joiner = encoder?.encode(bytes: [0x2C]) ?? [0x2C]
        rawCommas = { if case .comma = policy.arrays, case .none = policy.encodeKeys { return true }; return false }()
    }

    /// The encoded value (nil: the key is written alone).
    func encode(_ raw: ByteString?, commaParts: [ByteString]?) -> [UInt8]? {
        if rawCommas, let encoder {
            let text = commaParts.map { $0.map(\.bytes).joined(separator: [0x2C]).map { $0 } } ?? raw?.bytes
            return text.map { Array($0.split(separator: 0x2C, omittingEmptySubsequences: false).map { encoder.encode(bytes: Array($0)) }.joined(separator: [0x2C])) }
        }
        if let parts = commaParts {
            var joined: [UInt8] = []
            for (i, part) in parts.enumerated() {
                if i > 0 { joined += joiner }
                joined += partEncoder?.encode(bytes: part.bytes) ?? part.bytes
            }
            return joined
        }
        return raw.map { encoder?.encode(bytes: $0.bytes) ?? $0.bytes }
    }
}

extension Policy {
    /// A scalar as this policy writes it (booleans as `booleans` says, numbers as `numbers`); nil for anything else.
    package func text(_ value: PekitValue) -> ByteString? {
        switch value {
        case .integer(let n): return ByteString(numbers.text(n))
        case .bigInteger(let digits): return ByteString(numbers.text(bigInteger: digits))
        case .number(let x): return ByteString(numbers.text(x))
        case .boolean(let b) where booleans == .numeric: return ByteString(b ? "1" : "0")
        case .boolean(let b) where booleans == .capitalized: return ByteString(b ? "True" : "False")
        default: return QueryText.scalar(value)
        }
    }
}

/// A stable merge sort that takes a throwing comparator and cannot misbehave when the comparator
/// is inconsistent (the order is then unspecified, but every element is kept exactly once).
func stableSorted<T>(_ items: [T], by areInIncreasingOrder: (T, T) throws -> Bool) rethrows -> [T] {
    guard items.count > 1 else { return items }
    var source = items
    var target = items
    var width = 1
    while width < source.count {
        var start = 0
        while start < source.count {
            let middle = min(start + width, source.count), end = min(start + 2 * width, source.count)
            var i = start, j = middle, k = start
            while i < middle && j < end {
                if try areInIncreasingOrder(source[j], source[i]) { target[k] = source[j]; j += 1 } else { target[k] = source[i]; i += 1 }
                k += 1
            }
            while i < middle { target[k] = source[i]; i += 1; k += 1 }
            while j < end { target[k] = source[j]; j += 1; k += 1 }
            start = end
        }
        swap(&source, &target)
        width *= 2
    }
    return source
}
