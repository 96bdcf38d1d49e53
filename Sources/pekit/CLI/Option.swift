/// One option of a command, as the parser reads it and as its help shows it: the one source of
/// both, so the two cannot drift (`--list-options`, completion and the help all come from rows).
struct Option {
    /// The long name, without the dashes (a one-letter name is written `-4`).
    let name: String
    let short: Character?
    /// What help calls its value (`NAME`, `k=v`); nil for a flag that takes none.
    let value: String?
    /// What help says of it. Lines after the first are indented under the first.
    var help: String { helpText() }
    /// Made only when help is shown: a command's option table is built at every start, and some
    /// texts are assembled (a list of presets joined, one of the first generic calls of a run).
    private let helpText: @Sendable () -> String
    /// Only sending has it (`pekit request`'s -i, -o…): with it, the command sends.
    var sendOnly = false
    /// The option that `--no-NAME` gives, for a flag whose opposite is not simply its absence
    /// (`-L`'s is `--no-follow`: pekit follows by default, curl only with -L); the last of the
    /// two given wins, as curl's toggles do.
    var negation: String?

    var takesValue: Bool { value != nil }

    init(_ name: String, short: Character? = nil, value: String? = nil, _ help: @autoclosure @escaping @Sendable () -> String, sendOnly: Bool = false,
         negation: String? = nil) {
        self.name = name
        self.short = short
        self.value = value
        self.helpText = help
        self.sendOnly = sendOnly
        self.negation = negation
    }

    /// How it is written: `-X`, `--method`, or both.
    var forms: [String] {
        name.count == 1 ? ["-\(name)"] : (short.map { ["-\($0)"] } ?? []) + ["--\(name)"]
    }

    /// `-h, --help`, which every command takes.
    static let help = Option("help", short: "h", "show this help")
}

/// A part of a command's help that lists options: a heading (`options:`, or a paragraph that ends
/// with a colon) and its rows, each an option or a positional argument described alike.
struct HelpSection {
    enum Row {
        case option(Option)
        /// A positional argument (`URL...`), shown as an option is but not parsed as one.
        case argument(String, String)
    }

    let heading: String
    let rows: [Row]
    /// Rows shown as a wrapped list of their forms only (their help is another command's).
    let compact: Bool

    init(_ heading: String, rows: [Row]) { self.heading = heading; self.rows = rows; compact = false }
    init(_ heading: String, _ options: [Option]) { self.init(heading, rows: options.map { .option($0) }) }
    /// Options this command takes whose help is elsewhere (`pekit import --send` takes
    /// `pekit request`'s send options): listed by their forms, wrapped.
    init(_ heading: String, compact options: [Option]) { self.heading = heading; rows = options.map { .option($0) }; compact = true }

    var options: [Option] { rows.compactMap { if case .option(let o) = $0 { return o }; return nil } }

    /// The forms as a list, `-i, --include; -o, --output FILE; …`, in lines of at most `width`.
    private var wrappedForms: String {
        let width = 96
        var lines: [String] = [], line = " "
        for (i, option) in options.enumerated() {
            let item = option.forms.joined(separator: ", ") + (option.value.map { " " + $0 } ?? "") + (i == options.count - 1 ? "" : ";")
            if line.count + 1 + item.count > width { lines.append(line); line = " " }
            line += " " + item
        }
        return (lines + [line]).joined(separator: "\n")
    }

    /// The sections as help prints them: each row's forms, then its help at one column for the
    /// whole command (forms too wide for it are followed by two spaces instead).
    static func render(_ sections: [HelpSection]) -> String {
        func label(_ row: Row) -> String {
            switch row {
            case .option(let o): return o.forms.joined(separator: ", ") + (o.value.map { " " + $0 } ?? "")
            case .argument(let name, _): return name
            }
        }
        func text(_ row: Row) -> String {
            switch row {
            case .option(let o): return o.help
            case .argument(_, let help): return help
            }
        }
        let widest = 16
        let width = sections.filter { !$0.compact }.flatMap(\.rows).map { label($0).count }.filter { $0 <= widest }.max() ?? widest
        let column = 2 + width + 2
        let indent = String(repeating: " ", count: column)
        return sections.map { section in
            if section.compact { return section.heading + "\n" + section.wrappedForms }
            let rows = section.rows.map { row -> String in
                let l = "  " + label(row)
                let lines = text(row).split(separator: "\n", omittingEmptySubsequences: false)
                let first = l.count + 2 <= column ? l + String(repeating: " ", count: column - l.count) : l + "  "
                return ([first + (lines.first ?? "")] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
            }
            return ([section.heading] + rows).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}
