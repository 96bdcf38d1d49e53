import Foundation
import XCTest

/// Runs the built `pekit` binary and captures what a user would see.
struct PekitResult {
    let stdout: String
    let stderr: String
    let status: Int32
    var stdoutBytes: [UInt8] = []
}

enum PekitProcess {
    /// The binary under test: $PEKIT_BIN (set by scripts/test), else .build/debug/pekit.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["PEKIT_BIN"] { return URL(fileURLWithPath: path) }
        return packageRoot.appendingPathComponent(".build/debug/pekit")
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `pekit args…` with `stdin` as standard input, in `directory` (default: a fresh temp dir).
    static func run(_ args: [String], stdin: [UInt8] = [], directory: URL? = nil,
                    environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> PekitResult {
        try run(program: binary, args, stdin: stdin, directory: directory, environment: environment)
    }

    /// Runs another program (curl: the peer) as `run` runs pekit: its output, errors and status.
    static func run(program: URL, _ args: [String], stdin: [UInt8] = [], directory: URL? = nil,
                    environment: [String: String] = [:]) throws -> PekitResult {
        let process = Process()
        process.executableURL = program
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.currentDirectoryURL = directory ?? FileManager.default.temporaryDirectory
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        // Drain both pipes on other threads so a large output cannot block the child.
        let out = DataBox(), err = DataBox()
        let group = DispatchGroup()
        group.enter(); DispatchQueue.global().async { out.data = outPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter(); DispatchQueue.global().async { err.data = errPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        inPipe.fileHandleForWriting.write(Data(stdin))
        try? inPipe.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        var result = PekitResult(stdout: String(decoding: out.data, as: UTF8.self), stderr: String(decoding: err.data, as: UTF8.self),
                                 status: process.terminationStatus)
        result.stdoutBytes = Array(out.data)
        return result
    }

    /// Runs another program (curl, a shell) and returns what it wrote to standard output.
    static func output(of executable: String, _ args: [String], stdin: String = "", directory: URL? = nil) throws -> [UInt8] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardInput = input
        try p.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Array(data)
    }

    /// Runs a bash command line (for shell integration: completion scripts) and returns its output.
    static func runShell(_ command: String) throws -> String {
        String(decoding: try output(of: "/bin/bash", ["-c", command]), as: UTF8.self)
    }

    /// Runs `pekit args…` on a pseudo-terminal (util-linux `script`), as a person at a terminal
    /// runs it, and returns the bytes the terminal received, its CR LF line ends given back as
    /// LF. `NO_COLOR` is unset unless `environment` sets it.
    static func runInTerminal(_ args: [String], environment: [String: String] = [:]) throws -> [UInt8] {
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let env = ["env", "-u", "NO_COLOR"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let command = (env + [binary.path] + args).map(quoted).joined(separator: " ")
        let bytes = try output(of: "/usr/bin/script", ["-qec", command, "/dev/null"])
        var out: [UInt8] = []
        for (i, byte) in bytes.enumerated() where !(byte == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A) { out.append(byte) }
        return out
    }

    static func run(_ args: String..., stdin: String = "") throws -> PekitResult {
        try run(args, stdin: Array(stdin.utf8))
    }
}

/// Written by one reader thread, read after `group.wait()`: no concurrent access.
final class DataBox: @unchecked Sendable { var data = Data() }
