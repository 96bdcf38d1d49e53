#if canImport(Glibc)
import Glibc
#endif
import PekitCore
import PekitLua
import PekitTools
import PekitHTTP

let commands: [Command] = [encodeCommand, decodeCommand, queryCommand, urlCommand, cookiesCommand, requestCommand, importCommand, exportCommand, harCommand, runCommand, testCommand, loadCommand, serveCommand, replCommand, pluginsCommand, completionCommand]

/// `pekit help`: made when asked for, so start-up builds none of it.
var topHelp: String {
    """
usage: pekit <command> [options] [arguments]

pekit gets URL encoding, query strings, cookies and HTTP requests exactly right.

commands:
\(commands.map { "  " + ($0.name + String(repeating: " ", count: max(1, 11 - $0.name.count))) + $0.summary }.joined(separator: "\n"))
  help       show this help, 'pekit help <command>' for one command, or 'pekit help <topic>'
             for a guide's summary: \(HelpTopic.all.map(\.name).joined(separator: ", "))

options:
  --version  print the version
  -h, --help show this help

Run 'pekit <command> --help' for a command's options.
"""
}

func main() -> Int32 {
    tuneMalloc()
    // Ctrl-C, kill or a closed terminal: no half-written out.pekit-… file stays behind.
    TemporaryFiles.removeOnSignals()
    var args = commandLineBytes()
    guard let firstBytes = args.first else {
        Output.stderr.line(topHelp)
        return 2
    }
    let first = String(decoding: firstBytes, as: UTF8.self)
    args.removeFirst()
    switch first {
    case "--version", "version":
        Output.stdout.line("pekit \(Pekit.version)")
        return 0
    case "help", "--help", "-h":
        return help(args.map { String(decoding: $0, as: UTF8.self) })
    default:
        // `pekit script.lua …` is `pekit run script.lua …`.
        if first.hasSuffix(".lua") && !first.hasPrefix("-") {
            return runCommandCatching(runCommand, [firstBytes] + args)
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            Output.stderr.line(first.hasPrefix("-") ? "pekit: unknown option '\(first)' (see 'pekit help')"
                                                    : Suggestion.message("pekit: unknown command '\(first)'", for: first, among: commands.map(\.name) + ["help"]) + " (see 'pekit help')")
            return 2
        }
        return runCommandCatching(command, args)
    }
}

/// `pekit help [COMMAND | TOPIC | --lua-api | --reference | --man | --curl-flags]`.
func help(_ args: [String]) -> Int32 {
    switch args.first {
    case nil, "--help", "-h":
        Output.stdout.line(topHelp)
    case "--lua-api":
        // docs/reference/lua-api.md, made from the reference the REPL's help shows.
        Output.stdout.write(Array(LuaAPIDoc.markdownPage.utf8))
    case "--reference":
        Output.stdout.write(Array(CLIReference.markdown(commands, topHelp: topHelp).utf8))
    case "--man":
        Output.stdout.write(Array(ManPage.render(commands).utf8))
    case "--curl-flags":
        // docs/requests-and-sending.md's table of every curl flag.
        Output.stdout.write(Array(CurlFlagTable.markdown.utf8))
    case "topics":
        for topic in HelpTopic.all { Output.stdout.line(topic.name + String(repeating: " ", count: max(1, 17 - topic.name.count)) + topic.title) }
    case let name?:
        let command = commands.first { $0.name == name }
        let topic = HelpTopic.named(name)
        guard command != nil || topic != nil else {
            let names = commands.map(\.name) + HelpTopic.all.flatMap { [$0.name] + $0.aliases }
            Output.stderr.line(Suggestion.message("pekit help: no command or topic '\(name)'", for: name, among: names) + " (see 'pekit help topics')")
            return 2
        }
        // A name that is both (cookies) gives the guide's summary, then the command's help.
        if let topic { Output.stdout.line(topic.text) }
        if let command { Output.stdout.line((topic == nil ? "" : "\n") + command.help) }
    }
    return 0
}

/// Runs a command; a usage error exits 2, a transfer curl would have made its curl code, any
/// other failure 1, each with its one-line message.
func runCommandCatching(_ command: Command, _ args: [[UInt8]]) -> Int32 {
    do {
        return try command.run(args)
    } catch let table as OptionTable {
        for line in table.lines { Output.stdout.line(line) }
        return 0
    } catch let error as UsageError {
        Output.stdout.flush()
        Output.stderr.line("\(error)")
        return 2
    } catch {
        Output.stdout.flush()
        // One prefix everywhere: an error that reached here without its command's name (a
        // plugin's, a library's) gets it.
        let text = (error as? HTTPError)?.message(.commandLine) ?? "\(error)"
        if (error as? CommandFailure)?.isQuiet != true { Output.stderr.line(text.hasPrefix("pekit") ? text : "pekit \(command.name): \(text)") }
        return (error as? CommandFailure)?.status ?? 1
    }
}

/// The arguments after the program name as the bytes the shell passed: CommandLine.arguments
/// repairs invalid UTF-8 into U+FFFD, which would change what is encoded, run or opened.
func commandLineBytes() -> [[UInt8]] {
    (1..<Int(CommandLine.argc)).map { i in
        guard let pointer = CommandLine.unsafeArgv[i] else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }
}

let status = main()
Output.stdout.flush()
Output.stderr.flush()
exit(status)
