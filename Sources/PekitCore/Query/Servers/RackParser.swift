/// Rack 2.2's `Rack::Utils.parse_nested_query` (Rails, Sinatra), ported from
/// `Rack::QueryParser#normalize_params`: `&` and `;` separate (spaces after a separator are
/// skipped), `[]` appends, `[][x]` groups into the last hash of an array until a key repeats,
/// conflicting types raise `ParameterTypeError`, a bad `%` escape or a name that is not UTF-8
/// raises `InvalidParameterError`, and each limit raises `QueryLimitError`.
public struct RackParser: Sendable {
    /// Characters of keys one hash may hold (`key_space_limit`, 65536).
    public var keySpaceLimit = 65536
    /// Nesting depth (`param_depth_limit`, 100: a name may have 99 bracket levels); more than
    /// `QueryServer.deepestNesting` counts as that many.
    public var paramDepthLimit = 100
    /// Longest query in bytes (`bytesize_limit`, 4194304).
    public var bytesizeLimit = 4_194_304
    /// Most separators + 1 (`params_limit`, 4096).
    public var paramsLimit = 4096
    /// The separator characters (`d`), `&` and `;` by default.
    public var separators: ByteString?

    /// Rack 2.2's defaults (`param_depth_limit` 100).
    public init() {}

    /// What the server reads.
    /// - Throws: `QueryServerError` with Rack's error class.
    public func parse(_ query: ByteString) throws -> PekitValue {
        let qs = query.bytes
        let seps = separators?.bytes ?? [0x26, 0x3B]
        if qs.count > bytesizeLimit {
            throw error("QueryLimitError", "total query size exceeds limit (\(bytesizeLimit))")
        }
        let count = qs.reduce(0) { $0 + (seps.contains($1) ? 1 : 0) }
        if count >= paramsLimit {
            throw error("QueryLimitError", "total number of query parameters (\(count + 1)) exceeds limit (\(paramsLimit))")
        }
        let params = RackParams(limit: keySpaceLimit)
        guard !qs.isEmpty else { return params.value }
        // String#split(/[&;] */) drops the empty pieces at the end.
        var pieces: [Range<Int>] = []
        var start = 0, i = 0
        while i < qs.count {
            if seps.contains(qs[i]) {
                pieces.append(start..<i)
                i += 1
                while i < qs.count, qs[i] == 0x20 { i += 1 }
                start = i
            } else {
                i += 1
            }
        }
        pieces.append(start..<qs.count)
        while let last = pieces.last, last.isEmpty { pieces.removeLast() }
        for range in pieces {
            let piece = qs[range]
            let equals = piece.firstIndex(of: 0x3D)
            do {
                let name = range.isEmpty ? nil : try unescape(piece[..<(equals ?? piece.endIndex)])
                let value = try equals.map { try unescape(piece[($0 + 1)...]) }
                if let name, !UTF8Validation.isValid(name) {
                    throw error("InvalidParameterError", "invalid byte sequence in UTF-8")
                }
                _ = try normalize(params, name: name?[...], value: value.map { RackValue.string(ByteString($0)) } ?? .null, depth: min(paramDepthLimit, QueryServer.deepestNesting))
            } catch let e as QueryServerError {
                throw QueryServerError(server: e.server, kind: e.kind, message: e.message, key: ByteString(bytes: piece), offset: range.lowerBound)
            }
        }
        return params.value
    }

    private func error(_ kind: String, _ message: String) -> QueryServerError {
        QueryServerError(server: "Rack", kind: kind, message: message)
    }

    /// `URI.decode_www_form_component`: every `%` must start an escape.
    private func unescape(_ s: ArraySlice<UInt8>) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        while i < s.endIndex {
            let b = s[i]
            if b == 0x25 {
                guard i + 2 < s.endIndex, let hi = hexValue(s[i + 1]), let lo = hexValue(s[i + 2]) else {
                    throw error("InvalidParameterError", "invalid %-encoding (\(ByteString(bytes: s)))")
                }
                out.append(hi << 4 | lo); i += 3
            } else {
                out.append(b == 0x2B ? 0x20 : b); i += 1
            }
        }
        return out
    }

    /// `normalize_params(params, name, v, depth)`; returns what Ruby's method returns.
    func normalize(_ params: RackParams, name: ArraySlice<UInt8>?, value: RackValue, depth: Int) throws -> RackValue {
        if depth <= 0 { throw error("QueryLimitError", "Rack::QueryParser::QueryLimitError") }
        let (k, after) = Self.split(name ?? [])
        if k.isEmpty {
            if case .string = value, let name, name.elementsEqual([0x5B, 0x5D]) { return .array(RackArray([value])) }
            return .null
        }
        let key = ByteString(bytes: k)
        let typeName = { (v: RackValue?) in v?.className ?? "NilClass" }
        if after.isEmpty {
            try params.set(key, value)
        } else if after.elementsEqual([0x5B]) {
            try params.set(ByteString(bytes: name ?? []), value)
        } else if after.elementsEqual([0x5B, 0x5D]) {
            if params[key].isNil { try params.set(key, .array(RackArray([]))) }
            guard case .array(let list)? = params[key] else {
                throw error("ParameterTypeError", "expected Array (got \(typeName(params[key]))) for param `\(key)'")
            }
            list.items.append(value)
        } else if let childKey = Self.arrayChild(after) {
            if params[key].isNil { try params.set(key, .array(RackArray([]))) }
            guard case .array(let list)? = params[key] else {
                throw error("ParameterTypeError", "expected Array (got \(typeName(params[key]))) for param `\(key)'")
            }
            if case .params(let last)? = list.items.last, !Self.hasKey(last, childKey) {
                _ = try normalize(last, name: childKey, value: value, depth: depth - 1)
            } else {
                list.items.append(try normalize(RackParams(limit: keySpaceLimit), name: childKey, value: value, depth: depth - 1))
            }
        } else {
            if params[key].isNil { try params.set(key, .params(RackParams(limit: keySpaceLimit))) }
            guard case .params(let child)? = params[key] else {
                throw error("ParameterTypeError", "expected Hash (got \(typeName(params[key]))) for param `\(key)'")
            }
            try params.set(key, try normalize(child, name: after, value: value, depth: depth - 1))
        }
        return .params(params)
    }

    /// `name =~ %r(\A[\[\]]*([^\[\]]+)\]*)`: the key and what follows (both empty when no match).
    static func split(_ name: ArraySlice<UInt8>) -> (key: ArraySlice<UInt8>, after: ArraySlice<UInt8>) {
        var i = name.startIndex
        while i < name.endIndex, name[i] == 0x5B || name[i] == 0x5D { i += 1 }
        let start = i
        while i < name.endIndex, name[i] != 0x5B, name[i] != 0x5D { i += 1 }
        guard i > start else { return ([], []) }
        let key = name[start..<i]
        while i < name.endIndex, name[i] == 0x5D { i += 1 }
        return (key, name[i...])
    }

    /// `after =~ %r(^\[\]\[([^\[\]]+)\]$) || after =~ %r(^\[\](.+)$)`, with Ruby's line anchors.
    static func arrayChild(_ after: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let end = after.endIndex
        let atLineEnd = { (i: Int) in i == end || after[i] == 0x0A }
        // Line starts, lazily: the start, then after each newline.
        let lineStarts = sequence(first: after.startIndex) { s in after[s...].firstIndex(of: 0x0A).map { $0 + 1 } }
        for s in lineStarts where after[s...].starts(with: [0x5B, 0x5D, 0x5B]) {
            var i = s + 3
            while i < end, after[i] != 0x5B, after[i] != 0x5D { i += 1 }
            if i > s + 3, i < end, after[i] == 0x5D, atLineEnd(i + 1) { return after[(s + 3)..<i] }
        }
        for s in lineStarts where after[s...].starts(with: [0x5B, 0x5D]) {
            var i = s + 2
            while i < end, after[i] != 0x0A { i += 1 }
            if i > s + 2 { return after[(s + 2)..<i] }
        }
        return nil
    }

    /// `params_hash_has_key?`.
    static func hasKey(_ hash: RackParams, _ key: ArraySlice<UInt8>) -> Bool {
        if key.count >= 2, zip(key, key.dropFirst()).contains(where: { $0 == 0x5B && $1 == 0x5D }) { return false }
        var parts: [[UInt8]] = key.split(omittingEmptySubsequences: true) { $0 == 0x5B || $0 == 0x5D }.map(Array.init)
        while parts.last?.isEmpty == true { parts.removeLast() }
        var current = RackValue.params(hash)
        for part in parts {
            guard case .params(let h) = current, let next = h[ByteString(part)] else { return false }
            current = next
        }
        return true
    }
}

/// A value while Rack builds it (hashes and arrays are shared and changed in place, as in Ruby).
enum RackValue {
    case null
    case string(ByteString)
    case array(RackArray)
    case params(RackParams)
    /// An uploaded file (a plain Ruby Hash: `{filename:, type:, name:, tempfile:, head:}`).
    case file(PekitValue)

    var isNil: Bool { if case .null = self { return true } else { return false } }

    var className: String {
        switch self {
        case .null: return "NilClass"
        case .string: return "String"
        case .array: return "Array"
        case .params: return "Rack::QueryParser::Params"
        case .file: return "Hash"
        }
    }

    var value: PekitValue {
        switch self {
        case .null: return .null
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.items.map(\.value))
        case .params(let p): return p.value
        case .file(let f): return f
        }
    }
}

extension Optional where Wrapped == RackValue {
    var isNil: Bool { self?.isNil ?? true }
}

final class RackArray {
    var items: [RackValue]
    init(_ items: [RackValue]) { self.items = items }
}

/// `Rack::QueryParser::Params`: a hash that counts the characters of its keys against a limit.
final class RackParams {
    private let limit: Int
    private var size = 0
    private var keys: [ByteString] = []
    private var values: [ByteString: RackValue] = [:]

    init(limit: Int) { self.limit = limit }

    subscript(key: ByteString) -> RackValue? { values[key] }

    func set(_ key: ByteString, _ value: RackValue) throws {
        if values[key] == nil {
            size += key.bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            if size > limit {
                throw QueryServerError(server: "Rack", kind: "QueryLimitError", message: "exceeded available parameter key space")
            }
            keys.append(key)
        }
        values[key] = value
    }

    var value: PekitValue {
        .map(PekitMap(ordered: keys.compactMap { key in values[key].map { .init(key: key, value: $0.value) } }))
    }
}

extension RackParser: QueryServerParser {
    public func read(_ query: ByteString) throws -> PekitValue { try parse(query) }

    /// Rack's limits and separators, under Rack's names.
    static let optionRows: [QueryServer.OptionRow<RackParser>] = [
        .integer("key_space_limit", \.keySpaceLimit),
        .integer("param_depth_limit", \.paramDepthLimit, 0...Int64(QueryServer.deepestNesting)),
        .integer("bytesize_limit", \.bytesizeLimit),
        .integer("params_limit", \.paramsLimit),
        .text("separators", \.separators),
    ]
}
