/// A Hurl file (hurl.dev, docs/grammar.md): entries in order, each a request (its method, URL,
/// headers, sections and body) and an optional response to check (version, status, headers,
/// captures, asserts, body). Text that may hold `{{…}}` placeholders is a `Template`, kept as
/// parts so that the run renders it with the variables of that moment (a capture of one entry
/// is a variable of the next).
public struct HurlFile: Sendable {
    /// A placeholder, `{{name filter…}}`: a variable or one of Hurl's functions (`newUuid`,
    /// `newDate`, `getEnv`), and filters applied to its value.
    public struct Expression: Sendable, Equatable {
        public var name: String
        public var filters: [Filter]
        public var line: Int
    }

    /// A piece of text: as written (escapes read), or a placeholder. A placeholder inside a JSON
    /// body's string is written JSON-escaped (`jsonString`), as Hurl writes it.
    public enum TemplatePart: Sendable, Equatable {
        case text(String)
        case expression(Expression, jsonString: Bool)
    }

    public typealias Template = [TemplatePart]

    /// A value on the right of a predicate, of `variable: name=value`, or a filter's argument.
    public indirect enum Value: Sendable, Equatable {
        /// A quoted string, a `backtick` string, or a ``` multiline string (its type: json, xml,
        /// graphql, or nil).
        case string(Template)
        case multiline(type: String?, Template)
        /// A number as written (`5`, `5.0`, `-1.5e3`): an integer when it has no point or exponent.
        case number(String)
        case bool(Bool)
        case null
        /// `hex,…;` and `base64,…;`.
        case bytes([UInt8])
        /// `file,path;`, read relative to the file root.
        case file(Template)
        /// `/pattern/` (the pattern as written between the slashes, `\/` read as `/`).
        case regex(String)
        /// A placeholder alone, whose value keeps its type (`== {{count}}` compares numbers).
        case expression(Expression)
    }

    /// A filter and its arguments (`regex "(\d+)"`, `nth 0`, `replace "a" "b"`).
    public struct Filter: Sendable, Equatable {
        public var name: String
        public var arguments: [Value]
    }

    /// What a capture or an assert reads from the response: `status`, `header "Name"`,
    /// `jsonpath "$.a"`, `regex /x/`, … and its argument.
    public struct Query: Sendable, Equatable {
        public var kind: String
        public var argument: Value?
    }

    /// `name: query filter… [redact]` in [Captures].
    public struct Capture: Sendable {
        public var name: Template
        public var query: Query
        public var filters: [Filter]
        public var redact: Bool
        public var line: Int
    }

    /// `query filter… [not] predicate [value]` in [Asserts].
    public struct Assertion: Sendable {
        public var query: Query
        public var filters: [Filter]
        public var not: Bool
        public var predicate: String
        public var value: Value?
        public var line: Int
    }

    /// `key: value`: a header, a query or form parameter, a cookie, a basic-auth user.
    public struct KeyValue: Sendable {
        public var key: Template
        public var value: Template
        public var line: Int
    }

    /// A [MultipartFormData] line: a field, or a file (`name: file,path; type`).
    public enum MultipartParam: Sendable {
        case field(KeyValue)
        case file(key: Template, path: Template, contentType: Template?, line: Int)
    }

    /// An [Options] line: its name and value (a template; `variable`'s is `name=value`, kept
    /// as the name and a typed value).
    public struct Option: Sendable {
        public var name: String
        public var value: Value
        public var variableName: String?
        public var line: Int
    }

    /// A request's or a response's body.
    public enum Body: Sendable {
        /// JSON as written, placeholders in it.
        case json(Template)
        /// XML as written.
        case xml(String)
        /// A ``` string: its type (json, xml, graphql, hex, base64, or nil) and text;
        /// `graphqlVariables` the `variables {…}` block of a GraphQL one.
        case multiline(type: String?, Template, graphqlVariables: Template?)
        /// A `backtick` string.
        case oneline(Template)
        case bytes([UInt8])
        case file(Template)
    }

    public struct Request: Sendable {
        public var line: Int
        public var method: String
        public var url: Template
        public var headers: [KeyValue] = []
        public var query: [KeyValue] = []
        public var form: [KeyValue] = []
        public var multipart: [MultipartParam] = []
        public var cookies: [KeyValue] = []
        public var basicAuth: [KeyValue] = []
        public var options: [Option] = []
        public var body: Body?
        /// The comment lines just above the request line (where Hurl's experimental cookie
        /// storage commands are written).
        public var comments: [String] = []
    }

    public struct Response: Sendable {
        public var line: Int
        /// `HTTP/1.0`, `HTTP/1.1`, `HTTP/2`, `HTTP/3`, or `HTTP` (any).
        public var version: String
        /// nil for `*` (any status).
        public var status: Int?
        public var headers: [KeyValue] = []
        public var captures: [Capture] = []
        public var asserts: [Assertion] = []
        public var body: Body?
        public var bodyLine: Int = 0
    }

    public struct Entry: Sendable {
        public var request: Request
        public var response: Response?
    }

    public var entries: [Entry] = []

    /// A file that does not read as Hurl's grammar: where, and what was expected there.
    public typealias ParseError = CollectionFile.ParseError
}
