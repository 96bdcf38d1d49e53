import CEditShim
import Foundation
import PekitCore
import PekitLua
import PekitTools

let replCommand = Command(
    name: "repl",
    summary: "interactive Lua with the pekit module",
    synopsis: """
    usage: pekit repl [--var NAME=VALUE]... [--secret NAME=VALUE]... [--secret-file FILE] [--plugins DIR]

    An interactive Lua 5.4 prompt with the global 'pekit'. An expression prints its value
    (tables nested, keys sorted, cycles marked); a statement left open continues on the next
    line ('>>'); errors are printed and the session goes on. Line editing comes from libedit;
    history (the last 1000 lines) is kept in $XDG_STATE_HOME/pekit/history
    (~/.local/state/pekit/history), or $PEKIT_HISTORY.

    commands: :help, :plugins, :reload (read edited plugin files again), :quit (or Ctrl-D).
    Ctrl-C clears the line (on an empty line, press it again to leave); during a running
    statement it stops the statement and the session goes on. Tab completes globals, fields and
    methods (pekit.q<Tab> -> pekit.query., jar:<Tab> lists the jar's methods) and policy,
    server and plugin names inside the string argument that takes one.
    """,
    sections: { [HelpSection("options:", ReplOptions.all)] },
    epilogue: """
    example:
      pekit repl
      > pekit.encode("a b&c", "form")
      "a+b%26c"

    With standard input not a terminal there is no prompt and no line editing, so
      echo 'print(pekit.encode("a b"))' | pekit repl
    works in scripts; the exit status is then 1 if any line failed.
    """,
    run: runRepl
)

/// `pekit repl`'s options, in the order its help shows them.
enum ReplOptions {

    static let all: [Option] = [VarOptions.variable] + SecretOptions.rows + [.plugins, .help]
}

private func runRepl(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try replCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(replCommand.help); return 0 }
    if let extra = parsed.positionals.first { throw UsageError(command: "repl", message: "unexpected argument '\(extra)'") }
    let runtime = try makeRuntime(extraPluginDirectories: parsed.all(.plugins))
    attachProgressLine(to: runtime)
    let (vars, secrets) = try VarOptions.read(parsed, command: "repl")
    if !vars.isEmpty { runtime.setVars(vars) }
    let repl = LuaREPL(runtime: runtime, forPeople: true)
    if !secrets.isEmpty { repl.redactor = Redactor(secrets: secrets) }
    return isatty(0) != 0 ? interactive(repl) : piped(repl)
}

private func emit(_ outcome: LuaREPL.Outcome) -> Bool {
    switch outcome {
    case .output(let text):
        if !text.isEmpty { fputs(text + "\n", stdout) }
        fflush(stdout)
    case .error(let text):
        fflush(stdout)
        Output.stderr.line(text)
        Output.stderr.flush()
        return false
    case .needMore, .quit:
        break
    }
    return true
}

private func piped(_ repl: LuaREPL) -> Int32 {
    var failed = false
    var quit = false
    do {
        try forEachInputLine { bytes, _ in
            guard !quit else { return }
            let outcome = repl.feed(String(decoding: bytes, as: UTF8.self))
            if outcome == .quit { quit = true }
            if !emit(outcome) { failed = true }
        }
    } catch {
        Output.stderr.line("pekit repl: \(error)")
        return 1
    }
    if repl.isContinuing {
        Output.stderr.line("pekit repl: the input ended inside an unfinished statement")
        failed = true
    }
    return failed ? 1 : 0
}

/// The session Tab completes for, and the candidates of the completion in progress (libedit
/// asks for them one by one through a C function, which cannot capture them).
nonisolated(unsafe) private var completionSource: LuaREPL?
nonisolated(unsafe) private var completionCandidates: [String] = []

/// Tab: libedit gives the word (split at its break characters: spaces, quotes, `(`, `=`, …)
/// and where it ends; the candidates replace it. Never file names.
private func installCompletion(_ repl: LuaREPL) {
    completionSource = repl
    pekit_set_attempted_completion { text, _, end in
        pekit_set_attempted_completion_over(1)
        guard let text, let repl = completionSource else { return nil }
        let word = cText(text)
        let line = pekit_line_buffer().map { cText($0) } ?? ""
        // libedit counts `end` in characters (its wide-character line), not bytes: counted in
        // bytes, an "é" earlier on the line cut the text short and lost the opening quote.
        var before = String.UnicodeScalarView()
        before.append(contentsOf: line.unicodeScalars.prefix(Int(max(0, end))))
        completionCandidates = repl.completions(word: word, before: String(before))
        guard !completionCandidates.isEmpty else { return nil }
        // A candidate says what follows it ("." or "("): no space is added.
        pekit_set_completion_append_character(0)
        return pekit_completion_matches(text) { _, state in
            let i = Int(state)
            return i < completionCandidates.count ? strdup(completionCandidates[i]) : nil
        }
    }
}

/// Whether a key was read since the prompt was shown (set by the line editor's getc).
nonisolated(unsafe) private var promptTyped = false

/// How many lines of history are kept.
private let historyLimit = 1000

/// Where history is kept: `$PEKIT_HISTORY`, else `$XDG_STATE_HOME/pekit/history`, else
/// `~/.local/state/pekit/history` (the XDG Base Directory rule for state), its directory made
/// when missing (private, 0700).
private func historyPath() -> String {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["PEKIT_HISTORY"], !path.isEmpty { return path }
    let home = environment["HOME"] ?? "."
    let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
    let directory = state + "/pekit"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return directory + "/history"
}

private func interactive(_ repl: LuaREPL) -> Int32 {
    // libedit is loaded here, the one command that edits lines; without it the REPL still reads
    // them, as from a pipe.
    if let failure = pekit_edit_load() {
        fputs("pekit repl: \(cText(failure)); lines are read without editing or history\n", stderr)
        return piped(repl)
    }
    // libedit reads multibyte characters only under a UTF-8 LC_CTYPE: without this, "漢字" typed
    // or pasted at the prompt was dropped. Only the character type: Lua formats numbers by
    // LC_NUMERIC, which stays "C". With no UTF-8 locale in the environment, C.UTF-8.
    let chosen = setlocale(LC_CTYPE, "")
    let codeset = nl_langinfo(nl_item(CODESET)).map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) }
    if chosen == nil || codeset != "UTF-8" {
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }
    // pekit reads the keys itself (set before anything initializes libedit's readline, which
    // reads the setting once): a whole UTF-8 character at a time, and Ctrl-C ends the read
    // (libedit would restart it) so that the line can be cleared.
    pekit_set_getc { _ in
        let c = pekit_prompt_read_char(0)
        if c >= 0 { promptTyped = true }
        return c
    }
    installCompletion(repl)
    let historyFile = historyPath()
    pekit_using_history()
    pekit_stifle_history(Int32(historyLimit))
    _ = pekit_read_history(historyFile)
    fputs("pekit \(Pekit.version) (Lua 5.4) — :help for help, :quit or Ctrl-D to leave\n", stdout)
    fflush(stdout)
    var interruptedOnEmptyLine = false
    while true {
        promptTyped = false
        pekit_prompt_begin()
        let raw = pekit_readline(repl.isContinuing ? ">> " : "> ")
        pekit_prompt_end()
        if pekit_prompt_take_interrupt() != 0 {
            // Ctrl-C clears the line (and a statement in progress), as bash and Python do; on an
            // empty line, a second one leaves.
            free(raw)
            let hadText = promptTyped || repl.isContinuing
            repl.cancel()
            if !hadText && interruptedOnEmptyLine { fputs("^C\n", stdout); break }
            fputs(hadText ? "^C\n" : "^C\n(Ctrl-C again or Ctrl-D to leave)\n", stdout)
            fflush(stdout)
            interruptedOnEmptyLine = !hadText
            continue
        }
        interruptedOnEmptyLine = false
        guard let raw else { break }  // Ctrl-D
        let line = String(decoding: UnsafeRawBufferPointer(start: raw, count: strlen(raw)), as: UTF8.self)
        free(raw)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            pekit_add_history(line)
            _ = pekit_write_history(historyFile)
        }
        let outcome = repl.feed(line)
        if outcome == .quit { break }
        _ = emit(outcome)
    }
    fputs("\n", stdout)
    return 0
}
