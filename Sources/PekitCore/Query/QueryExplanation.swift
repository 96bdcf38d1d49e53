/// A query as a policy writes it, pair by pair, with the rules that made it: what
/// `pekit query --explain` prints.
public struct QueryExplanation: Sendable {
    /// One pair: as flattened, as written, and the characters its encoding escaped.
    public struct Pair: Sendable {
        /// The key and value before encoding (a nil value: the key is written alone).
        public let pair: QueryPair
        /// The key and value as they are in the query.
        public let key: [UInt8], value: [UInt8]?
        /// The key's and the value's characters that were not written as they are, each with why.
        public let keyChanges: [EncodingStep], valueChanges: [EncodingStep]
    }

    /// The query, as `queryString` writes it.
    public let query: [UInt8]
    /// Its pairs in order; empty where a written pair could not be told from the next (a
    /// separator left unescaped inside a value).
    public let pairs: [Pair]
    /// The policy's flattening rules, one line each (arrays, objects, null, booleans, …).
    public let rules: [String]
}

extension Policy {
    /// `queryString(value)` with each pair and the rules that made it.
    /// - Parameter value: the parameters, as `queryString` takes them.
    /// - Throws: what `queryString(_:)` throws.
    /// - Complexity: O(n log n) in the number of leaves, as `queryString`.
    public func explain(_ value: PekitValue) throws -> QueryExplanation {
        let query = try queryString(value).bytes
        let flat = try pairs(value)
        // The written pairs, told apart at the separators (after the prefix).
        var body = query[...]
        if body.starts(with: prefix.bytes) { body = body.dropFirst(prefix.bytes.count) }
        let written = body.isEmpty ? [] : split(body, at: separator.bytes)
        var explained: [QueryExplanation.Pair] = []
        if written.count == flat.count {
            let keyEncoder = encoder(for: encodeKeys), valueEncoder = encoder(for: encodeValues)
            for (pair, piece) in zip(flat, written) {
                let (key, value) = halves(piece)
                func changes(_ raw: [UInt8], _ encoder: PercentEncoder?, _ written: [UInt8]) -> [EncodingStep] {
                    guard let encoder else { return [] }
                    let steps = encoder.explain(raw, origin: AllowedSetOrigin(base: encoder.allowed, name: "\(name) policy's"))
                    // Only where the steps are what was written (a comma-joined array, Rack's
                    // key segments: written another way, said by the rules).
                    return steps.flatMap(\.written) == written ? steps.filter { !$0.kept } : []
                }
                explained.append(.init(pair: pair, key: key, value: value,
                                       keyChanges: changes(pair.key.bytes, keyEncoder, key),
                                       valueChanges: pair.value.map { changes($0.bytes, valueEncoder, value ?? []) } ?? []))
            }
        }
        return QueryExplanation(query: query, pairs: explained, rules: rules)
    }

    /// The flattening rules in words.
    var rules: [String] {
        let arraysText: String = switch arrays {
        case .brackets: "an array's items as a[]=1&a[]=2 (brackets)"
        case .indices: "an array's items as a[0]=1&a[1]=2 (indices)"
        case .repeat: "an array's items as a=1&a=2 (the key repeated)"
        case .comma: "an array's items as a=1,2 (comma-joined)"
        case .indicesWhenNested: "an array's items as a[]=1, a[0][b]=1 where an item is itself nested (jQuery)"
        case .custom: "an array's items keyed by the policy's own function"
        }
        let objectsText: String = switch objects {
        case .brackets: "a map's members as a[b]=1 (brackets)"
        case .dots: "a map's members as a.b=1 (dots)"
        case .custom: "a map's members keyed by the policy's own function"
        }
        let nullText: String = switch null {
        case .key: "null as the key alone (a)"
        case .empty: "null as an empty value (a=)"
        case .skip: "null left out"
        case .text(let text): "null written as the text \"\(text)\""
        }
        let booleansText: String = switch booleans {
        case .literal: "booleans as true and false"
        case .numeric: "booleans as 1 and 0"
        case .capitalized: "booleans as True and False"
        }
        let numbersText: String = switch numbers {
        case .shortest: "numbers in their shortest form"
        case .custom: "numbers written by the policy's own function"
        default: "numbers as \(numbers.name) writes them"
        }
        let orderText: String = switch order {
        case .ascending: "keys in ascending order at every level"
        case .bytes: "pairs in the byte order of their encoded keys, then values"
        case .pairs: "entries sorted by the encoded pairs each writes (Alamofire)"
        case .given: "keys in the order given"
        case .custom: "keys in the order of the policy's own function"
        }
        func component(_ what: String, _ encoding: ComponentEncoding) -> String {
            switch encoding {
            case .policy: "\(what) percent-encoded with the policy's set"
            case .none: "\(what) written as they are"
            case .allowed: "\(what) percent-encoded with a set of their own"
            case .segments: "\(what) encoded segment by segment, their [ ] . kept"
            }
        }
        return [arraysText, objectsText, nullText, booleansText, numbersText, orderText,
                component("keys", encodeKeys), component("values", encodeValues),
                space == .plus ? "a space written '+'" : "a space written %20",
                empty == .skip ? "empty arrays and maps left out" : "empty arrays and maps as the key alone (a=)"]
    }

    private func split(_ bytes: ArraySlice<UInt8>, at separator: [UInt8]) -> [ArraySlice<UInt8>] {
        guard !separator.isEmpty else { return [bytes] }
        var pieces: [ArraySlice<UInt8>] = [], start = bytes.startIndex, i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i...].starts(with: separator) { pieces.append(bytes[start..<i]); i += separator.count; start = i } else { i += 1 }
        }
        pieces.append(bytes[start...])
        return pieces
    }

    /// A written pair's key and value (nil: no assign sign, the key alone).
    private func halves(_ piece: ArraySlice<UInt8>) -> ([UInt8], [UInt8]?) {
        let sign = assign.bytes
        guard !sign.isEmpty else { return (Array(piece), nil) }
        var i = piece.startIndex
        while i < piece.endIndex {
            if piece[i...].starts(with: sign) { return (Array(piece[..<i]), Array(piece[(i + sign.count)...])) }
            i += 1
        }
        return (Array(piece), nil)
    }
}
