import CLua
import CLuaShim
import Foundation
import PekitCore
import PekitLua
import PekitHTTP

/// One test's result, one per iteration (`--repeat`), as `pekit test` reports it.
public struct TestOutcome: Sendable {
    public enum Status: String, Sendable { case passed, failed, skipped }
    public var name: String
    public var iteration = 1, iterations = 1
    public var status: Status
    public var seconds = 0.0
    /// A failure's `file:line: what` (or a skip's reason).
    public var message: String?
    public var line: Int?
    /// What the test printed: its last `TestOptions.outputLimit` bytes at most.
    public var output = ""
    /// The bytes printed before `output` that were not kept.
    public var outputCut = 0
    /// A failure's explanation beyond its message: a JSON diff, the jar's verdicts.
    public var detail: String?
    public var traceback: String?
    /// The last exchange of a failed test (the request as sent and as curl, the response's head, the jar's lines).
    public var exchange: String?
}

/// One file's run: its tests' outcomes, or why it could not load.
public struct TestFileResult: Sendable {
    public var path: String
    public var outcomes: [TestOutcome] = []
    /// A syntax error, or an error outside any test: the file did not load.
    public var loadError: String?
    public var loadErrorLine: Int?
    public var traceback: String?
    /// `--fail-fast` stopped it before its end.
    public var stopped = false
    public var seconds = 0.0
    public init(path: String) { self.path = path }
}

/// What `pekit test` asks of every file.
public struct TestOptions: Sendable {
    /// A Lua pattern a test's name must contain.
    public var filter: String?
    public var iterations = 1
    public var failFast = false
    /// The most a test's printed output kept (its end), in bytes.
    public var outputLimit = 1 << 20
    /// `pekit.vars` (`--env-file`, then `--var`, then secrets).
    public var vars: [(name: String, value: String)] = []
    /// Shared by every file of a run: set when one fails under `--fail-fast`.
    public var stop = StopFlag()
    /// `--har`: every exchange of every file, each entry's comment naming its file and test.
    public var har: HARLog?
    /// The bytes curl sends for a command line (`expect(req):same_as_curl(cmd)`): pekit's own
    /// reading of curl's flags, which the command line gives.
    public var curlRequest: (@Sendable (String) throws -> [UInt8])?
    public init() {}
}

/// A flag threads share (fail-fast across files run in parallel).
public final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false
    public init() {}
    public var isSet: Bool { lock.lock(); defer { lock.unlock() }; return set }
    public func raise() { lock.lock(); set = true; lock.unlock() }
}

/// Runs `pekit test`'s files, each in a runtime of its own, with the harness (Lua/test_harness.lua).
public enum TestRunner {
    /// Whether Lua takes `pattern` as a pattern (`--filter`): tried by `string.find` itself.
    public static func isValidPattern(_ pattern: String) -> Bool {
        guard let runtime = try? LuaRuntime(options: LuaRuntime.Options()) else { return false }
        return (try? runtime.runChunk(Array("string.find('', ...)".utf8), arguments: [pattern])) != nil
    }

    /// Runs one test file (`pekit test`): its `test(...)` declarations, then each test, with
    /// `before_each`/`after_each`, a fresh jar a test for every send that names none, and what
    /// it prints captured. A file that does not load is a result too (`loadError`), not a throw.
    public static func run(path: String, options: TestOptions, in runtime: LuaRuntime) -> TestFileResult {
        var result = TestFileResult(path: path)
        let stack = runtime.stack
        let started = Timestamp.monotonic()
        do {
            try runtime.checkThread()
            guard var source = Files.read(path) else {
                result.loadError = "cannot open \(path) (\(FilePaths.exists(path) ? "permission denied" : "no such file"))"
                return result
            }
            if source.first == 0x23 { source.removeSubrange(0..<(source.firstIndex(of: 0x0A) ?? source.count)) }
            runtime.prependPackagePath(FilePaths.directory(of: path))
            runtime.setArgTable(script: path, arguments: [[UInt8]](), interpreter: ["pekit", "test"])
            runtime.setVars(options.vars)
            do { try runtime.load(source, chunkName: "@" + path) } catch let error as LuaError {
                result.loadError = error.message
                result.loadErrorLine = Self.line(in: error.message, of: path)
                return result
            }
            runtime.harLog = options.har
            let chunk = stack.top
            try runtime.load(Array(testHarnessSource.utf8), chunkName: "=pekit test")
            stack.pushGlobal("pekit")
            pushHooks(options, in: runtime)
            stack.pushValue(chunk)
            stack.newTable(nrec: 4)
            if let filter = options.filter { stack.push(filter); stack.rawSet(-2, "filter") }
            stack.push(integer: Int64(options.iterations)); stack.rawSet(-2, "iterations")
            stack.push(bool: options.failFast); stack.rawSet(-2, "fail_fast")
            stack.push(integer: Int64(options.outputLimit)); stack.rawSet(-2, "output_limit")
            stack.push(Self.shortSource(path)); stack.rawSet(-2, "short_src")
            try runtime.callCatchingInterrupts(4, results: 1)
            let report = try runtime.value(at: -1, path: "the harness's report")
            stack.pop(2)
            Self.read(report, into: &result)
        } catch let error as LuaError {
            result.loadError = error.message
            result.traceback = error.traceback.isEmpty ? nil : error.traceback
        } catch {
            result.loadError = luaMessage(error)
        }
        result.seconds = Timestamp.monotonic() - started
        result.loadError = result.loadError.map { printable($0, keepingLineBreaks: true) }
        result.traceback = result.traceback.map { printable($0, keepingLineBreaks: true) }
        return result
    }

    /// Lua's short_src for a chunk named "@path" (the messages' `path:LINE:` prefix).
    static func shortSource(_ path: String) -> String {
        path.utf8.count < 60 ? path : "..." + String(decoding: path.utf8.suffix(56), as: UTF8.self)
    }

    static func line(in message: String, of path: String) -> Int? {
        let prefix = shortSource(path) + ":"
        guard message.hasPrefix(prefix) else { return nil }
        return Int(message.dropFirst(prefix.count).prefix { $0.isNumber })
    }

    /// The harness's hooks: the running test's jar and its exchanges, a clock, the stop flag.
    private static func pushHooks(_ options: TestOptions, in runtime: LuaRuntime) {
        let state = HTTPModule.state(runtime), stack = runtime.stack, setFunction = runtime.setFunction
        var last: (PekitRequest, PekitResponse)?
        stack.newTable(nrec: 6)
        setFunction(-1, "pekit test", "begin") { call in
            state.defaultJar = try CookiesModule.jar(at: 1, call)
            state.harComment = try call.string(2)
            last = nil
            state.exchanges = { last = ($0, $1) }
            return 0
        }
        setFunction(-1, "pekit test", "finish") { _ in state.defaultJar = nil; state.exchanges = nil; state.harComment = nil; last = nil; return 0 }
        setFunction(-1, "pekit test", "clock") { call in call.stack.push(number: Timestamp.monotonic()); return 1 }
        // The tasks a test spawned, run to their end before the next test starts (as `pekit run`
        // runs them before it exits): the failure of one nothing waited for, or nil.
        setFunction(-1, "pekit test", "tasks") { call in
            do { try call.runtime.finishTasks(); call.stack.pushNil() } catch let error as LuaError {
                call.stack.push(error.message + (error.traceback.isEmpty ? "" : "\n" + error.traceback))
            }
            return 1
        }
        setFunction(-1, "pekit test", "exchange") { call in
            if let (request, response) = last { call.stack.push(Self.exchangeText(request, response)) } else { call.stack.pushNil() }
            return 1
        }
        let curl = options.curlRequest
        setFunction(-1, "pekit test", "curl_raw") { call in
            let command = try call.string(1)
            guard let curl else { throw LuaArgumentError("same_as_curl: no curl reader in this host") }
            do { call.stack.push(ByteString(try curl(command))) } catch { throw LuaArgumentError("same_as_curl: \(error)") }
            return 1
        }
        let stop = options.stop
        setFunction(-1, "pekit test", "stopped") { call in call.stack.push(bool: stop.isSet); return 1 }
        setFunction(-1, "pekit test", "stop") { _ in stop.raise(); return 0 }
    }

    /// A failed test's last exchange: the request as sent and as curl, the response's status
    /// line and fields, and what the jar did on that hop.
    static func exchangeText(_ sent: PekitRequest, _ response: PekitResponse) -> String {
        // Credentials and cookies are left out, as a sanitized HAR leaves them (the jar's lines
        // below name the cookies).
        var request = sent
        for field in sent.headers.fields where HARLog.secretFields.contains(field.name.lowercased()) {
            try? request.headers.set(field.name, "<redacted>")
        }
        var lines = ["the request, as sent:"]
        let raw = (try? request.raw()) ?? []
        let split = raw.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A])
        let head = split.map { Array(raw[..<$0.lowerBound]) } ?? raw
        lines += String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").map { "  " + $0 }
        if let split {
            let body = Array(raw[split.upperBound...])
            if !body.isEmpty {
                if let text = String(validating: body.prefix(512), as: UTF8.self) {
                    lines.append("  " + text.replacingOccurrences(of: "\n", with: "\n  ") + (body.count > 512 ? "… (\(body.count) bytes)" : ""))
                } else {
                    lines.append("  (a body of \(body.count) bytes)")
                }
            }
        }
        if let curl = try? request.curl() { lines += ["as curl:", "  " + curl] }
        lines.append("the response:")
        lines.append("  HTTP/\(response.httpVersion) \(response.status)\(response.reason.isEmpty ? "" : " " + response.reason)")
        for field in response.headers {
            lines.append("  \(field.name): " + (HARLog.secretFields.contains(field.name.lowercased()) ? "<redacted>" : field.value.description))
        }
        if let notes = response.cookieNotes, !(notes.sent.isEmpty && notes.received.isEmpty) {
            lines.append("the jar:")
            lines += (notes.sent + notes.received).map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    static func read(_ report: PekitValue, into result: inout TestFileResult) {
        // What a test reports holds a server's bytes (a reason phrase, a header, a body it
        // printed): escaped here, once, for every writer, so that no escape sequence reaches a
        // terminal (the text, TAP and GitHub reports are read on one), as `request -v` escapes them.
        func text(_ map: PekitMap, _ key: ByteString) -> String? {
            if case .string(let s)? = map[key] { return printable(s.description, keepingLineBreaks: true) }
            return nil
        }
        func int(_ map: PekitMap, _ key: ByteString) -> Int? {
            switch map[key] {
            case .integer(let n)?: return Int(n)
            case .number(let x)?: return Int(x)
            default: return nil
            }
        }
        guard case .map(let map) = report else { return }
        if let error = text(map, "error") {
            result.loadError = error
            result.loadErrorLine = int(map, "line")
            result.traceback = text(map, "traceback")
            return
        }
        result.stopped = map["stopped"] == .boolean(true)
        guard case .array(let tests)? = map["tests"] else { return }
        for case .map(let t) in tests {
            var outcome = TestOutcome(name: text(t, "name") ?? "", status: TestOutcome.Status(rawValue: text(t, "status") ?? "") ?? .failed)
            outcome.iteration = int(t, "iteration") ?? 1
            outcome.iterations = int(t, "iterations") ?? 1
            if case .number(let x)? = t["seconds"] { outcome.seconds = x }
            outcome.message = text(t, "message")
            outcome.line = int(t, "line")
            outcome.output = text(t, "output") ?? ""
            outcome.outputCut = int(t, "output_cut") ?? 0
            outcome.detail = text(t, "detail")
            outcome.traceback = text(t, "traceback")
            outcome.exchange = text(t, "exchange")
            result.outcomes.append(outcome)
        }
    }
}
