import Foundation
import XCTest

/// A real terminal for a test: tmux runs a command in a detached session; keys are typed and
/// the screen is read back.
final class TerminalSession {
    let name: String
    private let outFile: String

    /// Starts `command` (a shell command line) in a 120×30 terminal; `directory` holds tmux's
    /// output. Skips the test where tmux is missing (scripts/test installs it).
    init(_ command: String, directory: URL, tag: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw XCTSkip("tmux is not installed (scripts/test installs it)")
        }
        name = "pekit-test-\(getpid())-\(tag)"
        outFile = directory.appendingPathComponent("tmux-\(tag).out").path
        try tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "30", command)
    }

    deinit { _ = try? run(["kill-server"]) }

    /// Runs tmux on this session's server.
    @discardableResult
    func tmux(_ args: String...) throws -> String { try run(args) }

    /// Types keys (tmux send-keys names: "Enter", "C-c", or text).
    func send(_ keys: String...) throws { try run(["send-keys", "-t", name] + keys) }

    /// What the screen shows (a line the terminal wrapped joined again).
    func screen() throws -> String { try run(["capture-pane", "-p", "-J", "-t", name]) }

    /// The screen once it shows `text`, or as it is after five seconds.
    func screen(waitingFor text: String) throws -> String {
        for _ in 0..<50 {
            let shown = try screen()
            if shown.contains(text) { return shown }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try screen()
    }

    /// tmux is run with posix_spawn and waitpid, its output sent to a file: the server that
    /// new-session daemonizes would otherwise keep Foundation's Process (and a pipe) waiting.
    private func run(_ args: [String]) throws -> String {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (["tmux", "-u", "-L", name] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ) == 0 else { throw XCTSkip("cannot start tmux") }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? ""
    }
}
