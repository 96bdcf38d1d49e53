import PekitCore
import PekitHTTP
import Foundation
import PekitLua

let runCommand = Command(
    name: "run",
    summary: "run a Lua script with the pekit module",
    synopsis: """
    usage: pekit run [--sandbox] [--har FILE [--har-with-secrets]] [--plugins DIR] [--progress | --no-progress] [-e CHUNK]
                     [-l MODULE] [--var NAME=VALUE]... [--secret NAME=VALUE]... [--secret-file FILE] SCRIPT.lua [ARGS...]
           pekit SCRIPT.lua [ARGS...]

    Runs SCRIPT.lua (or standard input for '-') with Lua 5.4, the global 'pekit' and
    require "pekit". The script gets its arguments in 'arg' (arg[0] is the script) and as '...'.
    Modules beside the script load with require; LUA_PATH and LUA_CPATH are honoured.
    """,
    sections: { [HelpSection("options:", RunOptions.all)] },
    epilogue: """
    examples:
      pekit run scripts/examples/tour.lua
      pekit run -e 'print(pekit.encode("a b", "form"))'
      echo 'print(pekit.version)' | pekit run -

    exit status: 0 on success, 1 when the script fails (the error and a traceback go to
    standard error), 2 on a usage error, 130 when interrupted with Ctrl-C.
    """,
    run: runRun
)

/// `pekit run`'s options, in the order its help shows them.
enum RunOptions {
    static let chunk = Option("e", short: "e", value: "CHUNK", "run this Lua chunk first (several may be given, run in order)")
    static let library = Option("l", short: "l", value: "MODULE", "require MODULE and set the global of the same name first")
    static let sandbox = Option("sandbox", """
        run the script under the plugin rules: no files, no network (no io, os.execute,
        require, load, debug)
        """)
    static let har = Option("har", value: "FILE", """
        write every request the script sends, and its response, to FILE as
        HAR 1.2 (written when the script ends, however it ends; mode 0600),
        sanitized as Chrome exports it: no Authorization, Proxy-Authorization,
        Cookie or Set-Cookie values, no cookie lists
        """)
    static let harWithSecrets = Option("har-with-secrets", "keep those values in the HAR")
    static let plugins = Option("plugins", value: "DIR", """
        search DIR for plugins before the default path (a script's own
        plugins/ directory, beside it, is searched next, from any directory)
        """)
    static let progress = Option("progress", """
        show downloads to files (sink = path), batches (pekit.http.all) and sends
        that say progress = true going on, on standard error, unless the script
        watches them (progress = function); the default when standard error is a
        terminal
        """)
    static let noProgress = Option("no-progress", "never show them")
    static let all: [Option] = [chunk, library, sandbox, har, harWithSecrets, plugins, progress, noProgress, VarOptions.variable] + SecretOptions.rows + [.help]
}

private func runRun(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try runCommand.parse(args, stopAtFirstPositional: true)
    if parsed.has(.help) { Output.stdout.line(runCommand.help); return 0 }
    guard !parsed.positionals.isEmpty || parsed.has(RunOptions.chunk) || parsed.has(RunOptions.library) else {
        throw UsageError(command: "run", message: "no script given")
    }
    try parsed.requireTextPaths(command: "run", options: [RunOptions.plugins], positionals: [0])
    // A script ships with its plugins: SCRIPT_DIR/plugins is searched after --plugins and before
    // the default path, wherever pekit is run from (it is the script's own code, as trusted as
    // the script; plugins still run contained).
    var directories = parsed.all(.plugins)
    if let script = parsed.positionals.first, script != "-" {
        let own = FilePaths.joined(FilePaths.directory(of: FilePaths.absolute(script)), "plugins")
        if FilePaths.isDirectory(own), !directories.contains(own) {
            directories.append(own)
        }
    }
    let (vars, secrets) = try VarOptions.read(parsed, command: "run")
    let redactor = Redactor(secrets: secrets)
    let runtime = try makeRuntime(extraPluginDirectories: directories, sandboxed: parsed.has(RunOptions.sandbox))
    if !vars.isEmpty { runtime.setVars(vars) }
    // With secrets, what reaches standard output and error is redacted from here on.
    let redacted = redactor.isEmpty ? nil : RedactedOutput(redactor)
    defer { redacted?.finish() }
    if !parsed.has(RunOptions.noProgress) { attachProgressLine(to: runtime, force: parsed.has(RunOptions.progress)) }
    // --har FILE: every exchange the script makes, written when it ends (whatever way it ends).
    if let path = parsed.value(RunOptions.har) {
        let log = HARLog(secrets: parsed.has(RunOptions.harWithSecrets))
        runtime.harLog = log
        defer { try? Files.writeAtomically(log.json(redactedBy: redactor), to: path, mode: 0o600) }
        return runLua { try runScriptParts(parsed, runtime) }
    }
    return runLua { try runScriptParts(parsed, runtime) }
}

private func runScriptParts(_ parsed: Arguments, _ runtime: LuaRuntime) throws {
        for option in parsed.rawValues {
            switch option.name {
            case "e": try runtime.runChunk(option.value ?? [])
            case "l": try runtime.requireModule(String(decoding: option.value ?? [], as: UTF8.self))
            default: break
            }
        }
        guard let script = parsed.positionals.first else {
            try runtime.finishTasks()
            return try runtime.saveBoundJars()
        }
        // The script's arguments reach Lua as the bytes given (Lua strings are bytes).
        let arguments = Array(parsed.rawPositionals.dropFirst())
        if script == "-" {
            let input = try readAllInput()
            runtime.setArgTable(script: "-", arguments: arguments, interpreter: ["pekit", "run"])
            try runtime.runChunk(input, name: "=stdin", arguments: arguments)
        } else {
            try runtime.runScript(path: script, arguments: arguments)
        }
        // Tasks it spawned and never waited for run to their end, as an event loop's would; then
        // the jars bound to files are saved.
        try runtime.finishTasks()
        try runtime.saveBoundJars()
}

/// Runs Lua work and turns its failure into the message, traceback and exit status users see.
func runLua(_ body: () throws -> Void) -> Int32 {
    do {
        try body()
        fflush(stdout)
        return 0
    } catch let error as LuaError {
        fflush(stdout)
        if error.isInterrupt {
            Output.stderr.line("pekit: interrupted")
            return 130
        }
        Output.stderr.line("pekit: \(error.message)")
        if !error.traceback.isEmpty { Output.stderr.line(error.traceback) }
        return 1
    } catch {
        fflush(stdout)
        Output.stderr.line("pekit: \(error)")
        return 1
    }
}
