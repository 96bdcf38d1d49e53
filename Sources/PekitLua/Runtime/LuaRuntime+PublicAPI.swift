import CLua
import CLuaShim
import PekitCore

/// What a host program (the `pekit` command, a Swift app) calls on a runtime besides running
/// code (LuaRuntime+Run.swift): plugins and policies by name, and the end of a script.
extension LuaRuntime {
    /// The loader, for the REPL's `:plugins` and the CLI's `pekit plugins`.
    public func listPlugins() -> [PluginInfo] { plugins.list() }
    /// The plugin search path in effect.
    public var pluginPath: [String] { plugins.path }
    /// The encoder of a named policy (loading its plugin on first use).
    public func encoder(policy name: String) throws -> PercentEncoder { try policies.get(name).encoder }
    /// A named policy (loading its plugin on first use).
    public func policy(named name: String) throws -> Policy { try policies.get(name) }

    /// At the end of a script: runs the tasks it spawned and did not wait for, to their end (as
    /// an event loop does), then reports a task that failed with nobody to see it.
    /// - Throws: `LuaError` for the first such task (its message and traceback), for tasks that
    ///   wait for each other, or for Ctrl-C.
    public func finishTasks() throws {
        let scheduler = tasks
        guard scheduler.tasks.values.contains(where: { !$0.isOver || $0.failedUnseen }) else { return }
        do {
            try scheduler.run(self) { scheduler.tasks.values.allSatisfy { $0.isOver } }
        } catch {
            throw LuaError(message: "the script's tasks cannot finish: \(error)")
        }
        if pekit_interrupt_pending() != 0 {
            var interrupted = LuaError(message: "interrupted")
            interrupted.isInterrupt = true
            throw interrupted
        }
        if let task = scheduler.tasks.values.filter(\.failedUnseen).min(by: { $0.id < $1.id }) {
            task.observed = true
            throw LuaError(message: "task \(task.id) failed (nothing waited for it): \(task.errorText)", traceback: task.traceback)
        }
    }

    /// At the end of a script: every jar bound to a file (`pekit.cookies.jar{file = …}`) is
    /// saved, atomically and under the file's lock, session cookies too.
    /// - Throws: `CookieError` naming the file that could not be written.
    public func saveBoundJars() throws {
        for (jar, path) in cookieState.bound { try jar.save(to: path, sessions: true, force: true) }
    }
}
