/// How one real server reads a query string, modelled exactly: the structure, values, order and
/// errors that server's own parser gives (checked against the real parsers in
/// `Tests/PekitCoreTests/Fixtures/servers`). Alamofire-style: pick a preset, or configure a
/// model's own options under the names that server uses.
public enum QueryServer: Sendable {
    /// The most bracket levels any model reads (qs's `depth`, PHP's `max_input_nesting_level`,
    /// Rack's `param_depth_limit` count as at most this): a deeper result would exhaust the stack
    /// when it is built, converted or freed, so no input may make one. The servers' defaults are
    /// 5, 64 and 100.
    public static let deepestNesting = 1000

    /// qs 6.11 `qs.parse` (Express with `extended: true`).
    case qs(QSParser)
    /// PHP 8.2 `parse_str` and `$_GET`.
    case php(PHPParser)
    /// Rack 2.2 `Rack::Utils.parse_nested_query` (Rails, Sinatra).
    case rack(RackParser)
    /// Python 3.11 `urllib.parse.parse_qs`.
    case python(PythonParser)
    /// Go 1.19 `net/url.ParseQuery`.
    case go(GoParser)
    /// The WHATWG URL Standard's `application/x-www-form-urlencoded` parser (`URLSearchParams`).
    case whatwg(WHATWGFormParser)
    /// node's `querystring.parse` (Express with `extended: false`).
    case nodeQuerystring(NodeQuerystringParser)

    /// Every model by the name `server =` takes, with its defaults.
    public static let all: [(name: String, model: QueryServer)] = [
        ("qs", .qs(QSParser())), ("php", .php(PHPParser())), ("rack", .rack(RackParser())),
        ("python", .python(PythonParser())), ("go", .go(GoParser())), ("whatwg", .whatwg(WHATWGFormParser())),
        ("node-querystring", .nodeQuerystring(NodeQuerystringParser())),
    ]

    /// The names `server =` takes.
    public static var names: [String] { all.map(\.name) }

    /// The model called `name`, with its defaults.
    /// - Throws: `QueryError` listing the models there are.
    public static func named(_ name: String) throws -> QueryServer {
        guard let found = all.first(where: { $0.name == name }) else {
            throw QueryError(Suggestion.message("unknown server '\(name)'", for: name, among: names) + " (known: \(names.joined(separator: ", ")))")
        }
        return found.model
    }

    /// The name `server =` takes.
    public var name: String {
        switch self {
        case .qs: return "qs"
        case .php: return "php"
        case .rack: return "rack"
        case .python: return "python"
        case .go: return "go"
        case .whatwg: return "whatwg"
        case .nodeQuerystring: return "node-querystring"
        }
    }

    /// The library and version modelled, as README and `--help` list them.
    public var modelled: String {
        switch self {
        case .qs: return "qs 6.11 qs.parse"
        case .php: return "PHP 8.2 parse_str"
        case .rack: return "Rack 2.2 parse_nested_query"
        case .python: return "Python 3.11 urllib.parse.parse_qs"
        case .go: return "Go 1.19 net/url.ParseQuery"
        case .whatwg: return "WHATWG URLSearchParams (application/x-www-form-urlencoded)"
        case .nodeQuerystring: return "node querystring.parse"
        }
    }

    /// Whether the model gives every name a list of values (`parse_qs`, `url.Values`) rather than
    /// nesting brackets.
    public var isFlat: Bool {
        switch self {
        case .qs, .php, .rack: return false
        case .python, .go, .whatwg, .nodeQuerystring: return true
        }
    }

    /// What the server reads from `query`: the parameters, and (Go only) the error the server
    /// returns beside them.
    /// - Throws: `QueryServerError` where the server raises.
    /// The part of pasted `input` (a query, `?…`, a URL) this server reads: `QueryInput`'s, except
    /// that qs with `ignoreQueryPrefix` is given the `?` of `?…` to remove itself, so that one `?`
    /// is removed in all, as qs removes it (`??a=1` is `{"?a": "1"}`).
    public func queryPart(of input: [UInt8]) -> (query: ArraySlice<UInt8>, source: QueryInput.Source) {
        let (query, source) = QueryInput.query(of: input)
        if source == .questionMark, case .qs(let parser) = self, parser.ignoreQueryPrefix {
            return (input[..<query.endIndex], source)
        }
        return (query, source)
    }

    public func read(_ query: ByteString) throws -> (value: PekitValue, error: QueryServerError?) {
        switch self {
        case .qs(let p): return (try p.parse(query), nil)
        case .php(let p): return (p.parse(query), nil)
        case .rack(let p): return (try p.parse(query), nil)
        case .python(let p): return (try p.parse(query), nil)
        case .go(let p): return p.parse(query)
        case .whatwg(let p): return (p.parse(query), nil)
        case .nodeQuerystring(let p): return (p.parse(query), nil)
        }
    }
}

/// The map a flat model returns: each name, in order of first appearance, to its values.
struct FlatValues {
    private var names: [ByteString] = []
    private var values: [ByteString: [PekitValue]] = [:]

    mutating func append(_ name: ByteString, _ value: ByteString) {
        if values[name]?.append(.string(value)) == nil {
            names.append(name)
            values[name] = [.string(value)]
        }
    }

    var value: PekitValue {
        .map(PekitMap(ordered: names.map { .init(key: $0, value: .array(values[$0] ?? [])) }))
    }
}
