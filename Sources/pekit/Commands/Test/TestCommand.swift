import Foundation
import PekitCore
import PekitHTTP
import PekitLua
import PekitTools

let testCommand = Command(
    name: "test",
    summary: "run API tests written in Lua, with reports CI systems read",
    synopsis: """
    usage: pekit test [--filter PATTERN] [--jobs N] [--fail-fast] [--repeat N] [--max-time S]
                      [--timeout S] [--connect N:P=A:Q]... [--var NAME=VALUE]... [--env NAME]
                      [--env-file FILE] [--variables-file FILE]... [--hurl-option NAME[=VALUE]]...
                      [--environment FILE] [--globals FILE] [--secret NAME=VALUE]... [--secret-file FILE]
                      [--report KIND[:FILE]]... [--har FILE] [--plugins DIR] [PATH...]

    Runs test files: each PATH that is a file, and every *_test.lua and *.hurl under each PATH
    that is a directory (tests/ when none is given), files in name order. A .http file named (JetBrains'
    HTTP Request in Editor format) runs each request as a test, and a .hurl file each entry, as
    Hurl runs it, and a Postman collection (a .json file, v2.0 or v2.1) each request, as
    Postman's curl code generator writes it; see pekit import and docs/collections.md. A file
    declares tests:

      test("login", function(t)
        local r = pekit.http.post(pekit.vars.BASE .. "/login", { form = { user = "ada" } })
        expect(r):status(200):json("$.user", "ada")
      end)

    with before_each(f), after_each(f), fail("why") (the test fails there, no traceback) and
    skip("why") (in a test: that test; at the top of a file: all of it). Each test has a jar of its own, which every send that names none uses
    (t.jar); test("name", { jar = shared }, f) shares one on purpose. What a test prints is kept
    and shown when it fails.
    """,
    sections: { [HelpSection("options:", TestOptionRows.all)] },
    epilogue: """
    expectations: expect(response):status(200 | {200, 201} | "2xx" | "200-299"), :header(name [, want]),
    :json(JSONPath [, want]), :body(want), :time_under(seconds), :redirects(n), :cookie(name);
    expect(jar):sends(url [, want]), :holds(name), :explains(url, {name = rule});
    expect(request):read_by(server [, "body"]):equals(table), :same_as_curl("curl …").
    For a body or a header a string is contained (not a Lua pattern); for :json a value is
    compared as JSON ([] is not {}; a singular path compares its node, any other its node list).
    A predicate asks the rest: is.eq, is.ne, is.lt, is.le, is.gt, is.ge, is.contains,
    is.starts_with, is.ends_with, is.matches (a Lua pattern), is.includes, is.count, is.exists,
    is.missing, is.empty, is.string, is.number, is.integer, is.float, is.boolean, is.null,
    is.list, is.object, is.collection, is["not"](p); or a function(value) returning true.
    A failure says what was expected and what was got (a diff for JSON), the request as sent
    and as curl, the response's status line, fields and body, and what the jar did.

    examples:
      pekit test
      pekit test --filter login --report junit:report.xml tests/
      pekit test --jobs 4 --var BASE=http://127.0.0.1:8080 scripts/examples/
      pekit test --secret TOKEN="$API_TOKEN" --report junit:report.xml

    exit status: 0 when every test passes, 1 when one fails, 2 on a usage error or a file
    that does not load.
    """,
    run: runTests
)

/// `pekit test`'s options, in the order its help shows them.
enum TestOptionRows {
    static let filter = Option("filter", value: "PATTERN", "run only the tests whose name contains the Lua pattern PATTERN")
    static let jobs = Option("jobs", short: "j", value: "N", "run N files at once (each file's output is kept together; default 1)")
    static let failFast = Option("fail-fast", "stop at the first failure (files not started are not run)")
    static let repeatCount = Option("repeat", value: "N", "run every test N times, each iteration reported on its own")
    static let maxTime = Option("max-time", value: "S", """
        fail a test that runs more than S seconds (its before_each hooks and body;
        its after_each hooks get S more); 0: no limit (default 300)
        """)
    static let timeout = RequestOptions.sendFlag("timeout", help: """
        give a send that names no timeout of its own S seconds; 0: none (default 30)
        """)
    static let httpEnvironment = Option("env", value: "NAME", """
        for .http files: the environment NAME of http-client.env.json (and
        http-client.private.env.json over it) beside each file
        """)
    static let postmanEnvironment = Option("environment", value: "FILE", """
        for Postman collections: the environment FILE (Postman's export) whose
        enabled values are variables, over the collection's own
        """)
    static let postmanGlobals = Option("globals", value: "FILE", """
        for Postman collections: the globals FILE (Postman's export), under the
        collection's variables and the environment
        """)
    static let envFile = Option("env-file", value: "FILE", "read pekit.vars from FILE: NAME=VALUE lines, as dotenv reads them")
    static let variablesFile = Option("variables-file", value: "FILE", """
        Hurl's --variables-file: NAME=VALUE lines into pekit.vars, typed in a .hurl file as
        Hurl types them ("…" a string); repeat for more, a later file wins, --var over all
        """)
    static let hurlOption = Option("hurl-option", value: "NAME[=VALUE]", """
        for .hurl files: an [Options] line every entry has first, as Hurl's command-line
        options give them (location, max-redirs=5, header=X-A: 1, user=u:p, retry=3,
        compressed, netrc-file=F, delay=100ms…), or Hurl's cookie=FILE, from-entry=N,
        to-entry=N, ignore-asserts, user-agent=UA; NAME alone is NAME=true; repeat for more
        """)
    static let report = Option("report", value: "KIND[:FILE]", """
        also write a report: tap (TAP 13, to standard output), junit:FILE,
        json:FILE, html:DIR (one page, DIR/index.html, every test's exchange),
        or github (workflow annotations, to standard output); repeat for more. With a report on standard output, the test output goes
        to standard error
        """)
    static let har = Option("har", value: "FILE", """
        write every exchange of the run to FILE as HAR 1.2 (sanitized as pekit run
        --har writes it), each entry's comment naming its file and test
        """)
    static let all: [Option] = [filter, jobs, failFast, repeatCount, maxTime, timeout, RequestOptions.connect, VarOptions.variable, envFile, variablesFile, httpEnvironment, hurlOption, postmanEnvironment, postmanGlobals] + SecretOptions.rows + [report, har, .plugins, .help]
}

private func runTests(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try testCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(testCommand.help); return 0 }
    var options = TestOptions()
    options.filter = parsed.value(TestOptionRows.filter)
    if let filter = options.filter, !TestRunner.isValidPattern(filter) {
        throw UsageError(command: "test", message: "--filter: '\(filter)' is not a Lua pattern")
    }
    options.failFast = parsed.has(TestOptionRows.failFast)
    options.curlRequest = { command in
        do { return try requestFromCurl(command).raw() } catch let failure as CommandFailure {
            throw CommandFailure(message: failure.message.hasPrefix("pekit import: ") ? String(failure.message.dropFirst(14)) : failure.message)
        }
    }
    func count(_ option: Option, _ range: ClosedRange<Int>) throws -> Int? {
        guard let text = parsed.value(option) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError(command: "test", message: "--\(option.name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }
    options.iterations = try count(TestOptionRows.repeatCount, 1...10_000) ?? 1
    func seconds(_ option: Option, default value: Double) throws -> Double? {
        guard let text = parsed.value(option) else { return value }
        guard let s = Double(text), s.isFinite, s >= 0, s <= 1e9 else {
            throw UsageError(command: "test", message: "--\(option.name) takes seconds (a number, 0 for no limit), not '\(text)'")
        }
        return s == 0 ? nil : s
    }
    options.maxTime = try seconds(TestOptionRows.maxTime, default: TestOptions.defaultMaxTime)
    // Every send of the run to other addresses (a suite written for example.com run against a
    // local server), names kept for Host, TLS and cookies.
    options.connect = try parsed.all(RequestOptions.connect).map { try connectMapping($0, command: "test") }
    options.requestTimeout = try seconds(TestOptionRows.timeout, default: TestOptions.defaultRequestTimeout)
    let jobs = try count(TestOptionRows.jobs, 1...256) ?? 1
    let (vars, secrets) = try VarOptions.read(parsed, envFile: TestOptionRows.envFile, command: "test")
    // Hurl's variables files first, each later one over it, then --env-file and --var over them.
    var merged: [(name: String, value: String)] = []
    for path in parsed.all(TestOptionRows.variablesFile) {
        guard let bytes = path == "-" ? try readAllInput() : Files.read(path) else {
            throw UsageError(command: "test", message: "--variables-file: cannot read \(path) (\(FilePaths.exists(path) ? "permission denied or not a file" : "no such file"))")
        }
        do { merged += try HurlVariables.parse(bytes) } catch let error as HurlVariables.ParseError {
            throw UsageError(command: "test", message: "--variables-file: \(path):\(error.line): \(error.reason)")
        }
    }
    for (name, value) in merged + vars {
        options.vars.removeAll { $0.name == name }
        options.vars.append((name, value))
    }
    // A .hurl file's entries read these as [Options] lines of their own (hurl.lua).
    let hurlOptions = parsed.all(TestOptionRows.hurlOption).map { $0.contains("=") ? $0 : $0 + "=true" }
    if !hurlOptions.isEmpty { options.vars.append(("hurl-options", hurlOptions.joined(separator: "\n"))) }
    // A .http file's environment is read beside it, by the name this var gives (http_file.lua).
    if let environment = parsed.value(TestOptionRows.httpEnvironment) { options.vars.append(("http-client-env", environment)) }
    // A Postman collection's environment and globals are read by postman.lua, when first used.
    for (option, name) in [(TestOptionRows.postmanEnvironment, "postman-environment"), (TestOptionRows.postmanGlobals, "postman-globals")] {
        guard let path = parsed.value(option) else { continue }
        guard FilePaths.exists(path) else { throw UsageError(command: "test", message: "--\(option.name): \(path): no such file") }
        options.vars.append((name, path))
    }
    let redactor = Redactor(secrets: secrets)
    var harPath: String?
    let reports = try parsed.all(TestOptionRows.report).map { try TestReport.Kind(parsing: $0) }
    // A report's directories are made before the run (`--report junit:reports/sub/junit.xml`),
    // so that a run is never lost at its end for want of them, and a directory that cannot be
    // made is said before any test runs.
    try TestReport.makeDirectories(for: reports.compactMap(\.path) + [parsed.value(TestOptionRows.har)].compactMap({ $0 }), command: "test")
    // The HTML page shows every test's exchange, not only a failure's.
    options.recordsEveryExchange = reports.contains { if case .html = $0 { return true }; return false }
    let paths = parsed.positionals.isEmpty ? ["tests"] : parsed.positionals
    let files = try TestFiles.find(paths)
    let directories = parsed.all(.plugins)
    let reportsOnStdout = reports.contains { $0.isOnStandardOutput }
    let human = reportsOnStdout ? Output.stderr : Output.stdout

    let started = UnixTime.monotonic()
    let progress = isatty(STDERR_FILENO) != 0 && !reportsOnStdout ? ProgressLine() : nil
    // From here on, what reaches standard output and error is redacted.
    let redacted = redactor.isEmpty ? nil : RedactedOutput(redactor)
    defer { redacted?.finish() }
    if let path = parsed.value(TestOptionRows.har) { options.har = HARLog(secrets: false) ; harPath = path }
    let results = TestScheduler.run(files: files, jobs: jobs, options: options, directories: directories) { done, total, shown in
        progress?.finish()
        for result in shown { human.write(TestText.render(result)) }
        if done < total { progress?.show(text: "\(done)/\(total) files  running…") }
    }
    progress?.finish()
    let summary = TestSummary(results, seconds: UnixTime.monotonic() - started)
    human.line(summary.line)
    for report in reports { try report.write(results, summary, redactor) }
    if let log = options.har, let path = harPath { try Files.writeAtomically(log.json(redactedBy: redactor), to: path, mode: 0o600) }
    return summary.exitStatus
}
