import Foundation
import PekitCore

/// With secrets (`--secret`): standard output and standard error each go through a pipe, and a
/// thread writes what comes, redacted, to where they went before. Everything the process
/// writes there passes: the script's output, -v, errors, progress lines, child processes.
final class RedactedOutput {
    private struct Stream { let fd: Int32, saved: Int32, done: DispatchSemaphore }
    private var streams: [Stream] = []

    init(_ redactor: Redactor) {
        Output.stdout.flush()
        Output.stderr.flush()
        fflush(stdout)
        fflush(stderr)
        for fd in [STDOUT_FILENO, STDERR_FILENO] {
            var ends: [Int32] = [0, 0]
            let saved = dup(fd)
            guard saved >= 0, pipe(&ends) == 0 else { continue }
            dup2(ends[1], fd)
            close(ends[1])
            let done = DispatchSemaphore(value: 0)
            let source = ends[0]
            let thread = Thread {
                Self.pump(from: source, to: saved, redactor)
                done.signal()
            }
            thread.start()
            streams.append(Stream(fd: fd, saved: saved, done: done))
        }
    }

    /// Writes what is still in the pipes and puts the streams back.
    func finish() {
        Output.stdout.flush()
        Output.stderr.flush()
        fflush(stdout)
        fflush(stderr)
        for stream in streams {
            dup2(stream.saved, stream.fd)  // the pipe's last write end closes: the thread reads its end
            stream.done.wait()
            close(stream.saved)
        }
        streams = []
    }

    /// Redacts line by line (a `\r` ends a progress line), so a secret is never split across
    /// two writes; a line longer than 64 KB is cut, keeping enough of its end to hold a secret.
    private static func pump(from source: Int32, to target: Int32, _ redactor: Redactor) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        func emit(_ bytes: ArraySlice<UInt8>) {
            let out = redactor.redact(Array(bytes))
            var offset = 0
            while offset < out.count {
                let n = out[offset...].withUnsafeBytes { write(target, $0.baseAddress, $0.count) }
                if n <= 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
        while true {
            let n = chunk.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending += chunk[0..<n]
            if let end = pending.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                emit(pending[...end])
                pending.removeSubrange(...end)
            } else if pending.count > 65536 {
                let keep = max(redactor.longest * 2, 1)
                emit(pending[..<(pending.count - keep)])
                pending.removeSubrange(..<(pending.count - keep))
            }
        }
        emit(pending[...])
        close(source)
    }
}

/// `--secret NAME=VALUE` and `--secret-file FILE` (dotenv), as `pekit test` and `pekit run` take them.
enum SecretOptions {
    static let secret = Option("secret", value: "NAME[=VALUE]", """
        set pekit.vars.NAME to a secret: its value is replaced by <secret NAME> in
        everything pekit writes (output, errors, reports, HAR), percent-encoded,
        base64-encoded or inside a longer value too. NAME alone takes the value of
        the environment variable NAME; every PEKIT_SECRET_NAME in the environment
        is a secret NAME too (as Hurl reads HURL_SECRET_*)
        """)
    static let secretFile = Option("secret-file", value: "FILE", "read secrets from FILE (NAME=VALUE lines, as --env-file; - or a pipe too)")
    static let rows: [Option] = [secret, secretFile]

    /// The prefix of the environment variables that are secrets.
    static let environmentPrefix = "PEKIT_SECRET_"

    /// The secrets the environment and the options give: every `PEKIT_SECRET_NAME` (by name),
    /// then a file's, then each --secret, a later one of a name replacing an earlier.
    static func read(_ parsed: Arguments, command: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [(name: String, value: String)] {
        var secrets: [(name: String, value: String)] = []
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) where key.hasPrefix(environmentPrefix) && key.count > environmentPrefix.count {
            secrets.append((String(key.dropFirst(environmentPrefix.count)), value))
        }
        if let path = parsed.value(secretFile) {
            for (name, value) in try VarOptions.readFile(path, option: "--secret-file", command: command) {
                secrets.removeAll { $0.name == name }
                secrets.append((name, value))
            }
        }
        for item in parsed.all(secret) {
            if !item.contains("=") {
                // --secret NAME: the value is the environment's, never on the command line (where
                // `ps` and the shell's history would show it).
                // What was given is not shown: it may be the value, written without its NAME=.
                guard !item.isEmpty, let value = environment[item] else {
                    throw UsageError(command: command, message: "--secret takes NAME=VALUE, or the NAME of a variable of the environment (none of that name is set)")
                }
                secrets.removeAll { $0.name == item }
                secrets.append((item, value))
                continue
            }
            try VarOptions.assign(item, option: "--secret", into: &secrets, command: command, shown: false)
        }
        return secrets
    }
}

/// `--var NAME=VALUE` and `--env-file FILE`, read into `pekit.vars`.
enum VarOptions {
    /// The one `--var` row of `pekit test`, `pekit run` and `pekit repl`.
    static let variable = Option("var", value: "NAME=VALUE", "set pekit.vars.NAME (repeat for more; wins over --env-file)")

    /// `pekit.vars` as the command line gives them: `envFile`'s (where the command has one), then
    /// each `--var`, then the secrets (`SecretOptions`), each name once at its first place.
    static func read(_ parsed: Arguments, envFile: Option? = nil, command: String) throws -> (vars: [(name: String, value: String)], secrets: [(name: String, value: String)]) {
        var vars: [(name: String, value: String)] = []
        if let envFile, let path = parsed.value(envFile) { vars = try readFile(path, option: "--" + envFile.name, command: command) }
        for item in parsed.all(variable) { try assign(item, option: "--var", into: &vars, command: command) }
        let secrets = try SecretOptions.read(parsed, command: command)
        for (name, value) in secrets { vars.removeAll { $0.name == name }; vars.append((name, value)) }
        return (vars, secrets)
    }

    /// A dotenv file's names and values: a file, a pipe (`<(printf 'TOKEN=…')`, /dev/fd/N) or `-`
    /// (standard input), read in memory and written nowhere.
    static func readFile(_ path: String, option: String, command: String) throws -> [(name: String, value: String)] {
        let bytes: [UInt8]
        if path == "-" {
            bytes = try readAllInput()
        } else {
            guard let read = Files.read(path) else {
                throw UsageError(command: command, message: "\(option): cannot read \(path) (\(FilePaths.exists(path) ? "permission denied or not a file" : "no such file"))")
            }
            bytes = read
        }
        do { return try DotEnv.parse(bytes) } catch let error as DotEnv.ParseError {
            throw UsageError(command: command, message: "\(option): \(path):\(error.line): \(error.reason)")
        }
    }

    /// - Parameter shown: whether an item that does not read may be quoted (a secret's is not).
    static func assign(_ item: String, option: String, into vars: inout [(name: String, value: String)], command: String, shown: Bool = true) throws {
        guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
            throw UsageError(command: command, message: "\(option) takes NAME=VALUE" + (shown ? ", not '\(item)'" : ""))
        }
        let name = String(item[..<eq])
        vars.removeAll { $0.name == name }
        vars.append((name: name, value: String(item[item.index(after: eq)...])))
    }
}
