/// The send options as rows (`SendOptions.fields`, beside the options themselves): each one's field in a script's table (`timeout = 5`), the flags of
/// `pekit request` that give it (`--timeout`, `--max-time`), what it takes, and how a value sets
/// it. `pekit.http`'s option tables, `pekit request`'s flags and `pekit import curl` read these
/// rows, and a test checks that README's table of send options lists every one.
extension SendOptions {
    /// One send option.
    package struct Field: Sendable {
        /// What the option takes.
        package enum Kind: Sendable {
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
        package enum Value: Sendable {
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
        package let name: String
        /// What it takes.
        package let kind: Kind
        /// A flag of `pekit request` (curl's name, and its one-letter form if curl has one).
        package struct Flag: ExpressibleByStringLiteral, Sendable {
            package let name: String
            package let short: Character?
            package init(_ name: String, short: Character? = nil) { self.name = name; self.short = short }
            package init(stringLiteral name: String) { self.init(name) }
        }

        /// The flags of `pekit request` that give it, the first named in errors (none: the
        /// command line gives it its own way, or not at all).
        package let flags: [Flag]
        /// The flags' names.
        package var flagNames: [String] { flags.map(\.name) }
        /// Whether the flag takes a value (the others stand for one: `implied`, or `true`).
        package func takesValue(_ flag: Flag) -> Bool {
            if implied[flag.name] != nil { return false }
            if case .flag = kind { return false }
            return true
        }
        /// Flags among `flags` that take no value and stand for one (curl's `--http2`, pekit's `--no-follow`).
        package let implied: [String: Value]
        /// Sets the option from a value of its kind (nil for `.script`, which the host sets).
        package let set: (@Sendable (inout SendOptions, Value) -> Void)?

        init(_ name: String, _ kind: Kind, flags: [Flag] = [], implied: [String: Value] = [:], set: (@Sendable (inout SendOptions, Value) -> Void)? = nil) {
            self.name = name
            self.kind = kind
            self.flags = flags
            self.implied = implied
            self.set = set
        }
    }

    /// The fields' names, in order.
    package static var fieldNames: [String] { fields.map(\.name) }
}
