import CLua
import CLuaShim
import Foundation
import PekitCore

extension LuaRuntime {
    /// A wall-clock limit on the Lua code running in this runtime from now (`pekit test
    /// --max-time`): past it, the code is stopped with `message`, and no send is given longer
    /// than what is left; nil lifts it. Without effect in a plugin's state, whose calls have
    /// their own limit. The code of the chunk named `chunk` (its source: `=pekit test`) is not
    /// stopped: it runs on to lift the limit or set the next.
    package func setTimeLimit(_ seconds: Double?, message: String, exempting chunk: String? = nil) {
        // The limit is the C control block's alone; sends and waits ask it what is left.
        if let seconds, seconds > 0 {
            pekit_time_limit(L, Int64(min(seconds, 1e9) * 1e9), message, chunk)
        } else {
            pekit_time_limit(L, 0, nil, nil)
        }
    }

    /// Runs a script file as `pekit run` does: `arg` set as Lua's own interpreter sets it, the
    /// script's directory first on `package.path`, the arguments passed as `...`, Ctrl-C caught.
    /// - Parameters:
    ///   - path: the script, as the user wrote it (messages say `path:LINE:`).
    ///   - arguments: `arg[1]`…; `interpreter` fills `arg[-n]…arg[-1]`.
    /// - Throws: `LuaError` for a missing file, a syntax error or a runtime error (with traceback).
    public func runScript(path: String, arguments: [String], interpreter: [String] = ["pekit", "run"]) throws {
        try runScript(path: path, arguments: arguments.map { Array($0.utf8) }, interpreter: interpreter)
    }

    /// `runScript` with the arguments as bytes (a command line may hold any bytes; Lua strings are bytes).
    public func runScript(path: String, arguments: [[UInt8]], interpreter: [String] = ["pekit", "run"]) throws {
        try checkThread()
        guard var source = Files.read(path) else {
            let reason = FilePaths.exists(path) ? "permission denied" : "no such file"
            throw LuaError(message: "cannot open \(path) (\(reason))")
        }
        // Skip a first line starting with '#' (a #! line), keeping line numbers, as lua.c does.
        if source.first == 0x23 {
            let end = source.firstIndex(of: 0x0A) ?? source.count
            source.replaceSubrange(0..<end, with: [])
        }
        setArgTable(script: path, arguments: arguments, interpreter: interpreter)
        prependPackagePath(FilePaths.directory(of: path))
        try load(source, chunkName: "@" + path)
        for argument in arguments { stack.push(argument) }
        try callCatchingInterrupts(Int32(arguments.count), results: 0)
    }

    /// Runs a chunk of source (`-e`, or a script read from standard input), named
    /// `=(command line)` as lua.c names it, with `arguments` as `...`.
    public func runChunk(_ source: [UInt8], name: String = "=(command line)", arguments: [String] = []) throws {
        try runChunk(source, name: name, arguments: arguments.map { Array($0.utf8) })
    }

    /// `runChunk` with the arguments as bytes.
    public func runChunk(_ source: [UInt8], name: String = "=(command line)", arguments: [[UInt8]]) throws {
        try load(source, chunkName: name)
        for argument in arguments { stack.push(argument) }
        try callCatchingInterrupts(Int32(arguments.count), results: 0)
    }

    /// `require(module)` and sets the global of the same name (`-l module`).
    public func requireModule(_ module: String) throws {
        try checkThread()
        stack.pushGlobal("require")
        guard stack.type(-1) == LUA_TFUNCTION else {
            stack.pop()
            throw LuaError(message: "require is not available (sandboxed)")
        }
        stack.push(module)
        try callCatchingInterrupts(1, results: 1)
        setGlobal(module)
    }

    /// Sets the `arg` table as lua.c does.
    public func setArgTable(script: String, arguments: [String], interpreter: [String]) {
        setArgTable(script: script, arguments: arguments.map { Array($0.utf8) }, interpreter: interpreter)
    }

    /// `setArgTable` with the arguments as bytes.
    public func setArgTable(script: String, arguments: [[UInt8]], interpreter: [String]) {
        guard isOwnerThread else { return }
        stack.newTable(narr: Int32(arguments.count), nrec: Int32(interpreter.count + 1))
        for (i, word) in interpreter.enumerated() { stack.push(word); stack.rawSetIndex(-2, Int64(i - interpreter.count)) }
        stack.push(script); stack.rawSetIndex(-2, 0)
        for (i, word) in arguments.enumerated() { stack.push(word); stack.rawSetIndex(-2, Int64(i + 1)) }
        setGlobal("arg")
    }

    package func prependPackagePath(_ directory: String) {
        stack.pushGlobal("package")
        guard stack.type(-1) == LUA_TTABLE else { stack.pop(); return }
        let current = stack.rawGet(-1, "path") == LUA_TSTRING ? (stack.string(-1) ?? "") : ""
        stack.pop()
        stack.push("\(directory)/?.lua;\(directory)/?/init.lua;" + current)
        stack.rawSet(-2, "path")
        stack.pop()
    }

    /// Calls the function on top with Ctrl-C stopping it (exit 130 in the CLI), as lua.c does.
    package func callCatchingInterrupts(_ nargs: Int32, results: Int32) throws {
        pekit_catch_interrupts()
        defer { pekit_release_interrupts() }
        try call(nargs, results: results)
    }

    /// Runs `body` with Ctrl-C caught instead of ending the process: `interrupted()` says whether
    /// it came (`pekit load` then ends its run and reports what it measured). Lua code running
    /// meanwhile stops at its next instruction, as under `callCatchingInterrupts`.
    package static func catchingInterrupts<T>(_ body: (_ interrupted: @escaping () -> Bool) throws -> T) rethrows -> T {
        pekit_catch_interrupts()
        defer { pekit_release_interrupts() }
        return try body { pekit_interrupt_pending() != 0 }
    }

    /// The pretty form of the value at `index` (nested tables, sorted keys, cycles marked).
    /// - Parameter fold: show only the start of long strings (the REPL).
    public func inspect(at index: Int32, fold: Bool = false) -> String {
        guard isOwnerThread else { return "<inspect failed: \(LuaRuntime.wrongThread)>" }
        let i = stack.absolute(index)
        getRegistry(.inspect)
        stack.pushValue(i)
        lua_pushnil(L)
        stack.push(bool: fold)
        do {
            try call(3, results: 1, traceback: false)
        } catch {
            return "<inspect failed: \(error)>"
        }
        defer { stack.pop() }
        return stack.string(-1) ?? ""
    }
}

