import Foundation
import XCTest
import PekitTestSupport

/// Every command's help against its parser's own option table (`pekit COMMAND --list-options`):
/// each option, in each of its forms, is in the help; each help has an example; `help` works
/// every way a user asks for it.
final class HelpTextTests: XCTestCase {
    static let commands = ["encode", "decode", "query", "url", "cookies", "request", "import", "har", "run", "repl", "test", "plugins", "completion"]

    func testEveryOptionIsInItsCommandsHelp() throws {
        var missing: [String] = []
        for command in Self.commands {
            let table = try PekitProcess.run([command, "--list-options"])
            XCTAssertEqual(table.status, 0, table.stderr)
            let help = try PekitProcess.run([command, "--help"]).stdout
            XCTAssertFalse(table.stdout.isEmpty, command)
            for line in table.stdout.split(separator: "\n") {
                let forms = line.split(separator: " ")[0].split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
                for form in forms where form != "--list-options" {
                    // As a word: "--set" is not found inside "--settings".
                    let pattern = "(^|[^A-Za-z0-9-])" + NSRegularExpression.escapedPattern(for: form) + "($|[^A-Za-z0-9-])"
                    if help.range(of: pattern, options: .regularExpression) == nil { missing.append("pekit \(command): \(form)") }
                }
            }
            XCTAssertTrue(help.range(of: #"(?m)^ *examples?:"#, options: .regularExpression) != nil, "pekit \(command) --help has no example")
        }
        XCTAssertEqual(missing, [], "options missing from their command's help")
    }

    /// No option row loses its start (`pekit url --help` showed `--color WHEN` with nothing
    /// after it, its help's first line empty): every row's help begins on its label's line, and
    /// no line of any help ends in spaces.
    func testNoHelpRowLosesItsStart() throws {
        var broken: [String] = []
        for command in Self.commands + ["help"] {
            let help = try PekitProcess.run(command == "help" ? ["--help"] : [command, "--help"]).stdout
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) where line.last == " " || line.last == "\t" {
                broken.append("pekit \(command): \"\(line)\"")
            }
        }
        XCTAssertEqual(broken, [])
    }

    func testHelpEveryWayItIsAskedFor() throws {
        for args in [["help"], ["--help"], ["-h"], ["help", "--help"]] {
            let r = try PekitProcess.run(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stdout.hasPrefix("usage: pekit <command>"), "\(args)")
        }
        for command in Self.commands {
            let viaHelp = try PekitProcess.run(["help", command]), viaFlag = try PekitProcess.run([command, "--help"])
            // `cookies` and `plugins` are guides' topics too: the summary comes first, then the command's help.
            if ["cookies", "plugins"].contains(command) {
                XCTAssertTrue(viaHelp.stdout.hasSuffix("\n\n" + viaFlag.stdout) && viaHelp.stdout.contains("\nThe whole guide: docs/"), command)
            } else {
                XCTAssertEqual(viaHelp.stdout, viaFlag.stdout, command)
            }
            XCTAssertTrue(viaFlag.stdout.hasPrefix("usage: pekit \(command)"), command)
        }
    }

    /// The completion scripts come from the same option tables: bash completes commands and
    /// options (run here in bash), fish lists each option.
    func testCompletionScriptsFromTheOptionTables() throws {
        let dir = try makeTemporaryDirectory("completion")
        let script = dir.appendingPathComponent("pekit.bash")
        try PekitProcess.run(["completion", "bash"]).stdout.write(to: script, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) throws -> String {
            let array = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try PekitProcess.runShell("source '\(script.path)'; COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _pekit; echo \"${COMPREPLY[*]}\"")
            return r.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(try complete(["pekit", "req"]), "request")
        // `pekit help` completes commands, the guides' topics and the references.
        XCTAssertEqual(try complete(["pekit", "help", "s"]), "serve servers scripting swift")
        XCTAssertEqual(try complete(["pekit", "help", "coo"]), "cookies")
        XCTAssertEqual(try complete(["pekit", "help", "--"]), "--lua-api --reference --man --curl-flags")
        XCTAssertEqual(try complete(["pekit", "request", "--data-u"]), "--data-urlencode")
        XCTAssertEqual(try complete(["pekit", "url", "--"]), "--base --json --color --help")
        // Values from the server models' registration rows.
        XCTAssertEqual(try complete(["pekit", "query", "--server", "p"]), "php python")
        XCTAssertEqual(try complete(["pekit", "query", "--set", "keep"]), "keep_blank_values=")
        XCTAssertEqual(try complete(["pekit", "query", "--set", "max_i"]), "max_input_vars= max_input_nesting_level=")
        let fish = try PekitProcess.run(["completion", "fish"]).stdout
        XCTAssertTrue(fish.contains("complete -c pekit -n '__fish_seen_subcommand_from request' -s d -l data -r\n"), fish)
        XCTAssertTrue(fish.contains("complete -c pekit -n '__fish_seen_subcommand_from query' -l server -r -f -a 'qs php rack python go whatwg node-querystring'\n"), fish)
        XCTAssertTrue(try PekitProcess.run(["completion", "zsh"]).stdout.hasPrefix("#compdef pekit\nautoload -U +X bashcompinit && bashcompinit\n"))
        XCTAssertEqual(try PekitProcess.run(["completion", "tcsh"]).stderr, "pekit completion: unknown shell 'tcsh': bash, zsh or fish (see 'pekit completion --help')\n")
    }

    /// The guides' option mentions are held to the rows the parsers read: every flag named for a
    /// command in the command table of docs/getting-started.md (`| \`pekit query [--policy NAME] …\``)
    /// is an option of that command, and every flag in docs/requests-and-sending.md's "Coming from
    /// curl" is one of `pekit request` (or `import`).
    func testGuidesFlagsAreOptionsOfTheirCommands() throws {
        let readme = try ["docs/getting-started.md", "docs/requests-and-sending.md"].map {
            try String(contentsOf: PekitProcess.packageRoot.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
        var tables: [String: Set<String>] = [:]
        func options(_ command: String) throws -> Set<String> {
            if let known = tables[command] { return known }
            let lines = try PekitProcess.run([command, "--list-options"]).stdout.split(separator: "\n")
            let forms = Set(lines.flatMap { $0.replacingOccurrences(of: " VALUE", with: "").components(separatedBy: ", ") })
            tables[command] = forms
            return forms
        }
        let flag = try NSRegularExpression(pattern: #"(?<![\w-])(--[a-z0-9][a-z0-9.-]*[a-z0-9]|-[A-Za-z0-9])(?![\w-])"#)
        let span = try NSRegularExpression(pattern: "`([^`]+)`")
        func flags(_ text: String) -> [String] {
            flag.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
        }
        func spans(_ text: String) -> [String] {
            span.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
        }
        var unknown: [String] = [], checked = 0
        let commands = Set(Self.commands)
        let lines = readme.components(separatedBy: "\n")
        for line in lines where line.hasPrefix("| `pekit ") {
            let cell = line.components(separatedBy: " | ")[0]
            for code in spans(cell) {
                let words = code.split(separator: " ")
                guard words.count > 1, commands.contains(String(words[1])) else { continue }
                let known = try options(String(words[1]))
                for f in flags(code) { checked += 1; if !known.contains(f) { unknown.append("pekit \(words[1]): \(f)") } }
            }
        }
        let start = try XCTUnwrap(lines.firstIndex(of: "## Coming from curl"))
        let request = try options("request"), imports = try options("import")
        for line in lines[start...].prefix(while: { !$0.hasPrefix("Deliberate differences") }) where line.hasPrefix("| ") && !line.hasPrefix("|---") {
            for code in spans(line) where !code.hasPrefix("pekit ") || code.hasPrefix("pekit request") {
                for f in flags(code) { checked += 1; if !request.contains(f) && !imports.contains(f) { unknown.append("Coming from curl: \(f)") } }
            }
        }
        XCTAssertGreaterThan(checked, 80)
        XCTAssertEqual(unknown, [], "the guides name flags their commands do not take")
    }
}
