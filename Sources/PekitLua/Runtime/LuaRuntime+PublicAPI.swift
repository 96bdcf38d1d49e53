import CLua
import CLuaShim
import PekitCore
import Foundation

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
    /// Sets `pekit.vars` (`pekit run --var`, `pekit test`): a table of names to values.
    public func setVars(_ vars: [(name: String, value: String)]) {
        stack.pushGlobal("pekit")
        guard stack.type(-1) == LUA_TTABLE else { stack.pop(); return }
        stack.newTable(nrec: Int32(clamping: vars.count))
        for (name, value) in vars { stack.push(value); stack.rawSet(-2, name) }
        stack.rawSet(-2, "vars")
        stack.pop()
    }

    public func finishTasks() throws {
        let scheduler = tasks
        guard scheduler.tasks.values.contains(where: { !$0.isOver || $0.failedUnseen }) else { return }
        do {
            try scheduler.run(self) { scheduler.unfinished == 0 }
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

    /// At the end of a script: every jar bound to a file (`pekit.cookies.jar{file = …}`) that
    /// changed since it was loaded or flushed is merged into the file as it is now, atomically
    /// and under the file's lock, session cookies too; an unchanged jar writes nothing.
    /// - Throws: `CookieError` naming the file that could not be written.
    public func saveBoundJars() throws {
        let state = CookiesModule.state(self)
        state.releaseReserve()
        for (jar, path) in state.bound { try jar.save(mergingInto: path, sessions: true, force: true) }
    }

    /// The filter a cookie-filter plugin makes with no options (`pekit cookies --filter NAME`).
    /// - Throws: an error naming the plugin: not found, not a cookie-filter, failing to load.
    public func cookieFilter(plugin name: String) throws -> CookieFilter {
        try CookiesModule.filterFromPlugin(name: name, options: nil, in: self)
    }

    /// A filter from the command line's `--filter SPEC`: `NAME`, `NAME:{JSON object}` (the
    /// plugin's options, exactly), or `NAME:KEY=VALUE,KEY=VALUE…` where `KEY=A=B` adds `A = B` to
    /// the map `KEY` and a key given more than once becomes a list
    /// (`httpdns:hosts=203.0.113.7=api.example.com`, `deny:names=^_ga,names=^_gid$`).
    /// - Throws: `LuaArgumentError` for a spec that does not read; what the plugin throws.
    public func cookieFilter(spec: String) throws -> CookieFilter {
        guard let colon = spec.firstIndex(of: ":") else { return try cookieFilter(plugin: spec) }
        let name = String(spec[..<colon]), rest = String(spec[spec.index(after: colon)...])
        let options: PekitValue
        if rest.hasPrefix("{") {
            do { options = try JSONText.parse(Array(rest.utf8)) } catch { throw LuaArgumentError("\(name): the options are not a JSON object: \(error)") }
            guard case .map = options else { throw LuaArgumentError("\(name): the options must be a JSON object") }
        } else {
            options = try CookiesModule.shorthandOptions(rest, filter: name)
        }
        let base = stack.top
        defer { stack.setTop(base) }
        push(options, keepOrder: true)
        return try CookiesModule.filterFromPlugin(name: name, options: stack.top, in: self)
    }

    /// Forgets loaded plugins and the policies read from them, so edited files are read again.
    public func reloadPlugins() {
        plugins.reset()
        policies.reset()
    }
}
