#if canImport(Glibc)
import Glibc
#endif
import PekitCore
import PekitLua

/// Makes the Lua runtime the way every command that needs one wants it.
func makeRuntime(extraPluginDirectories: [String], sandboxed: Bool = false) throws -> LuaRuntime {
    var options = LuaRuntime.Options()
    options.extraPluginDirectories = extraPluginDirectories
    options.sandboxed = sandboxed
    options.executablePath = FilePaths.linkTarget("/proc/self/exe") ?? CommandLine.arguments.first
    return try LuaRuntime(options: options)
}

/// The Lua host of a one-shot command (`request`, `query`, `encode`, `cookies`, `import`): made
/// on first use and kept until the process ends, because what it builds (a policy whose order is a
/// Lua function, a cookie filter) calls into it for as long as the command runs, and a command's
/// values outlive the function that asked for them. One host for each set of plugin directories, whoever asks.
func commandHost(extraPluginDirectories: [String]) throws -> LuaRuntime {
    if let kept = CommandHost.kept.first(where: { $0.directories == extraPluginDirectories }) { return kept.host }
    let host = try makeRuntime(extraPluginDirectories: extraPluginDirectories)
    CommandHost.kept.append((extraPluginDirectories, host))
    return host
}

private enum CommandHost {
    /// Only the main thread parses a command line and asks for its host.
    nonisolated(unsafe) static var kept: [(directories: [String], host: LuaRuntime)] = []
}

/// Gives `runtime` pekit's progress line on standard error (a terminal's, unless `force`):
/// downloads to files, batches, and sends that ask for it (`progress = true`).
func attachProgressLine(to runtime: LuaRuntime, force: Bool = false) {
    guard force || isatty(STDERR_FILENO) != 0 else { return }
    let line = ProgressLine()
    runtime.progressDisplay = ProgressDisplay(download: { line.update($0) }, batch: { line.update(done: $0, failed: $1, inFlight: $2, total: $3, elapsed: $4) },
                                              finish: { line.finish() })
}

extension Option {
    /// `--plugins DIR`, which every Lua-backed command takes.
    static let plugins = Option("plugins", value: "DIR", "search DIR for plugins first")
}
