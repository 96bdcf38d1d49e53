import PekitCore

let completionCommand = Command(
    name: "completion",
    summary: "print a shell completion script (bash, zsh or fish)",
    synopsis: """
    usage: pekit completion bash|zsh|fish

    Prints a completion script for the shell, made from the same option tables the commands'
    parsers use (what `pekit COMMAND --list-options` prints): command names, and each command's
    options; file names where a value or an argument goes.
    """,
    sections: { [HelpSection("options:", [.help])] },
    epilogue: """
    examples:
      source <(pekit completion bash)                          # in ~/.bashrc
      pekit completion zsh > "${fpath[1]}/_pekit"              # zsh (uses bash's, through bashcompinit)
      pekit completion fish > ~/.config/fish/completions/pekit.fish
    """,
    run: runCompletion
)


private func runCompletion(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try completionCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(completionCommand.help); return 0 }
    guard parsed.positionals.count == 1, let shell = parsed.positionals.first else {
        throw UsageError(command: "completion", message: "give the shell: bash, zsh or fish")
    }
    let tables = optionTables()
    switch shell {
    case "bash": Output.stdout.write(bashScript(tables))
    case "zsh": Output.stdout.write("#compdef pekit\nautoload -U +X bashcompinit && bashcompinit\n" + bashScript(tables))
    case "fish": Output.stdout.write(fishScript(tables))
    default: throw UsageError(command: "completion", message: "unknown shell '\(shell)': bash, zsh or fish")
    }
    return 0
}

/// Each command's options, from the rows its parser reads.
private func optionTables() -> [(command: String, options: [Option])] {
    commands.map { ($0.name, $0.options) }
}

/// The words an option's value may be, where they are a known list (the server models and their
/// options, from `QueryServer.models`): completed instead of file names.
private let valueWords: [(command: String, option: String, words: [String])] = [
    ("query", "server", QueryServer.names),
    ("query", "set", QueryServer.models.flatMap(\.optionNames).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.map { $0 + "=" }),
]

private func bashScript(_ tables: [(command: String, options: [Option])]) -> String {
    var cases = ""
    for (command, options) in tables {
        let words = options.flatMap(\.forms)
        let valued = options.filter(\.takesValue).flatMap(\.forms)
        cases += "        \(command)) opts=\"\(words.joined(separator: " "))\"; valued=\"\(valued.joined(separator: " "))\" ;;\n"
    }
    let names = (commands.map(\.name) + ["help"]).joined(separator: " ")
    let helpWords = helpCompletions.joined(separator: " ")
    return """
    # pekit completion for bash (made by `pekit completion bash` from pekit's option tables)
    _pekit() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts="" valued=""
        if [ "$COMP_CWORD" -eq 1 ]; then
            COMPREPLY=($(compgen -W "\(names) --help --version" -- "$cur"))
            return
        fi
        case "${COMP_WORDS[1]}" in
    \(cases)        help) COMPREPLY=($(compgen -W "\(helpWords)" -- "$cur")); return ;;
        esac
        # A value from a known list; after any other option that takes one, a file name.
        case "${COMP_WORDS[1]} $prev" in
    \(valueWords.map { "        \"\($0.command) --\($0.option)\") \($0.words.contains { $0.hasSuffix("=") } ? "compopt -o nospace 2>/dev/null; " : "")COMPREPLY=($(compgen -W \"\($0.words.joined(separator: " "))\" -- \"$cur\")); return ;;\n" }.joined())        esac
        case " $valued " in *" $prev "*) COMPREPLY=($(compgen -f -- "$cur")); return ;; esac
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
    }
    complete -F _pekit pekit

    """
}

/// What `pekit help` takes: a command, a guide's topic (each once: `cookies` is both), `topics`,
/// and the generated references.
private var helpCompletions: [String] {
    var words = commands.map { $0.name }
    for topic in HelpTopic.all where !words.contains(topic.name) { words.append(topic.name) }
    return words + ["topics", "--lua-api", "--reference", "--man", "--curl-flags"]
}

private func fishScript(_ tables: [(command: String, options: [Option])]) -> String {
    var out = "# pekit completion for fish (made by `pekit completion fish` from pekit's option tables)\n"
    out += "complete -c pekit -f -n '__fish_use_subcommand' -a '\(commands.map(\.name).joined(separator: " ")) help'\n"
    out += "complete -c pekit -f -n '__fish_seen_subcommand_from help' -a '\(helpCompletions.joined(separator: " "))'\n"
    for (command, options) in tables {
        for option in options {
            var line = "complete -c pekit -n '__fish_seen_subcommand_from \(command)'"
            if option.name.count == 1 { line += " -s \(option.name)" } else {
                if let short = option.short { line += " -s \(short)" }
                line += " -l \(option.name)"
            }
            if option.takesValue { line += " -r" }
            if let known = valueWords.first(where: { $0.command == command && $0.option == option.name }) {
                line += " -f -a '\(known.words.joined(separator: " "))'"
            }
            out += line + "\n"
        }
    }
    return out
}
