import Foundation
import CLua
import CLuaShim
import PekitCore
import PekitLua

/// The read-eval-print logic of `pekit repl`, apart from the terminal: feed it lines, print
/// what it returns. As in Lua's own `lua.c`: a line is first tried as `return <line>` so an
/// expression prints its value; a statement cut off mid-way (a syntax error at `<eof>`) asks
/// for more lines; errors are printed and the session goes on.
public final class LuaREPL {
    /// What to do after a line.
    public enum Outcome: Equatable {
        /// Print this (values or a message); may be empty.
        case output(String)
        /// Print this to standard error.
        case error(String)
        /// The statement is incomplete: read another line (continuation prompt).
        case needMore
        /// `:quit`.
        case quit
    }

    public let runtime: LuaRuntime
    /// Whether values are shown for a person (`pekit repl`) rather than as Lua (LuaREPL+Display).
    public let forPeople: Bool
    private var pending: [String] = []
    /// The traceback of the last error, which `:trace` shows.
    private var lastTraceback = ""

    /// - Parameter forPeople: show values for a person: JSON-like text, a request's first lines, a
    ///   URL's fields, `pekit.inspect(…)` as text, errors without their traceback (`:trace`
    ///   shows it). Otherwise values are written as Lua, errors with their traceback.
    public init(runtime: LuaRuntime, forPeople: Bool = false) {
        self.runtime = runtime
        self.forPeople = forPeople
        installHelp()
    }

    /// Whether a statement is waiting for more lines.
    public var isContinuing: Bool { !pending.isEmpty }

    public static let help = """
    Type Lua: an expression prints its value, e.g. pekit.encode("漢字&ss").
      :help       this help;  :help NAME (or help(value)) the reference for NAME
      :plugins    list the plugins on the search path
      :reload     read plugin files again after editing them
      :trace      the traceback of the last error
      :quit       leave (or Ctrl-D)
    Tab completes names; Ctrl-C clears the line.
    """

    /// Secrets (`pekit repl --secret`): every value shown, message and `print` of the session
    /// has them replaced by `<secret NAME>`.
    public var redactor: Redactor? {
        didSet { if redactor != nil { installRedactedPrint() } }
    }

    /// Handles one line.
    public func feed(_ line: String) -> Outcome {
        let outcome = evaluate(line)
        guard let redactor else { return outcome }
        switch outcome {
        case .output(let text): return .output(redactor.redact(text))
        case .error(let text): return .error(redactor.redact(text))
        default: return outcome
        }
    }

    /// `print` writing through the redactor: the standard one's words (tostring of each
    /// argument, tabs between, a newline), the secrets replaced.
    private func installRedactedPrint() {
        runtime.pushFunction("__pekit_redact") { [weak self] call in
            let text = try call.string(1)
            call.stack.push(self?.redactor?.redact(text) ?? text)
            return 1
        }
        runtime.setGlobal("__pekit_redact")
        let source = """
            local redact, tostring, select, concat, stdout = __pekit_redact, tostring, select, table.concat, io.stdout
            __pekit_redact = nil
            print = function(...)
              local parts = {}
              for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
              stdout:write(redact(concat(parts, "\\t")), "\\n")
            end
            """
        do { try runtime.runChunk(Array(source.utf8), name: "=pekit repl") } catch { fputs("pekit repl: \(error)\n", stderr) }
    }

    private func evaluate(_ line: String) -> Outcome {
        if pending.isEmpty, line.hasPrefix(":") { return command(line.trimmingCharacters(in: .whitespaces)) }
        let stack = runtime.stack
        let base = stack.top
        defer { stack.setTop(base) }
        if pending.isEmpty {
            // An expression? Compile `return <line>` first.
            var expression = line
            if expression.hasPrefix("=") { expression.removeFirst() }  // Lua 5.1's "=expr"
            if (try? runtime.load(Array(("return " + expression).utf8), chunkName: "=stdin")) != nil {
                // pekit.inspect(x) at the prompt: the text itself, not a quoted string.
                let trimmed = expression.trimmingCharacters(in: .whitespaces)
                let asText = forPeople && trimmed.hasPrefix("pekit.inspect(") && trimmed.hasSuffix(")")
                return run(asText: asText)
            }
        }
        pending.append(line)
        let source = pending.joined(separator: "\n")
        do {
            try runtime.load(Array(source.utf8), chunkName: "=stdin")
        } catch let error as LuaError {
            if error.message.hasSuffix("<eof>") { return .needMore }
            pending.removeAll()
            return .error(error.message)
        } catch {
            pending.removeAll()
            return .error(luaMessage(error))
        }
        pending.removeAll()
        return run()
    }

    /// Abandons a statement in progress (Ctrl-C at a continuation prompt).
    public func cancel() { pending.removeAll() }

    private func run(asText: Bool = false) -> Outcome {
        let stack = runtime.stack
        let base = stack.top - 1
        do {
            try runtime.callCatchingInterrupts(0, results: LUA_MULTRET)
        } catch let error as LuaError {
            lastTraceback = error.traceback
            if forPeople || error.traceback.isEmpty { return .error(error.message) }
            return .error(error.message + "\n" + error.traceback)
        } catch {
            return .error(luaMessage(error))
        }
        let count = stack.top - base
        guard count > 0 else { return .output("") }
        if asText, count == 1, stack.type(base + 1) == LUA_TSTRING { return .output(stack.string(base + 1) ?? "") }
        return .output((1...count).map { display(at: base + $0) }.joined(separator: "\t"))
    }

    private func command(_ line: String) -> Outcome {
        switch line {
        case ":quit", ":q", ":exit": return .quit
        case ":help", ":h", ":?": return .output(Self.help + "\n" + LuaAPIDoc.index)
        case ":trace":
            return .output(lastTraceback.isEmpty ? "no error yet has a traceback" : lastTraceback)
        case ":reload":
            runtime.reloadPlugins()
            return .output("plugins will be read again on next use")
        case ":plugins":
            let list = runtime.plugins.list()
            if list.isEmpty { return .output("no plugins on the path: \(runtime.plugins.path.joined(separator: ", "))") }
            return .output(formatPlugins(list))
        default:
            for prefix in [":help ", ":h "] where line.hasPrefix(prefix) {
                return help(for: String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces))
            }
            return .error("unknown command \(line) (try :help)")
        }
    }
}

extension LuaREPL {
    /// `:help NAME`: the reference entries for a name (`pekit.query.encode`, `pekit.url`, `jar:receive`).
    func help(for name: String) -> Outcome {
        let docs = LuaAPIDoc.lookUp(name)
        guard !docs.isEmpty else { return .error("no help for \(name) (:help lists what there is)") }
        return .output(docs.map(\.text).joined(separator: "\n\n"))
    }

    /// The global `help(value)` of the session: the entry for a pekit function (found by
    /// identity among pekit's tables) or a name; `help()` is `:help`.
    func installHelp() {
        runtime.pushFunction("help") { [weak self] call in
            guard let self else { return 0 }
            let outcome: Outcome
            switch call.stack.type(1) {
            case LUA_TNONE, LUA_TNIL: outcome = .output(Self.help + "\n" + LuaAPIDoc.index)
            case LUA_TSTRING: outcome = self.help(for: try call.string(1))
            default:
                guard let name = self.nameOf(value: 1) else {
                    throw LuaArgumentError("no help for this \(call.stack.typeName(1)) (help takes a pekit function or a name, as help(pekit.encode) or help(\"jar:receive\"))")
                }
                outcome = self.help(for: name)
            }
            switch outcome {
            case .output(let text): print(text)
            case .error(let text): throw LuaArgumentError(text)
            default: break
            }
            return 0
        }
        runtime.setGlobal("help")  // raw: a script may have given _G a __newindex
    }

    /// The documented name whose value is the one at `index` (rawequal), looked up raw.
    func nameOf(value index: Int32) -> String? {
        let stack = runtime.stack
        let target = stack.absolute(index)
        let base = stack.top
        defer { stack.setTop(base) }
        for doc in LuaAPIDoc.all {
            for name in doc.names where name.hasPrefix("pekit.") {
                stack.setTop(base)
                _ = stack.rawGetIndex(pekit_registryindex(), Int64(LUA_RIDX_GLOBALS))
                var found = true
                for part in name.split(separator: ".") {
                    guard stack.type(-1) == LUA_TTABLE, stack.rawGet(-1, String(part)) != LUA_TNIL else { found = false; break }
                }
                if found && lua_rawequal(runtime.L, -1, target) != 0 { return name }
            }
        }
        return nil
    }
}

/// The lines of `pekit plugins` / `:plugins`: name, kind, description, file, in aligned columns;
/// a broken file shows its error instead.
public func formatPlugins(_ list: [PluginInfo]) -> String {
    let width = (list.map(\.name.count).max() ?? 0) + 2
    let kindWidth = 15
    return list.map { info in
        let name = info.name.padding(toLength: width, withPad: " ", startingAt: 0)
        if let error = info.error { return name + "broken".padding(toLength: kindWidth, withPad: " ", startingAt: 0) + error }
        return name + info.kind.padding(toLength: kindWidth, withPad: " ", startingAt: 0) + info.description + "  [" + info.file + "]"
    }.joined(separator: "\n")
}
