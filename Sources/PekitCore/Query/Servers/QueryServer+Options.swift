/// Models configured by option name, under each server's own names (qs's `allowDots`, Python's
/// `keep_blank_values`), from the CLI's `--set` and Lua's option tables alike.
extension QueryServer {
    /// Each model's option names.
    public static let optionNames: [String: [String]] = [
        "qs": ["allowDots", "allowPrototypes", "allowSparse", "arrayLimit", "charset", "charsetSentinel", "comma", "decoder",
               "delimiter", "depth", "ignoreQueryPrefix", "interpretNumericEntities", "parameterLimit", "parseArrays", "plainObjects", "strictNullHandling"],
        "php": ["max_input_vars", "max_input_nesting_level", "arg_separator.input"],
        "rack": ["key_space_limit", "param_depth_limit", "bytesize_limit", "params_limit", "separators"],
        "python": ["keep_blank_values", "strict_parsing", "max_num_fields", "separator", "encoding", "errors"],
        "go": [],
        "whatwg": [],
        "node-querystring": ["sep", "eq", "maxKeys"],
    ]

    /// The model called `name` with `options` applied (qs's `decoder` and a pattern `delimiter`
    /// are Lua functions and patterns, which the Lua host sets itself).
    /// - Throws: `QueryError` for an unknown server; `OptionError` naming an unknown option, or
    ///   the option and what it takes.
    public static func named(_ name: String, options: [(name: String, value: PekitValue)]) throws -> QueryServer {
        try named(name).setting(options)
    }

    /// `qs` reading what `policy` writes, with qs's options applied.
    /// - Throws: `OptionError`.
    public static func qs(policy: Policy, options: [(name: String, value: PekitValue)]) throws -> QueryServer {
        try QueryServer.qs(QSParser(policy: policy)).setting(options)
    }

    /// A bad option: which, and what is wrong (`expected true or false, got "yes"`).
    public struct OptionError: Error, Equatable, CustomStringConvertible {
        public let option: String
        public let message: String
        public var description: String { "option \"\(option)\": \(message)" }
    }

    private func setting(_ options: [(name: String, value: PekitValue)]) throws -> QueryServer {
        var server = self
        let known = Self.optionNames[name] ?? []
        for (option, value) in options {
            guard known.contains(option) else {
                throw OptionError(option: option, message: "\(name) has no such option" + (known.isEmpty ? " (it has none)" : " (known: \(known.joined(separator: ", ")))"))
            }
            try server.set(option, value)
        }
        return server
    }

    private mutating func set(_ option: String, _ value: PekitValue) throws {
        func fail(_ expected: String) -> OptionError {
            let got: String
            switch value {
            case .string(let s): got = "\"\(s)\""
            case .integer(let n): got = String(n)
            case .number(let x): got = "\(x)"
            case .boolean(let b): got = String(b)
            default: got = "a \(value.kindName)"
            }
            return OptionError(option: option, message: "expected \(expected), got \(got)")
        }
        func flag() throws -> Bool {
            guard case .boolean(let b) = value else { throw fail("true or false") }
            return b
        }
        func integer(_ range: ClosedRange<Int64> = 0...Int64.max) throws -> Int {
            switch value {
            case .integer(let n) where range.contains(n): return Int(n)
            case .number(let x) where x == x.rounded() && x >= Double(range.lowerBound) && x <= Double(range.upperBound): return Int(x)
            default: throw fail(range.upperBound == .max ? "a whole number from \(range.lowerBound)" : "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
        }
        func text(nonEmpty: Bool = true) throws -> ByteString {
            guard case .string(let s) = value, !nonEmpty || !s.isEmpty else { throw fail("a non-empty string") }
            return s
        }
        func choice<T: RawRepresentable>(_ type: T.Type, _ all: [T]) throws -> T where T.RawValue == String {
            guard case .string(let s) = value, let v = T(rawValue: s.description) else {
                throw fail(alternatives(all.map(\.rawValue)))
            }
            return v
        }
        switch self {
        case .qs(var p):
            switch option {
            case "allowDots": p.allowDots = try flag()
            case "allowPrototypes": p.allowPrototypes = try flag()
            case "plainObjects": p.plainObjects = try flag()
            case "allowSparse": p.allowSparse = try flag()
            case "charsetSentinel": p.charsetSentinel = try flag()
            case "comma": p.comma = try flag()
            case "ignoreQueryPrefix": p.ignoreQueryPrefix = try flag()
            case "interpretNumericEntities": p.interpretNumericEntities = try flag()
            case "parseArrays": p.parseArrays = try flag()
            case "strictNullHandling": p.strictNullHandling = try flag()
            case "arrayLimit": p.arrayLimit = try integer(Int64(Int32.min)...Int64.max)
            case "charset": p.charset = try choice(QSParser.Charset.self, QSParser.Charset.allCases)
            case "depth":
                if case .boolean(false) = value { p.depth = 0 } else {
                    guard case .integer(let n) = value, n <= QueryServer.deepestNesting else {
                        throw fail("a whole number or false (at most \(QueryServer.deepestNesting): pekit reads no deeper)")
                    }
                    p.depth = try integer(Int64(Int32.min)...Int64(QueryServer.deepestNesting))
                }
            case "parameterLimit":
                switch value {
                case .integer(let n): p.parameterLimit = QSParser.splitLimit(Double(n))
                case .number(let x): p.parameterLimit = QSParser.splitLimit(x)
                case .string("Infinity"): p.parameterLimit = nil
                default: throw fail("a number (Infinity or math.huge for no limit)")
                }
            case "delimiter": p.delimiter = .string(try text())
            default: throw fail("a Lua function (set from Lua)")
            }
            self = .qs(p)
        case .php(var p):
            switch option {
            case "max_input_vars": p.maxInputVars = try integer()
            case "arg_separator.input": p.separators = try text()
            default: p.maxInputNestingLevel = try integer(0...Int64(QueryServer.deepestNesting))
            }
            self = .php(p)
        case .rack(var p):
            switch option {
            case "key_space_limit": p.keySpaceLimit = try integer()
            case "param_depth_limit": p.paramDepthLimit = try integer(0...Int64(QueryServer.deepestNesting))
            case "bytesize_limit": p.bytesizeLimit = try integer()
            case "params_limit": p.paramsLimit = try integer()
            default: p.separators = try text()
            }
            self = .rack(p)
        case .python(var p):
            switch option {
            case "keep_blank_values": p.keepBlankValues = try flag()
            case "strict_parsing": p.strictParsing = try flag()
            case "max_num_fields": p.maxNumFields = try integer()
            case "separator": p.separator = try text()
            case "encoding":
                guard case .string(let s) = value else { throw fail(alternatives(PythonParser.Encoding.allCases.map(\.rawValue))) }
                let aliases = ["utf8": "utf-8", "latin1": "latin-1", "iso-8859-1": "latin-1", "us-ascii": "ascii"]
                let lower = s.description.lowercased()
                guard let encoding = PythonParser.Encoding(rawValue: aliases[lower] ?? lower) else { throw fail(alternatives(PythonParser.Encoding.allCases.map(\.rawValue))) }
                p.encoding = encoding
            default: p.errors = try choice(PythonParser.Errors.self, PythonParser.Errors.allCases)
            }
            self = .python(p)
        case .nodeQuerystring(var p):
            switch option {
            case "sep": p.sep = try text(nonEmpty: false)
            case "eq": p.eq = try text(nonEmpty: false)
            default: p.maxKeys = try integer(Int64(Int32.min)...Int64.max)
            }
            self = .nodeQuerystring(p)
        case .go, .whatwg:
            break
        }
    }
}

/// `"a", "b" or "c"`.
func alternatives(_ names: [String]) -> String {
    let quoted = names.map { "\"\($0)\"" }
    guard quoted.count > 1 else { return quoted.joined() }
    return quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
}
