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

    /// One server model's registration: its name, what it models, whether it is flat, its
    /// defaults and its options. A new model is its parser file (the parser, its
    /// `QueryServerParser` conformance and its option rows), a case above, and a row in `models`.
    public struct Model: @unchecked Sendable {
        /// The name `server =` and `--server` take.
        public let name: String
        /// The library and version modelled, as docs/servers.md and `--help` list them.
        public let modelled: String
        /// Whether the model gives every name a list of values (`parse_qs`, `url.Values`) rather
        /// than nesting brackets.
        public let isFlat: Bool
        /// The model with the server's defaults.
        public let defaults: QueryServer
        /// Its options, under the server's own names, in the order help lists them.
        public let options: [Option]
        fileprivate let parserType: Any.Type

        init<Parser: QueryServerParser>(_ name: String, _ modelled: String, flat: Bool, _ wrap: @escaping (Parser) -> QueryServer,
                                        _ defaults: Parser, _ rows: [OptionRow<Parser>]) {
            self.name = name
            self.modelled = modelled
            self.isFlat = flat
            self.defaults = wrap(defaults)
            self.parserType = Parser.self
            self.options = rows.map { row in
                Option(name: row.name, takes: row.takes) { server, value in
                    guard var parser = server.parser as? Parser else { return }
                    try row.apply(&parser, value)
                    server = wrap(parser)
                }
            }
        }

        /// The option names, in order.
        public var optionNames: [String] { options.map(\.name) }
    }

    /// Every model, one row each.
    public static let models: [Model] = [
        Model("qs", "qs 6.11 qs.parse", flat: false, QueryServer.qs, QSParser(), QSParser.optionRows),
        Model("php", "PHP 8.2 parse_str", flat: false, QueryServer.php, PHPParser(), PHPParser.optionRows),
        Model("rack", "Rack 2.2 parse_nested_query", flat: false, QueryServer.rack, RackParser(), RackParser.optionRows),
        Model("python", "Python 3.11 urllib.parse.parse_qs", flat: true, QueryServer.python, PythonParser(), PythonParser.optionRows),
        Model("go", "Go 1.19 net/url.ParseQuery", flat: true, QueryServer.go, GoParser(), []),
        Model("whatwg", "WHATWG URLSearchParams (application/x-www-form-urlencoded)", flat: true, QueryServer.whatwg, WHATWGFormParser(), []),
        Model("node-querystring", "node querystring.parse", flat: true, QueryServer.nodeQuerystring, NodeQuerystringParser(),
              NodeQuerystringParser.optionRows),
    ]

    /// Every model by the name `server =` takes, with its defaults.
    public static var all: [(name: String, model: QueryServer)] { models.map { ($0.name, $0.defaults) } }

    /// The names `server =` takes.
    public static var names: [String] { models.map(\.name) }

    /// The registration of the model called `name`.
    /// - Throws: `QueryError` listing the models there are.
    /// A framework's name (`rails`, `django`: `QueryServer.frameworks`) is its model's.
    /// - Throws: `QueryError` listing the models and frameworks there are.
    public static func model(named name: String) throws -> Model {
        let wanted = framework(named: name)?.model ?? name
        guard let found = models.first(where: { $0.name == wanted }) else {
            let known = names + frameworks.map(\.name)
            throw QueryError(Suggestion.message("unknown server '\(name)'", for: name, among: known)
                             + " (known: \(names.joined(separator: ", ")); frameworks: \(frameworks.map { "\($0.name) (\($0.model))" }.joined(separator: ", ")))")
        }
        return found
    }

    /// The model called `name`, with its defaults; a framework's model with the options the
    /// framework sets.
    /// - Throws: `QueryError` listing the models there are.
    public static func named(_ name: String) throws -> QueryServer {
        let defaults = try model(named: name).defaults
        guard let framework = framework(named: name), !framework.options.isEmpty else { return defaults }
        return try defaults.setting(framework.options)
    }

    /// The parser this value holds.
    var parser: any QueryServerParser {
        switch self {
        case .qs(let p): return p
        case .php(let p): return p
        case .rack(let p): return p
        case .python(let p): return p
        case .go(let p): return p
        case .whatwg(let p): return p
        case .nodeQuerystring(let p): return p
        }
    }

    /// This value's registration.
    public var model: Model {
        let type = Swift.type(of: parser)
        // Every parser type has its row (QueryServerTests checks it); the first row is never used.
        return Self.models.first { $0.parserType == type } ?? Self.models[0]
    }

    /// The name `server =` takes.
    public var name: String { model.name }

    /// The library and version modelled, as docs/servers.md and `--help` list them.
    public var modelled: String { model.modelled }

    /// Whether the model gives every name a list of values (`parse_qs`, `url.Values`) rather than
    /// nesting brackets.
    public var isFlat: Bool { model.isFlat }

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

    /// What the server makes of `query`: the value its program would see. One way to fail: a
    /// thrown error, never an error returned beside a value.
    /// - Throws: `QueryServerError` where the server refuses the query (Rack's
    ///   `ParameterTypeError`, Python's strict parsing, qs's limits); for Go, whose
    ///   `url.ParseQuery` returns its first error and the values it read, the error carries
    ///   those values (`valuesRead`). `MemoryBudget.Exceeded` past the budget the caller set
    ///   (`MemoryBudget.with`; none: never).
    public func read(_ query: ByteString) throws -> PekitValue { try parser.read(query) }

    /// `read(_:)` with Go's error given beside its values rather than thrown (what pekit's own
    /// views show: `pekit query`, `pekit.query.decode`, the round-trip check).
    /// - Throws: what `read(_:)` throws, except an error that comes with values.
    package func reading(_ query: ByteString) throws -> (value: PekitValue, error: QueryServerError?) {
        do {
            return (try read(query), nil)
        } catch let error as QueryServerError where error.valuesRead != nil {
            return (error.valuesRead ?? .null, error)
        }
    }
}

/// A parser that models one server's reading of a query.
public protocol QueryServerParser: Sendable {
    /// What the server reads from `query`: the parameters.
    /// - Throws: `QueryServerError` where the server raises, or returns an error beside the
    ///   values (Go's: the error's `valuesRead` holds them).
    func read(_ query: ByteString) throws -> PekitValue
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
