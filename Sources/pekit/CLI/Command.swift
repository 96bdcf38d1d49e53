/// One subcommand: its name, a one-line summary for `pekit help`, its help, and its body.
///
/// The help is three parts: the synopsis (usage and what the command does), the sections that
/// list its options, made from the same rows the parser reads, and the epilogue (examples, exit
/// status). Each is a closure so that start-up builds no help text: the commands are all made
/// at launch, and some help is made from tables (the query servers' options took a fifth of
/// `pekit --version`'s time, issue 47).
struct Command {
    let name: String
    let summary: String
    private let synopsisText: () -> String
    let sections: () -> [HelpSection]
    private let epilogueText: () -> String
    /// Runs with the arguments after the command name, as the bytes the shell passed (not
    /// repaired into UTF-8: `pekit encode $'\xff'` means the byte FF); returns the exit status.
    let run: ([[UInt8]]) throws -> Int32

    init(name: String, summary: String, synopsis: @autoclosure @escaping () -> String, sections: @escaping () -> [HelpSection],
         epilogue: @autoclosure @escaping () -> String, run: @escaping ([[UInt8]]) throws -> Int32) {
        self.name = name
        self.summary = summary
        synopsisText = synopsis
        self.sections = sections
        epilogueText = epilogue
        self.run = run
    }

    /// Usage and what the command does.
    var synopsis: String { synopsisText() }
    /// Examples and exit status.
    var epilogue: String { epilogueText() }

    /// Every option, in the order help shows them.
    var options: [Option] { sections().flatMap { $0.options } }

    /// The whole help, as `pekit COMMAND --help` and `pekit help COMMAND` print it.
    var help: String {
        [synopsis, HelpSection.render(sections()), epilogue].filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// The command line parsed with this command's options.
    /// - Throws: `UsageError` naming an unknown option or a missing value; `OptionTable` for `--list-options`.
    func parse(_ args: [[UInt8]], stopAtFirstPositional: Bool = false, prefixes: Bool = false) throws -> Arguments {
        try Arguments(args, command: name, options: options, stopAtFirstPositional: stopAtFirstPositional, prefixes: prefixes)
    }
}
