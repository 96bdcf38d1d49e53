/// The send options as rows: each one's field in a script's table (`timeout = 5`), the flags of
/// `pekit request` that give it (`--timeout`, `--max-time`), what it takes, and how a value sets
/// it. `pekit.http`'s option tables, `pekit request`'s flags and `pekit import curl` read these
/// rows, and a test checks that README's table of send options lists every one.
extension SendOptions {
    /// One send option.
    public struct Field {
        /// What the option takes.
        public enum Kind {
            /// `true` or `false` (on the command line, the flag's presence).
            case flag
            /// A number of seconds more than 0 and at most `SendOptions.secondsRange`'s bound.
            case seconds
            /// A whole number in the range.
            case count(ClosedRange<Int>)
            /// A number of bytes from 0.
            case bytes
            /// A string: a path, a URL.
            case text
            /// One of these words.
            case choice([String])
            /// What only a script gives (a jar, a function, a table), read by the Lua host: what it takes.
            case script(String)
        }

        /// A value of the option's kind, as a front end read it.
        public enum Value {
            case flag(Bool)
            case number(Double)
            case integer(Int)
            case text(String)

            var flag: Bool { if case .flag(let on) = self { return on }; return false }
            var number: Double? {
                switch self {
                case .number(let x): return x
                case .integer(let n): return Double(n)
                default: return nil
                }
            }
            var integer: Int? { if case .integer(let n) = self { return n }; return nil }
            var text: String? { if case .text(let s) = self { return s }; return nil }
        }

        /// The field of a script's option table.
        public let name: String
        /// What it takes.
        public let kind: Kind
        /// The flags of `pekit request` that give it, the first named in errors (none: the
        /// command line gives it its own way, or not at all).
        public let flags: [String]
        /// Flags among `flags` that take no value and stand for one (curl's `--http2`, pekit's `--no-follow`).
        public let implied: [String: Value]
        /// Sets the option from a value of its kind (nil for `.script`, which the host sets).
        public let set: ((inout SendOptions, Value) -> Void)?

        init(_ name: String, _ kind: Kind, flags: [String] = [], implied: [String: Value] = [:], set: ((inout SendOptions, Value) -> Void)? = nil) {
            self.name = name
            self.kind = kind
            self.flags = flags
            self.implied = implied
            self.set = set
        }
    }

    /// Every send option, in the order errors list them.
    public static let fields: [Field] = [
        Field("jar", .script("a cookie jar")),
        Field("follow", .flag, flags: ["no-follow"], implied: ["no-follow": .flag(false)]) { $0.followRedirects = $1.flag },
        Field("max_redirects", .count(redirectRange), flags: ["max-redirects", "max-redirs"]) { $0.maxRedirects = $1.integer ?? $0.maxRedirects },
        Field("timeout", .seconds, flags: ["timeout", "max-time"]) { $0.timeout = $1.number },
        Field("connect_timeout", .seconds, flags: ["connect-timeout"]) { $0.connectTimeout = $1.number },
        Field("insecure", .flag, flags: ["insecure"]) { $0.insecure = $1.flag },
        Field("cacert", .text, flags: ["cacert"]) { $0.caCertificate = $1.text },
        Field("proxy", .text, flags: ["proxy"]) { $0.proxy = $1.text },
        Field("connect", .script("a table {[\"host:port\"] = \"address:port\"}")),
        Field("http", .choice(["1.1", "2", "auto"]), flags: ["http", "http1.1", "http2"], implied: ["http1.1": .text("1.1"), "http2": .text("2")]) { options, value in
            options.version = value.text.flatMap(Version.init(rawValue:)) ?? .automatic
        },
        Field("compressed", .flag, flags: ["compressed"]) { $0.compressed = $1.flag },
        Field("sink", .script("a file path or a function(chunk)")),
        Field("max_body", .bytes, flags: ["max-filesize"]) { $0.maxBody = $1.integer },
        Field("retry", .script("true or a table of retry options")),
        Field("rate", .script("\"COUNT/s\" (or /m, /h), or {\"COUNT/s\", per = \"host\" or \"all\"}")),
        Field("progress", .script("a function(info)")),
    ]

    /// The fields' names, in order.
    public static var fieldNames: [String] { fields.map(\.name) }
}
