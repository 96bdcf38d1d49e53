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

    /// An outcome made outside a test file (`pekit load`'s thresholds, reported as tests).
    public init(name: String, status: Status, seconds: Double = 0, message: String? = nil) {
        self.name = name
        self.status = status
        self.seconds = seconds
        self.message = message
    }
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
    /// What a translated file did not carry over (a .http file's JavaScript handlers), with lines.
    public var notes: [String] = []
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
    /// `--max-time`: the seconds a test (its before_each hooks and body) may run, and its
    /// after_each hooks as many more; nil: no limit. A run that waits forever is a failed test,
    /// not a stuck CI job.
    public var maxTime: Double? = TestOptions.defaultMaxTime
    /// `--timeout`: the seconds a send that gives no timeout of its own may take; nil: none.
    public var requestTimeout: Double? = TestOptions.defaultRequestTimeout
    /// `--connect`: host mappings added to every send of the run.
    public var connect: [HostMapping] = []
    /// Every test's last exchange kept, a passing one's too (for a report that shows them all).
    public var recordsEveryExchange = false
    public static let defaultMaxTime = 300.0
    public static let defaultRequestTimeout = 30.0
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
        let started = UnixTime.monotonic()
        do {
            try runtime.checkThread()
            guard var source = Files.read(path) else {
                result.loadError = "cannot open \(path) (\(FilePaths.exists(path) ? "permission denied" : "no such file"))"
                return result
            }
            if CollectionFile.handles(path) {
                // A .http or .hurl file runs as the Lua it translates to, laid out on its own lines.
                let translated: CollectionFile.Translation
                do { translated = try CollectionFile.translate(source, path: path, layout: .aligned) } catch let error as CollectionFile.ParseError {
                    result.loadError = error.description
                    result.loadErrorLine = error.line
                    return result
                }
                result.notes = translated.notes
                source = Array(translated.lua.utf8)
            } else if source.first == 0x23 {
                source.removeSubrange(0..<(source.firstIndex(of: 0x0A) ?? source.count))
            }
            runtime.prependPackagePath(FilePaths.directory(of: path))
            try installHelpers(in: runtime)
            runtime.setArgTable(script: path, arguments: [[UInt8]](), interpreter: ["pekit", "test"])
            runtime.setVars(options.vars)
            do { try runtime.load(source, chunkName: "@" + path) } catch let error as LuaError {
                result.loadError = error.message
                result.loadErrorLine = Self.line(in: error.message, of: path)
                return result
            }
            runtime.harLog = options.har
            HTTPModule.state(runtime).defaultTimeout = options.requestTimeout
            HTTPModule.state(runtime).defaultConnect = options.connect
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
            if let maxTime = options.maxTime { stack.push(number: maxTime); stack.rawSet(-2, "max_time") }
            if let timeout = options.requestTimeout { stack.push(number: timeout); stack.rawSet(-2, "request_timeout") }
            stack.push(bool: options.recordsEveryExchange); stack.rawSet(-2, "all_exchanges")
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
        result.seconds = UnixTime.monotonic() - started
        result.loadError = result.loadError.map { printable($0, keepingLineBreaks: true) }
        result.traceback = result.traceback.map { printable($0, keepingLineBreaks: true) }
        return result
    }

    /// The Lua a translated file requires, compiled in: `require("pekit.hurl")` and
    /// `require("pekit.http_file")` give the helper's chunk, which the file calls for a fresh copy
    /// of its own (its variables and jar are the file's). Compiled when first required
    /// (`package.preload`), so a test file that needs neither pays for neither.
    static let helpers = [("pekit.hurl", hurlHelperSource, "=hurl.lua"), ("pekit.http_file", httpFileHelperSource, "=http_file.lua"),
                          ("pekit.postman", postmanHelperSource, "=postman.lua")]

    private static func installHelpers(in runtime: LuaRuntime) throws {
        let stack = runtime.stack
        stack.pushGlobal("package")
        let package = stack.top
        _ = stack.rawGet(package, "preload")
        let preload = stack.top
        for (name, source, chunkName) in helpers {
            runtime.setFunction(preload, "require", name) { call in
                try call.runtime.load(Array(source.utf8), chunkName: chunkName)
                return 1
            }
        }
        stack.pop(2)
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
        // limit(seconds, message): from now, the test's code may run `seconds` more (0: no
        // limit), and its sends are given no longer than what is left.
        setFunction(-1, "pekit test", "limit") { call in
            call.runtime.setTimeLimit(call.stack.number(1), message: (try? call.string(2)) ?? "", exempting: "=pekit test")
            return 0
        }
        setFunction(-1, "pekit test", "finish") { _ in state.defaultJar = nil; state.exchanges = nil; state.harComment = nil; last = nil; return 0 }
        setFunction(-1, "pekit test", "clock") { call in call.stack.push(number: UnixTime.monotonic()); return 1 }
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
        // The body as the server sent it, but for the credentials left out above: a server that
        // echoes the request (or sets a cookie it also writes in the page) must not show them here.
        let hidden = secretValues(sent.headers.fields.map { ($0.name, $0.value.description) } + response.headers.map { ($0.name, $0.value.description) })
        lines += bodyLines(response.body, contentType: response.headers.first { $0.name.lowercased() == "content-type" }?.value.description)
            .map { line in hidden.reduce(line) { $0.replacingOccurrences(of: $1, with: "<redacted>") } }
        if let notes = response.cookieNotes, !(notes.sent.isEmpty && notes.received.isEmpty) {
            lines.append("the jar:")
            lines += (notes.sent + notes.received).map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// What of the credential fields (`HARLog.secretFields`) a page may repeat: each value
    /// whole, an Authorization value's credentials after its scheme, and each cookie's
    /// `name=value` (its value alone when that is long enough not to be a common word), longest
    /// first so that a value is hidden before a part of it.
    static func secretValues(_ fields: [(name: String, value: String)]) -> [String] {
        var found: Set<String> = []
        for (name, value) in fields where HARLog.secretFields.contains(name.lowercased()) {
            found.insert(value)
            let lower = name.lowercased()
            if lower.hasSuffix("authorization"), let space = value.firstIndex(of: " ") { found.insert(String(value[value.index(after: space)...].trimmingOWS)) }
            if lower == "cookie" || lower == "set-cookie" {
                let pairs = value.split(separator: ";").prefix(lower == "cookie" ? Int.max : 1)
                for pair in pairs.map({ String($0.trimmingOWS) }) {
                    found.insert(pair)
                    if let eq = pair.firstIndex(of: "="), pair.distance(from: eq, to: pair.endIndex) > 8 { found.insert(String(pair[pair.index(after: eq)...])) }
                }
            }
        }
        return found.filter { $0.utf8.count >= 4 }.sorted { $0.utf8.count > $1.utf8.count }
    }

    /// The most of a response's body a failure shows (Hurl's `--error-format long` shows it all;
    /// a report with a 10 MB page in every failure helps no one).
    static let shownBody = 4096

    /// A failed test's response body, as its reader wants it: JSON indented, other text as it
    /// is, each line indented under "the response:"; the first `shownBody` bytes and the size
    /// when it is longer; a body that is not text by its size alone.
    static func bodyLines(_ body: [UInt8], contentType: String?) -> [String] {
        guard !body.isEmpty else { return [] }
        func indented(_ text: String) -> [String] { [""] + text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 } }
        let json = contentType.map { $0.lowercased().contains("json") } ?? false
        if json, let value = try? JSONText.parse(body, maxDepth: 64, duplicates: .keep) {
            let pretty = JSONText.display(value)
            let cut = pretty.count > shownBody ? "… (\(body.count) bytes; the first \(shownBody) of it indented shown)" : ""
            return indented(String(decoding: pretty.prefix(shownBody), as: UTF8.self) + cut)
        }
        // Text cut at a character's start, never inside one.
        var end = min(body.count, shownBody)
        while end < body.count && end > 0 && body[end] & 0xC0 == 0x80 { end -= 1 }
        guard var prefix = String(validating: body[..<end], as: UTF8.self) else { return ["", "  (a body of \(body.count) bytes, not text)"] }
        // A text's last line break ends its last line; it starts no empty one.
        if end == body.count, prefix.hasSuffix("\n") { prefix.removeLast() }
        return indented(prefix + (end < body.count ? "… (\(body.count) bytes; the first \(end) shown)" : ""))
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
