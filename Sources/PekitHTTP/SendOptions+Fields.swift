/// The send options as rows (`SendOptions.fields`, beside the options themselves): each one's field in a script's table (`timeout = 5`), the flags of
/// `pekit request` that give it (`--timeout`, `--max-time`), what it takes, and how a value sets
/// it. `pekit.http`'s option tables, `pekit request`'s flags and `pekit import curl` read these
/// rows, and a test checks that the table of send options in docs/requests-and-sending.md lists every one.
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
        package enum Value: Sendable, Equatable {
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
        /// The `SendOptions` property it sets, as Swift code names it (`maxRedirects`).
        package let swift: String
        /// What it takes.
        package let kind: Kind
        /// A flag of `pekit request` (curl's name, and its one-letter form if curl has one), declared
        /// here once: its row in `pekit request --help`, the man page, completion and the parser
        /// are made from it (issue 70).
        package struct Flag: Sendable {
            package let name: String
            package let short: Character?
            /// What help calls its value (`S`, `N`, `FILE`); nil for a flag that takes none.
            package let value: String?
            /// What help says of it (lines after the first are indented under it).
            package let help: String
            /// The proxy scheme a value without `scheme://` is given (curl's `--socks5 HOST` is
            /// `-x socks5://HOST`).
            package let scheme: String?
            package init(_ name: String, short: Character? = nil, value: String? = nil, _ help: String, scheme: String? = nil) {
                self.name = name; self.short = short; self.value = value; self.help = help; self.scheme = scheme
            }
            /// The value the flag gives `text`: with its scheme put before it when it has none.
            package func value(of text: String) -> String {
                guard let scheme, !text.contains("://") else { return text }
                return scheme + "://" + text
            }
        }

        /// The flags of `pekit request` that give it, the first named in errors (none: the
        /// command line gives it its own way, or not at all).
        package let flags: [Flag]
        /// The flags' names.
        package var flagNames: [String] { flags.map(\.name) }
        /// Whether the flag takes a value (the others stand for one: `implied`, or `true`).
        package func takesValue(_ flag: Flag) -> Bool {
            if implied(flag.name) != nil { return false }
            if case .flag = kind { return false }
            return true
        }
        /// Flags among `flags` that take no value and stand for one (curl's `--http2`, pekit's
        /// `--no-follow`). A list: the rows are made at every start of `pekit request`, and a
        /// dictionary type's first use costs start-up a search of the binary's conformances.
        package let impliedValues: [(flag: String, value: Value)]
        /// The value the flag named `flag` stands for, if it stands for one.
        package func implied(_ flag: String) -> Value? { impliedValues.first { $0.flag == flag }?.value }
        /// Sets the option from a value of its kind (nil for `.script`, which the host sets).
        package let set: (@Sendable (inout SendOptions, Value) -> Void)?

        init(_ name: String, swift: String, _ kind: Kind, flags: [Flag] = [], implied: KeyValuePairs<String, Value> = [:],
             set: (@Sendable (inout SendOptions, Value) -> Void)? = nil) {
            self.name = name
            self.swift = swift
            self.kind = kind
            self.flags = flags
            impliedValues = implied.map { (flag: $0.key, value: $0.value) }
            self.set = set
        }
    }

    /// The fields' names, in order.
    package static var fieldNames: [String] { fields.map(\.name) }
}

extension SendOptions {
    /// The option a script calls `field`, as `naming` spells it: the script's field, the first
    /// flag of `pekit request`, or the Swift property. Messages name options through this, so
    /// each is written once for the three surfaces.
    package static func spelling(_ field: String, _ naming: HTTPError.Naming) -> String {
        guard let row = fields.first(where: { $0.name == field }) else { return field }
        switch naming {
        case .lua: return row.name
        case .swift: return row.swift
        // An option the command line gives its own way (`--connect`) has the script's name.
        case .commandLine: return "--" + (row.flags.first?.name ?? String(row.name.map { $0 == "_" ? "-" : $0 }))
        }
    }

    /// The option set to `value`, as a caller on that surface writes it: `follow = false`,
    /// `followRedirects = false`, `--no-follow`; `cacert = "ca.pem"`, `--cacert ca.pem`.
    package static func setting(_ field: String, _ value: Field.Value, _ naming: HTTPError.Naming) -> String {
        let literal: String
        switch value {
        case .flag(let on): literal = on ? "true" : "false"
        case .number(let x): literal = "\(x)"
        case .integer(let n): literal = "\(n)"
        case .text(let text): literal = naming == .commandLine ? text : "\"\(text)\""
        }
        guard naming == .commandLine, let row = fields.first(where: { $0.name == field }) else {
            return "\(spelling(field, naming)) = \(literal)"
        }
        if let implied = row.flags.first(where: { row.implied($0.name) == value }) {
            return "--" + implied.name
        }
        if case .flag(true) = value { return spelling(field, naming) }
        return "\(spelling(field, naming)) \(literal)"
    }
}
