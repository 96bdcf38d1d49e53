/// Parses a query string back into nested values, the way servers do (qs, PHP, Rack), with the
/// abuse limits a server needs. Each limit has a safe default; past one, lenient parsing does
/// what qs does (ignores extra parameters, keeps deeper brackets as one literal key, turns an
/// array with a too-large index into a map) and strict parsing fails naming the limit.
/// Linear in the input length times the nesting depth.
public struct QueryParser: Sendable {
    /// What to do with a key that appears more than once.
    public enum Duplicates: String, Sendable, CaseIterable {
        /// Collect the values into an array (qs, the default).
        case combine
        /// Keep the first value.
        case first
        /// Keep the last value (PHP, Rack for plain keys).
        case last
    }

    /// Decode `+` as a space (every server does for forms; qs, PHP and Rack do for queries too).
    public var plusAsSpace = true
    /// Read `a.b` as `a[b]`.
    public var allowDots = false
    /// Split values on unescaped commas into arrays (`arrays = "comma"`).
    public var comma = false
    /// Deepest bracket nesting; deeper parts stay one literal key segment (qs: 5).
    public var depth = 5
    /// Most parameters read (qs and PHP: 1000).
    public var parameterLimit = 1000
    /// Largest array index kept as an array (qs: 20); larger ones make the array a map.
    public var arrayLimit = 20
    /// Longest input, in bytes.
    public var maxLength = 16 << 20
    public var duplicates = Duplicates.combine
    /// Fail instead of applying the lenient rule when a limit is passed or a key is malformed.
    public var strict = false
    /// A key with no `=` is null (policies with `null = "key"`); otherwise an empty string.
    public var bareKeyIsNull = false
    /// `a[0]=x` makes an array (qs, PHP); Rack reads the index as a map key.
    public var indicesMakeArrays = true
    /// The pair separator and the key/value separator.
    public var separator: ByteString = "&"
    public var assign: ByteString = "="

    public init() {}

    /// Close the gaps of sparse arrays (`a[1]=x&a[3]=y` → `["x", "y"]`, qs); otherwise an array
    /// whose indices are not 0…n-1 becomes a map (PHP).
    public var compactsArrays = true

    /// Rack's key reading: runs of characters between any brackets are the segments, `[]`
    /// appends, and stray or unclosed brackets are skipped (`a]b` and `a[b` are both `a` → `b`).
    public var rackKeys = false

    /// PHP's rule for top-level names: `.` and space become `_`, and so does a `[` that is
    /// never closed.
    public var phpNames = false

    /// Options that read back what `policy` writes. `+` is read as a space whatever the policy,
    /// as servers read it (a policy that leaves `+` literal loses it: `check` reports that).
    public init(policy: Policy) {
        allowDots = { if case .dots = policy.objects { return true } else { return false } }()
        comma = { if case .comma = policy.arrays { return true } else { return false } }()
        bareKeyIsNull = policy.null == .key
        separator = policy.separator
        assign = policy.assign
    }

    /// qs.parse with its defaults.
    public static let qs = QueryParser()

    /// PHP's parse_str (and `$_GET`): depth 64 (max_input_nesting_level), 1000 variables
    /// (max_input_vars), any index kept, last duplicate wins, `.` and space in names become `_`.
    public static let php: QueryParser = {
        var p = QueryParser()
        p.depth = 64; p.arrayLimit = Int.max; p.compactsArrays = false; p.duplicates = .last; p.phpNames = true
        return p
    }()

    /// Rack's parse_nested_query (Rails): indices are map keys, a bare key is nil, the last
    /// duplicate wins, depth 100.
    public static let rack: QueryParser = {
        var p = QueryParser()
        p.depth = 100; p.indicesMakeArrays = false; p.bareKeyIsNull = true; p.duplicates = .last; p.rackKeys = true
        p.parameterLimit = Int.max
        return p
    }()

    /// The server models by name, for `check`.
    public static let servers: [String: QueryParser] = ["qs": .qs, "php": .php, "rack": .rack]

    /// The model of the server called `name`.
    /// - Throws: `QueryError` listing the servers there are.
    public static func server(named name: String) throws -> QueryParser {
        guard let server = servers[name] else {
            throw QueryError("unknown server '\(name)' (known: \(servers.keys.sorted().joined(separator: ", ")))")
        }
        return server
    }

    /// Parses `input` into an ordered map (keys in first-seen order).
    /// - Throws: `QueryError` naming the limit or the malformed key (strict mode), or when the
    ///   input is longer than `maxLength`.
    public func parse(_ input: ByteString) throws -> PekitValue {
        let bytes = input.bytes
        guard bytes.count <= maxLength else {
            throw QueryError("the query is \(bytes.count) bytes, more than the limit of \(maxLength) (max_length)")
        }
        let root = Node.map()
        var count = 0
        for range in split(bytes, on: separator.bytes) where !range.isEmpty {
            let part = bytes[range]
            count += 1
            if count > parameterLimit {
                if strict { throw QueryError("more than \(parameterLimit) parameters (the parameters limit; lenient parsing keeps the first \(parameterLimit))") }
                break
            }
            var rawKey = part, rawValue: ArraySlice<UInt8>? = nil
            if let at = firstIndex(of: assign.bytes, in: part) {
                rawKey = part[part.startIndex..<at]
                rawValue = part[(at + assign.count)...]
            }
            let key = decode(rawKey)
            guard !key.isEmpty else { continue }
            let value: PekitValue
            if let rawValue {
                if comma, rawValue.contains(0x2C) {
                    let raw = Array(rawValue)
                    value = .array(split(raw, on: [0x2C]).map { .string(ByteString(decode(raw[$0]))) })
                } else {
                    value = .string(ByteString(decode(rawValue)))
                }
            } else {
                value = bareKeyIsNull ? .null : .string("")
            }
            try insert(segments: try segments(of: key), value: value, into: root)
        }
        return root.value(compact: compactsArrays)
    }

    private func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        // Most keys and many values have nothing to decode.
        if !bytes.contains(where: { $0 == 0x25 || ($0 == 0x2B && plusAsSpace) }) { return Array(bytes) }
        let decoder = PercentDecoder(mode: .lenient, plusAsSpace: plusAsSpace)
        return (try? decoder.decode(bytes: bytes)) ?? Array(bytes)
    }

    /// `a[b][]` → ["a", "b", ""], with the depth limit applied.
    func segments(of key: [UInt8]) throws -> [[UInt8]] {
        var key = key
        if allowDots { key = dotsToBrackets(key) }
        if phpNames { key = phpMangled(key) }
        if rackKeys { return try rackSegments(key) }
        guard let open = key.firstIndex(of: 0x5B), open > 0, key[open...].contains(0x5D) else { return [key] }
        var result: [[UInt8]] = [Array(key[..<open])]
        var i = open
        var level = 0
        while i < key.count, key[i] == 0x5B, let close = key[(i + 1)...].firstIndex(of: 0x5D) {
            if level == depth {
                if strict { throw QueryError("key \"\(ByteString(key))\" is nested deeper than \(depth) levels (depth)") }
                result.append(Array(key[i...]))  // the rest, literally, as qs keeps it
                return result
            }
            result.append(Array(key[(i + 1)..<close]))
            level += 1
            i = close + 1
        }
        if i < key.count {
            // Text after the brackets, or an unclosed bracket: qs keeps it as one more segment.
            if strict { throw QueryError("key \"\(ByteString(key))\" is malformed (an unclosed '[' or text after ']')") }
            result.append(Array(key[i...]))
        }
        return result
    }

    private func rackSegments(_ key: [UInt8]) throws -> [[UInt8]] {
        var result: [[UInt8]] = []
        var i = 0
        let isBracket = { (b: UInt8) in b == 0x5B || b == 0x5D }
        while i < key.count {
            if !result.isEmpty, i + 1 < key.count, key[i] == 0x5B, key[i + 1] == 0x5D {
                result.append([]); i += 2
            } else {
                while i < key.count, isBracket(key[i]) { i += 1 }
                let start = i
                while i < key.count, !isBracket(key[i]) { i += 1 }
                if i > start { result.append(Array(key[start..<i])) }
                while i < key.count, key[i] == 0x5D { i += 1 }
            }
            if result.count > depth + 1 {
                if strict { throw QueryError("key \"\(ByteString(key))\" is nested deeper than \(depth) levels (depth)") }
                return Array(result.prefix(depth + 1))
            }
        }
        return result.isEmpty ? [key] : result
    }

    private func phpMangled(_ key: [UInt8]) -> [UInt8] {
        var out = key
        let open = key.firstIndex(of: 0x5B)
        let closed = open.map { key[$0...].contains(0x5D) } ?? false
        let nameEnd = closed ? open! : key.count
        for i in 0..<nameEnd where out[i] == 0x2E || out[i] == 0x20 || (out[i] == 0x5B && !closed) { out[i] = 0x5F }
        // PHP drops leading spaces of the name before mangling the rest.
        while out.first == 0x5F, key.first == 0x20 { out.removeFirst(); break }
        return out
    }

    private func dotsToBrackets(_ key: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < key.count {
            if key[i] == 0x2E, i > 0, i + 1 < key.count, key[i + 1] != 0x2E, key[i + 1] != 0x5B {
                var j = i + 1
                while j < key.count, key[j] != 0x2E, key[j] != 0x5B { j += 1 }
                out.append(0x5B); out += key[(i + 1)..<j]; out.append(0x5D)
                i = j
            } else {
                out.append(key[i]); i += 1
            }
        }
        return out
    }

    private func insert(segments: [[UInt8]], value: PekitValue, into root: Node) throws {
        var node = root
        for (level, segment) in segments.enumerated() {
            let isLast = level == segments.count - 1
            let slot: Node.Slot = try slot(for: segment, in: node, isFirst: level == 0)
            if isLast {
                node.set(slot, leaf: value, duplicates: duplicates)
            } else {
                node = node.child(slot, nextIsIndex: isIndexLike(segments[level + 1]), duplicates: duplicates)
            }
        }
    }

    private func isIndexLike(_ segment: [UInt8]) -> Bool {
        segment.isEmpty || (indicesMakeArrays && index(segment) != nil)
    }

    private func index(_ segment: [UInt8]) -> Int? {
        guard !segment.isEmpty, segment.count <= 9, segment.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        guard segment.count == 1 || segment[0] != 0x30 else { return nil }
        return Int(String(decoding: segment, as: UTF8.self))
    }

    private func slot(for segment: [UInt8], in node: Node, isFirst: Bool) throws -> Node.Slot {
        if isFirst { return .key(ByteString(segment)) }
        if segment.isEmpty { return .append }
        if indicesMakeArrays, let n = index(segment) {
            if n <= arrayLimit { return .index(n) }
            if strict { throw QueryError("array index \(n) is over the limit of \(arrayLimit) (arrayLimit)") }
        }
        return .key(ByteString(segment))
    }

    /// The ranges between separators (no copies).
    private func split(_ bytes: [UInt8], on separator: [UInt8]) -> [Range<Int>] {
        guard !separator.isEmpty else { return [0..<bytes.count] }
        var parts: [Range<Int>] = []
        var start = 0, i = 0
        while i + separator.count <= bytes.count {
            if bytes[i] == separator[0] && (separator.count == 1 || bytes[i..<i + separator.count].elementsEqual(separator)) {
                parts.append(start..<i)
                i += separator.count
                start = i
            } else {
                i += 1
            }
        }
        parts.append(start..<bytes.count)
        return parts
    }

    private func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        if needle.count == 1 { return haystack.firstIndex(of: needle[0]) }
        var i = haystack.startIndex
        while i + needle.count <= haystack.endIndex {
            if haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

/// The tree being built: maps keep first-seen key order; arrays are sparse until the end.
private final class Node {
    enum Slot { case key(ByteString), index(Int), append }
    enum Kind { case map, array, leaf(PekitValue) }

    var kind: Kind
    var keys: [ByteString] = []
    var children: [ByteString: Node] = [:]
    var items: [Int: Node] = [:]
    var nextIndex = 0

    init(_ kind: Kind) { self.kind = kind }
    static func map() -> Node { Node(.map) }

    /// An array turned into a map (an index past the limit, or a key on an array): its
    /// indices become keys, as qs does.
    func makeMap() {
        guard case .array = kind else { return }
        for index in items.keys.sorted() {
            let key = ByteString(String(index))
            keys.append(key)
            children[key] = items[index]
        }
        items = [:]
        kind = .map
    }

    func resolve(_ slot: Slot) -> Slot {
        switch (kind, slot) {
        case (.array, .key):
            makeMap(); return slot
        case (.map, .index(let n)):
            return .key(ByteString(String(n)))
        case (.map, .append):
            return .key(ByteString(String(keys.count)))
        case (.leaf, _):
            kind = .map; return resolve(slot)
        default:
            return slot
        }
    }

    func get(_ slot: Slot) -> Node? {
        switch slot {
        case .key(let key): return children[key]
        case .index(let n): return items[n]
        case .append: return nil
        }
    }

    func put(_ slot: Slot, _ node: Node) {
        switch slot {
        case .key(let key):
            if children[key] == nil { keys.append(key) }
            children[key] = node
        case .index(let n):
            items[n] = node
            nextIndex = max(nextIndex, n + 1)
        case .append:
            items[nextIndex] = node
            nextIndex += 1
        }
    }

    func child(_ slot: Slot, nextIsIndex: Bool, duplicates: QueryParser.Duplicates) -> Node {
        if case .leaf = kind { kind = nextIsIndex ? .array : .map }
        let slot = resolve(slot)
        if let existing = get(slot) {
            if case .leaf(let old) = existing.kind {
                if duplicates == .combine {
                    // qs: a plain value and a nested one under the same key make an array of both.
                    let nested = Node(nextIsIndex ? .array : .map)
                    existing.kind = .array
                    existing.items = [0: Node(.leaf(old)), 1: nested]
                    existing.nextIndex = 2
                    return nested
                }
                existing.kind = nextIsIndex ? .array : .map
            }
            return existing
        }
        let node = Node(nextIsIndex ? .array : .map)
        put(slot, node)
        return node
    }

    func set(_ slot: Slot, leaf value: PekitValue, duplicates: QueryParser.Duplicates) {
        let slot = resolve(slot)
        guard let existing = get(slot) else { return put(slot, Node(.leaf(value))) }
        switch duplicates {
        case .first: return
        case .last: existing.kind = .leaf(value); existing.keys = []; existing.children = [:]; existing.items = [:]
        case .combine:
            switch existing.kind {
            case .leaf(let old):
                existing.kind = .array
                existing.items = [0: Node(.leaf(old)), 1: Node(.leaf(value))]
                existing.nextIndex = 2
            case .array:
                existing.put(.append, Node(.leaf(value)))
            case .map:
                existing.put(.key(ByteString(String(existing.keys.count))), Node(.leaf(value)))
            }
        }
    }

    func value(compact: Bool) -> PekitValue {
        switch kind {
        case .leaf(let value): return value
        case .array:
            let indices = items.keys.sorted()
            if compact || indices.last.map({ $0 == indices.count - 1 }) ?? true {
                return .array(indices.compactMap { items[$0]?.value(compact: compact) })
            }
            return .map(PekitMap(ordered: indices.compactMap { i in items[i].map { .init(key: ByteString(String(i)), value: $0.value(compact: compact)) } }))
        case .map:
            return .map(PekitMap(ordered: keys.compactMap { key in children[key].map { .init(key: key, value: $0.value(compact: compact)) } }))
        }
    }
}
