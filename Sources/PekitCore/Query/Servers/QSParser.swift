/// qs 6.11's `qs.parse` (Express's `extended: true` parser), ported from qs's own `parse.js` and
/// `utils.js` with every parse option under its qs name. Keys and values are decoded with
/// `decodeURIComponent` (a value it rejects is kept as the raw text), brackets nest up to
/// `depth`, indices up to `arrayLimit` make arrays, repeated keys combine, keys named like
/// `Object.prototype` members are dropped unless `allowPrototypes`, and the result is merged
/// and compacted exactly as qs does. Objects list their keys as JavaScript does (array-index
/// names first).
public struct QSParser: Sendable {
    /// The charset qs decodes with.
    public enum Charset: String, Sendable, CaseIterable {
        /// UTF-8, qs's default.
        case utf8 = "utf-8"
        /// Latin-1 (`%E9` is `é`; other characters as numeric entities with `interpretNumericEntities`).
        case iso88591 = "iso-8859-1"
    }
    /// What a decoder is decoding.
    public enum Part: String, Sendable {
        /// A key (before `=`).
        case key
        /// A value (after `=`).
        case value
    }
    /// What a custom decoder returns (a JavaScript value qs would store).
    public enum Decoded: Sendable, Equatable {
        /// JavaScript's `undefined` (the pair is skipped) and `null`.
        case undefined, null
        /// A boolean.
        case boolean(Bool)
        /// A number.
        case number(Double)
        /// A string.
        case string(ByteString)
    }
    /// `decoder(str, defaultDecoder, charset, type)`.
    public typealias Decoder = @Sendable (_ text: ByteString, _ charset: Charset, _ part: Part) throws -> Decoded
    /// How pieces are split: a string, or the ranges between a pattern's matches.
    public enum Delimiter: Sendable {
        /// Split at each occurrence of this string (`&`).
        case string(ByteString)
        /// Split between the ranges the function returns (qs's RegExp delimiter).
        case custom(@Sendable (_ input: [UInt8]) throws -> [Range<Int>])
    }

    /// `a.b=c` nests as `a[b]=c`.
    public var allowDots = false
    /// Keys named like `Object.prototype`'s members (`hasOwnProperty`) are kept.
    public var allowPrototypes = false
    /// qs's `plainObjects`: objects without a prototype, so `Object.prototype`'s names are
    /// ordinary keys (as with `allowPrototypes`; `__proto__` is still skipped, as qs skips it).
    public var plainObjects = false
    /// Whether keys named like `Object.prototype`'s members are kept.
    var keepsPrototypeNames: Bool { allowPrototypes || plainObjects }
    /// Arrays keep their holes (`a[1]=b` is `[, "b"]`, not `["b"]`).
    public var allowSparse = false
    /// Largest index that makes an array (20). Above 1,048,576 it counts as 1,048,576: qs would
    /// build a sparse array that long, which is no use to anyone.
    public var arrayLimit = 20
    /// The charset keys and values are decoded with.
    public var charset = Charset.utf8
    /// A `utf8=✓` pair (as Rails forms send it) says the charset, and is dropped.
    public var charsetSentinel = false
    /// `a=b,c` is the array `["b", "c"]`.
    public var comma = false
    /// Decodes each key and value instead of `decodeURIComponent`.
    public var decoder: Decoder?
    /// What separates the pieces.
    public var delimiter = Delimiter.string("&")
    /// Bracket levels read (5); 0 (or `false`) keeps every key literal. More than
    /// `QueryServer.deepestNesting` counts as that many.
    public var depth = 5
    /// `depth` as read.
    var readDepth: Int { min(depth, QueryServer.deepestNesting) }
    /// A leading `?` is removed.
    public var ignoreQueryPrefix = false
    /// `&#9786;` in a value becomes `☺` (with the `iso-8859-1` charset, as browsers send what Latin-1 cannot hold).
    public var interpretNumericEntities = false
    /// Most pieces read (1000, empty ones included); nil is `Infinity`.
    public var parameterLimit: Int? = 1000
    /// Brackets make arrays; false makes every `[n]` a map key.
    public var parseArrays = true
    /// A key without `=` is `null`, not `""`.
    public var strictNullHandling = false

    /// qs 6.11's defaults.
    public init() {}

    /// Tests set this to compare the fast path with the faithful port.
    nonisolated(unsafe) static var faithfulOnly = false

    /// `ToUint32`, which `String.prototype.split` applies to qs's `parameterLimit`.
    public static func splitLimit(_ n: Double) -> Int? {
        if n == .infinity { return nil }
        guard n.isFinite else { return 0 }
        let m = n.rounded(.towardZero).truncatingRemainder(dividingBy: 4_294_967_296)
        return Int(m < 0 ? m + 4_294_967_296 : m)
    }

    /// The parsed object.
    /// - Throws: `QueryServerError` where qs throws (a decoder's error, or `interpretNumericEntities`
    ///   on a comma-split value).
    public func parse(_ query: ByteString) throws -> PekitValue {
        guard !query.isEmpty else { return .map(PekitMap(ordered: [])) }
        let input = prepared(query)
        if !Self.faithfulOnly, let fast = fastParse(input) { return fast }
        return try faithfulParse(input)
    }

    /// Hands the parsed object to `sink` from the top down, without building a `PekitValue`
    /// (the Lua bridge builds its tables this way). O(n) in the query's length.
    /// - Returns: nil when `sink` was given the object; otherwise the object itself, from the
    ///   faithful port, when these options need it (a `decoder`, `comma`, a charset other than
    ///   UTF-8, a pattern delimiter, or a query qs merges in one of its irregular ways) or the
    ///   query is empty: `sink` was given nothing then.
    /// - Throws: as `parse(_:)`.
    public func parse<Sink: QueryTreeSink>(_ query: ByteString, into sink: inout Sink) throws -> PekitValue? {
        guard !query.isEmpty else { return .map(PekitMap(ordered: [])) }
        let input = prepared(query)
        guard !Self.faithfulOnly, let tree = fastTree(input) else { return try faithfulParse(input) }
        tree.walk(into: &sink, sparse: allowSparse)
        return nil
    }

    /// qs's own algorithm: the pieces collected by key, then one chain of new objects per key
    /// merged into the result.
    private func faithfulParse(_ input: [UInt8]) throws -> PekitValue {
        let temp = try parseValues(input)
        var object = JSValue.object(JSObject())
        for key in temp.keys {
            guard let value = temp[key], let built = try parseKeys(key.bytes, value) else { continue }
            object = merge(object, built)
        }
        if !allowSparse { compact(object) }
        return object.value ?? .map(PekitMap(ordered: []))
    }

    /// The query as qs reads it: without a leading `?` when asked, ill-formed UTF-8 replaced.
    private func prepared(_ query: ByteString) -> [UInt8] {
        var input = query.bytes
        if ignoreQueryPrefix, input.first == 0x3F { input.removeFirst() }
        return UTF8Decoding.repaired(input)
    }

    // MARK: parseValues

    static let utf8Sentinel = Array("utf8=%E2%9C%93".utf8)
    static let isoSentinel = Array("utf8=%26%2310003%3B".utf8)

    private func split(_ input: [UInt8]) throws -> [Range<Int>] {
        if parameterLimit == 0 { return [] }
        var parts: [Range<Int>]
        switch delimiter {
        case .custom(let splitter): parts = try splitter(input)
        case .string(let separator):
            let sep = separator.bytes
            parts = []
            var start = 0, i = 0
            while i + sep.count <= input.count, !sep.isEmpty {
                if input[i] == sep[0] && (sep.count == 1 || input[i..<i + sep.count].elementsEqual(sep)) {
                    parts.append(start..<i); i += sep.count; start = i
                    if let limit = parameterLimit, parts.count >= limit { return parts }
                } else {
                    i += 1
                }
            }
            parts.append(start..<input.count)
        }
        if let limit = parameterLimit, parts.count > limit { parts.removeSubrange(limit...) }
        return parts
    }

    private func parseValues(_ input: [UInt8]) throws -> JSKeyOrder<JSValue> {
        var object = JSKeyOrder<JSValue>()
        let parts = try split(input)
        var charset = self.charset
        var skip = -1
        if charsetSentinel {
            for (i, range) in parts.enumerated() where input[range].starts(with: Array("utf8=".utf8)) {
                if input[range].elementsEqual(Self.utf8Sentinel) { charset = .utf8 }
                else if input[range].elementsEqual(Self.isoSentinel) { charset = .iso88591 }
                skip = i
                break
            }
        }
        for (i, range) in parts.enumerated() where i != skip {
            let part = input[range]
            let bracketEquals = firstIndex(of: [0x5D, 0x3D], in: part)
            let pos = bracketEquals.map { $0 + 1 } ?? part.firstIndex(of: 0x3D)
            let key: ByteString
            var value: JSValue
            if let pos {
                    key = try decode(part[..<pos], charset: charset, part: .key).propertyName
                    let raw = part[(pos + 1)...]
                    if comma, raw.contains(0x2C) {
                        let pieces = raw.split(separator: 0x2C, omittingEmptySubsequences: false)
                        value = .array(JSArray(try pieces.map { try decode($0, charset: charset, part: .value) }))
                    } else {
                        value = try decode(raw, charset: charset, part: .value)
                    }
            } else {
                key = try decode(part, charset: charset, part: .key).propertyName
                value = strictNullHandling ? .null : .string("")
            }
            if value.isTruthy, interpretNumericEntities, charset == .iso88591 {
                guard case .string(let text) = value else {
                    throw QueryServerError(server: "qs", kind: "TypeError", message: "val.replace is not a function",
                                           key: ByteString(bytes: part), offset: range.lowerBound)
                }
                value = .string(Self.numericEntities(text))
            }
            if firstIndex(of: [0x5B, 0x5D, 0x3D], in: part) != nil, case .array = value {
                value = .array(JSArray([value]))
            }
            // `obj['__proto__'] = val` sets no own property.
            if key == "__proto__" { continue }
            if let existing = object[key] {
                object[key] = .array(JSArray(existing.concatItems + value.concatItems))
            } else {
                object[key] = value
            }
        }
        return object
    }

    private func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        while i + needle.count <= haystack.endIndex {
            if haystack[i] == needle[0] && haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private func decode(_ text: ArraySlice<UInt8>, charset: Charset, part: Part) throws -> JSValue {
        if let decoder {
            switch try decoder(ByteString(bytes: text), charset, part) {
            case .undefined: return .undefined
            case .null: return .null
            case .boolean(let b): return .boolean(b)
            case .number(let n): return .number(n)
            case .string(let s): return .string(s)
            }
        }
        return .string(ByteString(Self.defaultDecode(text, charset: charset)))
    }

    /// qs's `utils.decode`: `+` to space, then `decodeURIComponent` (the text with `+` replaced
    /// when that throws), or for ISO-8859-1 each `%XX` as that Latin-1 character.
    public static func defaultDecode<Bytes: RandomAccessCollection>(_ text: Bytes, charset: Charset) -> [UInt8] where Bytes.Element == UInt8, Bytes.Index == Int {
        var plain = true
        for b in text where b == 0x2B || b == 0x25 { plain = false; break }
        if plain { return Array(text) }
        if charset == .utf8, let decoded = try? JSURIDecoding.decodeURIComponent(text, plusAsSpace: true) { return decoded }
        let spaced = text.map { $0 == 0x2B ? 0x20 : $0 }
        switch charset {
        case .utf8:
            return spaced
        case .iso88591:
            var out: [UInt8] = []
            var i = 0
            while i < spaced.count {
                if spaced[i] == 0x25, i + 2 < spaced.count, let hi = hexValue(spaced[i + 1]), let lo = hexValue(spaced[i + 2]) {
                    let b = hi << 4 | lo
                    if b < 0x80 { out.append(b) } else { out += [0xC0 | b >> 6, 0x80 | b & 0x3F] }
                    i += 3
                } else {
                    out.append(spaced[i]); i += 1
                }
            }
            return out
        }
    }

    /// `&#NNN;` to `String.fromCharCode(NNN)` (a UTF-16 code unit; pairs of them combine).
    static func numericEntities(_ text: ByteString) -> ByteString {
        let units = Array(String(decoding: text.bytes, as: UTF8.self).utf16)
        var out: [UInt16] = []
        var i = 0
        while i < units.count {
            if units[i] == 0x26, i + 3 < units.count, units[i + 1] == 0x23 {
                var j = i + 2
                var n = 0.0
                while j < units.count, units[j] >= 0x30, units[j] <= 0x39 { n = n * 10 + Double(units[j] - 0x30); j += 1 }
                if j > i + 2, j < units.count, units[j] == 0x3B {
                    out.append(UInt16(truncatingIfNeeded: Int64(n.truncatingRemainder(dividingBy: 65536))))
                    i = j + 1
                    continue
                }
            }
            out.append(units[i]); i += 1
        }
        return ByteString(Array(String(decoding: out, as: UTF16.self).utf8))
    }

    // MARK: parseKeys

    static let prototypeNames: Set<ByteString> = [
        "constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__", "__lookupSetter__",
        "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf", "__proto__", "toLocaleString",
    ]

    private func parseKeys(_ givenKey: [UInt8], _ value: JSValue) throws -> JSValue? {
        guard !givenKey.isEmpty else { return nil }
        let key = allowDots ? Self.dotsToBrackets(givenKey) : givenKey
        let segments = readDepth > 0 ? Self.bracketSegments(key) : []
        let parent = segments.first.map { key[..<$0.lowerBound] } ?? key[...]
        var chain: [ArraySlice<UInt8>] = []
        if !parent.isEmpty {
            if !keepsPrototypeNames, Self.prototypeNames.contains(ByteString(bytes: parent)) { return nil }
            chain.append(parent)
        }
        var remainder: Int? = nil
        for (i, segment) in segments.enumerated() {
            if i >= readDepth { remainder = segment.lowerBound; break }
            if !keepsPrototypeNames, Self.prototypeNames.contains(ByteString(bytes: key[(segment.lowerBound + 1)..<(segment.upperBound - 1)])) { return nil }
            chain.append(key[segment])
        }
        var rest: [UInt8] = []
        if let remainder { rest = [0x5B] + key[remainder...] + [0x5D] }
        if remainder != nil { chain.append(rest[...]) }
        return parseObject(chain, value)
    }

    /// The matches of `/\[[^[\]]*]/g`, left to right.
    static func bracketSegments(_ key: [UInt8], limit: Int = .max) -> [Range<Int>] {
        var found: [Range<Int>] = []
        found.reserveCapacity(min(limit, 8))
        var p = 0
        while p < key.count {
            guard key[p] == 0x5B else { p += 1; continue }
            var q = p + 1
            while q < key.count, key[q] != 0x5B, key[q] != 0x5D { q += 1 }
            if q == key.count { break }
            if key[q] == 0x5D { found.append(p..<(q + 1)); p = q + 1; if found.count == limit { break } } else { p = q }
        }
        return found
    }

    /// `key.replace(/\.([^.[]+)/g, '[$1]')`.
    static func dotsToBrackets(_ key: [UInt8]) -> [UInt8] {
        guard key.contains(0x2E) else { return key }
        var out: [UInt8] = []
        var i = 0
        while i < key.count {
            if key[i] == 0x2E, i + 1 < key.count, key[i + 1] != 0x2E, key[i + 1] != 0x5B {
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

    private func parseObject(_ chain: [ArraySlice<UInt8>], _ value: JSValue) -> JSValue {
        var leaf = value
        for root in chain.reversed() {
            if parseArrays, root.elementsEqual([0x5B, 0x5D]) {
                leaf = .array(JSArray(leaf.concatItems))
                continue
            }
            let bracketed = root.count >= 2 && root.first == 0x5B && root.last == 0x5D
            let cleanRoot = bracketed ? root.dropFirst().dropLast() : root
            if !parseArrays && cleanRoot.isEmpty {
                let object = JSObject()
                object.properties["0"] = leaf
                leaf = .object(object)
            } else if parseArrays, bracketed, let index = Self.canonicalIndex(cleanRoot), index <= min(arrayLimit, 1 << 20) {
                let array = JSArray()
                array.set(index, leaf)
                leaf = .array(array)
            } else {
                let object = JSObject()
                if !cleanRoot.elementsEqual(Array("__proto__".utf8)) { object.properties[ByteString(bytes: cleanRoot)] = leaf }
                leaf = .object(object)
            }
        }
        return leaf
    }

    /// `String(parseInt(s, 10)) === s && index >= 0`: a canonical non-negative decimal that a
    /// double holds exactly.
    static func canonicalIndex<Bytes: Collection>(_ s: Bytes) -> Int? where Bytes.Element == UInt8 {
        guard let first = s.first, first >= 0x30, first <= 0x39, s.count <= 16 else { return nil }
        guard s.count == 1 || first != 0x30 else { return nil }
        var n = 0
        for b in s {
            guard b >= 0x30, b <= 0x39 else { return nil }
            n = n * 10 + Int(b - 0x30)
        }
        return n <= 9_007_199_254_740_992 ? n : nil
    }
}

extension QSParser: QueryServerParser {
    public func read(_ query: ByteString) throws -> PekitValue { try parse(query) }

    /// qs's options, under qs's names.
    static let optionRows: [QueryServer.OptionRow<QSParser>] = [
        .flag("allowDots", \.allowDots),
        .flag("allowPrototypes", \.allowPrototypes),
        .flag("allowSparse", \.allowSparse),
        .integer("arrayLimit", \.arrayLimit, Int64(Int32.min)...Int64.max),
        .choice("charset", \.charset),
        .flag("charsetSentinel", \.charsetSentinel),
        .flag("comma", \.comma),
        .lua("decoder", takes: "a Lua function"),
        .custom("delimiter", takes: "a non-empty string") { p, value in p.delimiter = .string(try value.text()) },
        .custom("depth", takes: "a whole number or false (at most \(QueryServer.deepestNesting): pekit reads no deeper)") { p, value in
            if case .boolean(false) = value.value { p.depth = 0; return }
            guard case .integer(let n) = value.value, n <= QueryServer.deepestNesting else {
                throw value.fail("a whole number or false (at most \(QueryServer.deepestNesting): pekit reads no deeper)")
            }
            p.depth = try value.integer(Int64(Int32.min)...Int64(QueryServer.deepestNesting))
        },
        .flag("ignoreQueryPrefix", \.ignoreQueryPrefix),
        .flag("interpretNumericEntities", \.interpretNumericEntities),
        .custom("parameterLimit", takes: "a number (Infinity or math.huge for no limit)") { p, value in
            switch value.value {
            case .integer(let n): p.parameterLimit = QSParser.splitLimit(Double(n))
            case .number(let x): p.parameterLimit = QSParser.splitLimit(x)
            case .string("Infinity"): p.parameterLimit = nil
            default: throw value.fail("a number (Infinity or math.huge for no limit)")
            }
        },
        .flag("parseArrays", \.parseArrays),
        .flag("plainObjects", \.plainObjects),
        .flag("strictNullHandling", \.strictNullHandling),
    ]
}
