/// Flattens nested parameters into `key=value` pairs under a policy (AFNetworking's
/// `AFQueryStringPairsFromKeyAndValue`, generalised): maps recurse with `objects`, arrays with
/// `arrays`, sets become repeated keys sorted by their string form, scalars are written as the
/// policy says. O(n log n) in the number of leaves.
extension Policy {
    /// The pairs, unencoded, in the order the policy gives them.
    /// - Parameter value: a map, an ordered map, or a list of `{key, value}` pairs.
    /// - Throws: `QueryError` for a top-level value that is not a map, or an error thrown by a
    ///   custom function of the policy.
    public func pairs(_ value: PekitValue) throws -> [QueryPair] {
        var flattener = Flattener(policy: self)
        try flattener.top(value)
        if case .bytes = order {
            return try encodedPairs(flattener.out).map(\.pair)
        }
        return flattener.out
    }

    /// The query string: the pairs encoded and joined, with the policy's prefix when not empty.
    public func queryString(_ value: PekitValue) throws -> ByteString {
        let encoded = try encodedPairs(pairs(value))
        return ByteString(join(encoded))
    }

    func join(_ encoded: [EncodedPair]) -> [UInt8] {
        guard !encoded.isEmpty else { return [] }
        var out = prefix.bytes
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

    /// Each pair with its encoded key and value; sorted by encoded key then value under `bytes`.
    func encodedPairs(_ pairs: [QueryPair]) throws -> [EncodedPair] {
        let keyEncoder = encoder(for: encodeKeys)
        let valueEncoder = encoder(for: encodeValues)
        // Comma-joined arrays: each element encoded with ',' escaped, so the split is unambiguous;
        // the joining comma is written as the policy writes a comma.
        var partEncoder = valueEncoder
        partEncoder?.allowed.remove(0x2C)
        let joiner = valueEncoder?.encode(bytes: [0x2C]) ?? [0x2C]
        // qs 6.11 with arrayFormat comma and encodeValuesOnly (keys left as they are) splits every
        // value at its commas and encodes the pieces, so commas go out raw (stringify.js).
        let rawCommas: Bool = { if case .comma = arrays, case .none = encodeKeys { return true }; return false }()
        var result = pairs.map { pair -> EncodedPair in
            let key = keyEncoder?.encode(bytes: pair.key.bytes) ?? pair.key.bytes
            var value: [UInt8]?
            if rawCommas, let valueEncoder {
                let text = pair.commaParts.map { $0.map(\.bytes).joined(separator: [0x2C]).map { $0 } } ?? pair.value?.bytes
                value = text.map { Array($0.split(separator: 0x2C, omittingEmptySubsequences: false).map { valueEncoder.encode(bytes: Array($0)) }.joined(separator: [0x2C])) }
            } else if let parts = pair.commaParts {
                var joined: [UInt8] = []
                for (i, part) in parts.enumerated() {
                    if i > 0 { joined += joiner }
                    joined += partEncoder?.encode(bytes: part.bytes) ?? part.bytes
                }
                value = joined
            } else if let raw = pair.value {
                value = valueEncoder?.encode(bytes: raw.bytes) ?? raw.bytes
            }
            return EncodedPair(pair: pair, key: key, value: value)
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

extension Policy {
    /// A scalar as this policy writes it (booleans as `booleans` says); nil for anything else.
    func text(_ value: PekitValue) -> ByteString? {
        if case .boolean(let b) = value {
            switch booleans {
            case .numeric: return ByteString(b ? "1" : "0")
            case .capitalized: return ByteString(b ? "True" : "False")
            case .literal: break
            }
        }
        return Flattener.scalarText(value)
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

struct Flattener {
    let policy: Policy
    var out: [QueryPair] = []
    /// Set when keys are encoded segment by segment (`encode_keys = "segments"`).
    let segmentEncoder: PercentEncoder?

    init(policy: Policy) {
        self.policy = policy
        segmentEncoder = policy.encodeKeys == .segments ? policy.encoder : nil
    }

    /// A key segment as it goes into a composed key.
    func segment(_ key: ByteString) -> ByteString {
        guard let segmentEncoder else { return key }
        return ByteString(segmentEncoder.encode(bytes: key.bytes))
    }

    mutating func top(_ value: PekitValue) throws {
        switch value {
        case .map(let map):
            for entry in try entries(map) { try add(segment(entry.key), entry.value) }
        case .null:
            break
        case .array(let items):
            // A list of {key, value} pairs keeps its order.
            for (i, item) in items.enumerated() {
                guard case .array(let pair) = item, pair.count == 2 || pair.count == 1, let key = Self.scalarText(pair[0]) else {
                    throw QueryError("parameters[\(i + 1)]: parameters must be a map or a list of {key, value} pairs")
                }
                try add(segment(key), pair.count == 2 ? pair[1] : .null)
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

    static func scalarText(_ value: PekitValue) -> ByteString? {
        switch value {
        case .string(let s): return s
        case .integer(let n): return ByteString(String(n))
        case .number(let x): return ByteString(formatNumber(x))
        case .boolean(let b): return ByteString(b ? "true" : "false")
        default: return nil
        }
    }

    /// Floats as the shortest text that reads back as the same number; integral ones without ".0".
    static func formatNumber(_ x: Double) -> String {
        if x.isNaN { return "NaN" }
        if x.isInfinite { return x < 0 ? "-Infinity" : "Infinity" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    func text(_ value: PekitValue) -> ByteString? { policy.text(value) }

    static func isNested(_ value: PekitValue) -> Bool {
        switch value {
        case .array, .set, .map: return true
        default: return false
        }
    }

    mutating func empty(_ key: ByteString) {
        if policy.empty == .key { out.append(QueryPair(key: key, value: "")) }
    }

    mutating func add(_ key: ByteString, _ value: PekitValue) throws {
        switch value {
        case .null:
            switch policy.null {
            case .key: out.append(QueryPair(key: key, value: nil))
            case .empty: out.append(QueryPair(key: key, value: ""))
            case .skip: break
            }
        case .array(let items):
            guard !items.isEmpty else { return empty(key) }
            switch policy.arrays {
            case .brackets:
                let child = key + "[]"
                for item in items { try add(child, item) }
            case .indices:
                for (i, item) in items.enumerated() { try add(key + ByteString("[\(i)]"), item) }
            case .repeat:
                for item in items { try add(key, item) }
            case .comma:
                if items.allSatisfy({ !Self.isNested($0) }) {
                    let parts = items.compactMap { item -> ByteString? in
                        if case .null = item { return "" }
                        return text(item)
                    }
                    out.append(QueryPair(key: key, value: ByteString(bytes: parts.map(\.bytes).joined(separator: [0x2C])), commaParts: parts))
                } else {
                    for (i, item) in items.enumerated() { try add(key + ByteString("[\(i)]"), item) }
                }
            case .custom(let makeKey):
                for (i, item) in items.enumerated() { try add(makeKey(key, i, Self.isNested(item)), item) }
            }
        case .set(let items):
            guard !items.isEmpty else { return empty(key) }
            // AFNetworking's NSSet rule: sorted by string form, each under the key itself.
            let sorted = stableSorted(items) { a, b in
                guard let x = Self.scalarText(a) else { return false }
                guard let y = Self.scalarText(b) else { return true }
                return x < y
            }
            for item in sorted { try add(key, item) }
        case .map(let map):
            guard !map.isEmpty else { return empty(key) }
            for entry in try entries(map) { try add(childKey(key, entry.key), entry.value) }
        default:
            out.append(QueryPair(key: key, value: text(value)))
        }
    }

    func childKey(_ prefix: ByteString, _ key: ByteString) throws -> ByteString {
        switch policy.objects {
        case .brackets: return prefix + "[" + segment(key) + "]"
        case .dots: return prefix + "." + segment(key)
        case .custom(let makeKey): return try makeKey(prefix, segment(key))
        }
    }
}
