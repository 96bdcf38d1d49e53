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
        let root = QueryTreeNode.map()
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

    private func insert(segments: [[UInt8]], value: PekitValue, into root: QueryTreeNode) throws {
        var node = root
        for (level, segment) in segments.enumerated() {
            let isLast = level == segments.count - 1
            let slot: QueryTreeNode.Slot = try slot(for: segment, in: node, isFirst: level == 0)
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

    private func slot(for segment: [UInt8], in node: QueryTreeNode, isFirst: Bool) throws -> QueryTreeNode.Slot {
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
