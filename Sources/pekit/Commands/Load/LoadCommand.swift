import Foundation
import PekitCore
import PekitHTTP
import PekitLua
import PekitTools

let loadCommand = Command(
    name: "load",
    summary: "send load at a URL or from a Lua script, with latency percentiles that correct for coordinated omission",
    synopsis: """
    usage: pekit load URL [-X M] [-H 'K: V']... [--data D | --json D] [load options]
           pekit load SCRIPT.lua [load options] [-- ARGS...]

    Sends requests over kept-alive connections and reports requests a second, errors, and the
    latency at p50 … p99.999 from an HdrHistogram (every answer counted, 3 significant digits).
    Closed model (the default): --connections requests in flight, each sent when the one before
    it was answered, as wrk and hey do. Open model (--rate): requests start on a fixed schedule
    whatever the answers, as wrk2 and vegeta do, and each latency is also recorded from when the
    schedule meant the request to start: the "corrected" row, which counts the time a stalled
    server made users wait (coordinated omission).
    A script sets the global `request` (a URL, a table of request fields as pekit.http.get takes
    them, or a function(n) returning one; nil ends the run) or `scenario` (a list of steps each
    virtual user sends in turn, each once the one before was answered: a request, or a
    function(user, previous) of the user's own table and the answer before), and may set
    `check(response)` (false, a message or an error counts the answer as an error; without it,
    a status of 400 or more is).
    """,
    sections: { [HelpSection("options:", LoadOptions.all)] },
    epilogue: """
    examples:
      pekit load http://127.0.0.1:8080/ --connections 50 --duration 10s
      pekit load http://127.0.0.1:8080/api --rate 2000/s --duration 30s --threshold 'p99<50ms'
      pekit load script.lua --requests 10000 --output json > run.json
      pekit load http://127.0.0.1:8080/ --duration 10s --compare run.json

    exit status: 0 when the run ended and every --threshold holds; 99 when a threshold does not
    (as k6); 1 when the run could not be made; 2 on a usage error. Ctrl-C ends the run early
    and reports what was measured.
    """,
    run: runLoad
)

/// `pekit load`'s options, in the order its help shows them.
enum LoadOptions {
    static let connections = Option("connections", short: "c", value: "N", "requests in flight at most, each on its own kept-alive connection (default 10)")
    static let rate = Option("rate", value: "R", """
        the open model: R requests a second on a fixed schedule (R, R/s, R/m,
        R/h), at most --connections in flight
        """)
    static let duration = Option("duration", short: "z", value: "D", "how long to send (10s, 500ms, 2m; default 10s unless --requests)")
    static let requests = Option("requests", short: "n", value: "N", "send N requests (with --duration: whichever comes first)")
    static let warmup = Option("warmup", value: "D", "send for D first without recording (connections opened, caches warm)")
    static let timeout = RequestOptions.sendFlag("timeout", help: "a request unanswered after S (30s, 500ms; default 30s) is an error, `timeout`")
    static let method = Option("method", short: "X", value: "M", "the method (default GET; POST with --data or --json)")
    static let header = Option("header", short: "H", value: "'K: V'", "a header field (repeat)")
    static let data = Option("data", value: "D", "the body, as given (@FILE: the file's bytes), application/x-www-form-urlencoded")
    static let json = Option("json", value: "D", "the body, as given (@FILE: the file's bytes), application/json")
    static let threshold = Option("threshold", value: "EXPR", """
        a rule the run must meet, as k6's thresholds: p99<200ms, p50<=20,
        max<2s, mean<10ms, errors<0.1%, errors==0, rps>1000 (repeat);
        latencies are the corrected ones in the open model
        """)
    static let output = Option("output", short: "o", value: "FORMAT", """
        what standard output gets: text (the default), json (everything
        measured; what --compare reads), hgrm (HdrHistogram's percentile
        distribution, which its plotter reads), csv (the same as CSV), hlog
        (HdrHistogram's log: a histogram a second, which its tools merge)
        """)
    static let compare = Option("compare", value: "RUN.json", "show this run beside an earlier one (its --output json)")
    static let report = Option("report", value: "KIND", """
        also write html:FILE (a page with the percentile plot, requests and
        errors each second, the summary); or the thresholds as pekit test
        reports tests: junit:FILE, json:FILE, tap, github (repeat)
        """)
    static let progress = Option("progress", "show the run going on, on standard error (the default on a terminal)")
    static let noProgress = Option("no-progress", "never show it")
    static let location = Option("location", short: "L", "follow redirects (by default a redirect is the answer measured, as wrk counts it)")
    static let insecure = RequestOptions.insecure
    static let all: [Option] = [connections, rate, duration, requests, warmup, timeout, method, header, data, json, location, threshold, output, compare, report,
                                progress, noProgress, insecure, .plugins, .help]
}

private func runLoad(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try loadCommand.parse(args, stopAtFirstPositional: false)
    if parsed.has(.help) { Output.stdout.line(loadCommand.help); return 0 }
    guard let target = parsed.positionals.first else { throw UsageError(command: "load", message: "give a URL or a Lua script") }
    func usage(_ message: String) -> UsageError { UsageError(command: "load", message: message) }
    func duration(_ option: Option) throws -> Double? {
        guard let text = parsed.value(option) else { return nil }
        guard let seconds = LoadQuantity.seconds(text) else { throw usage("--\(option.name) takes a duration (10s, 500ms, 2m, 1h), not '\(text)'") }
        return seconds
    }
    var plan = LoadPlan(duration: nil)
    if let text = parsed.value(LoadOptions.connections) {
        guard let n = Int(text) else { throw usage("--connections takes a whole number from 1 to 10000, not '\(text)'") }
        plan.connections = n
    }
    if let text = parsed.value(LoadOptions.rate) {
        guard let r = LoadQuantity.perSecond(text) else { throw usage("--rate takes requests a second (100, 100/s, 6000/m), not '\(text)'") }
        plan.rate = r
    }
    plan.duration = try duration(LoadOptions.duration)
    if let text = parsed.value(LoadOptions.requests) {
        guard let n = Int(text) else { throw usage("--requests takes a whole number, not '\(text)'") }
        plan.requests = n
    }
    if plan.duration == nil && plan.requests == nil { plan.duration = 10 }
    plan.warmup = try duration(LoadOptions.warmup) ?? 0
    plan.timeout = try duration(LoadOptions.timeout) ?? 30
    do { try plan.validate() } catch let invalid as LoadPlan.Invalid { throw usage(invalid.description) }
    let thresholds = try parsed.all(LoadOptions.threshold).map(LoadThreshold.init)
    let format = parsed.value(LoadOptions.output) ?? "text"
    guard ["text", "json", "hgrm", "csv", "hlog"].contains(format) else { throw usage("--output takes text, json, hgrm, csv or hlog, not '\(format)'") }
    var reports: [(html: String?, kind: TestReport.Kind?)] = []
    for text in parsed.all(LoadOptions.report) {
        if text.hasPrefix("html:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw usage("--report html needs a file: --report html:FILE") }
            reports.append((path, nil))
        } else {
            do { reports.append((nil, try TestReport.Kind(parsing: text))) } catch {
                throw usage("--report takes html:FILE, junit:FILE, json:FILE, tap or github, not '\(text)'")
            }
        }
    }
    try TestReport.makeDirectories(for: reports.compactMap { $0.html ?? $0.kind?.path }, command: "load")
    var earlier: (PekitValue, String)?
    if let path = parsed.value(LoadOptions.compare) {
        guard let bytes = Files.read(path) else { throw CommandFailure(message: "pekit load: --compare \(path): cannot read the file") }
        do { earlier = (try JSONText.parse(bytes), path) } catch { throw CommandFailure(message: "pekit load: --compare \(path): \(error)") }
    }

    let isScript = target.hasSuffix(".lua") && !target.contains("://")
    let runner: LoadRunner
    if isScript {
        if parsed.has(LoadOptions.method) || parsed.has(LoadOptions.header) || parsed.has(LoadOptions.data) || parsed.has(LoadOptions.json) || parsed.has(LoadOptions.location) {
            throw usage("-X, -H, --data, --json and -L are for a URL; a script sets its own request")
        }
        let runtime = try makeRuntime(extraPluginDirectories: parsed.all(.plugins))
        do {
            try runtime.runScript(path: target, arguments: Array(parsed.positionals.dropFirst()), interpreter: ["pekit", "load"])
            runner = try HTTPModule.loadRunner(plan: plan, globalsOf: runtime, naming: .commandLine)
        } catch let error as LuaError {
            throw CommandFailure(message: "pekit load: \(error.message)" + (error.traceback.isEmpty ? "" : "\n" + error.traceback))
        } catch {
            throw CommandFailure(message: "pekit load: \(target): \(error)")
        }
    } else {
        guard parsed.positionals.count == 1 else { throw usage("give one URL (several: a script whose request function picks each)") }
        let (request, options) = try loadRequest(parsed, url: target)
        runner = LoadRunner(plan: plan, request: request, options: options, naming: .commandLine)
    }

    let line = parsed.has(LoadOptions.noProgress) || !(parsed.has(LoadOptions.progress) || isatty(STDERR_FILENO) != 0) ? nil : ProgressLine()
    let result: LoadResult
    do {
        result = try LuaRuntime.catchingInterrupts { interrupted in
            try runner.run(progress: line.map { line in { p in line.show(text: progressText(p, plan)) } }, stop: interrupted)
        }
    } catch let error as LuaError {
        line?.finish()
        throw CommandFailure(message: "pekit load: \(error.message)")
    } catch let invalid as LoadPlan.Invalid {
        throw usage(invalid.description)
    } catch {
        line?.finish()
        throw CommandFailure(message: "pekit load: \(error)")
    }
    line?.finish()
    let report = LoadReport(target: target, result: result, thresholds: thresholds)
    switch format {
    case "json":
        Output.stdout.write(JSONText.write(report.json))
        Output.stdout.line("")
    case "hgrm": Output.stdout.write(LoadReport.distribution(result.corrected ?? result.latency, csv: false))
    case "csv": Output.stdout.write(LoadReport.distribution(result.corrected ?? result.latency, csv: true))
    case "hlog": Output.stdout.write(report.log)
    default:
        Output.stdout.write(report.text)
    }
    if let (value, name) = earlier {
        let text = try report.compared(with: value, name: name)
        if format == "text" { Output.stdout.write("\n" + text) } else { Output.stderr.write(text) }
    }
    for (html, kind) in reports {
        do {
            if let html {
                try Files.writeAtomically(Array(LoadHTMLReport.page(report).utf8), to: html, mode: 0o644)
            } else if let kind {
                // The thresholds as tests of one file named for the target: CI shows them as it shows tests.
                var file = TestFileResult(path: target)
                file.seconds = result.seconds
                file.outcomes = thresholds.map { t in
                    TestOutcome(name: t.text, status: t.holds(for: result) ? .passed : .failed, seconds: result.seconds,
                                message: t.holds(for: result) ? nil : "\(t.text): the run's value is \(t.shown(result))")
                }
                try kind.write([file], TestSummary([file], seconds: result.seconds), Redactor(secrets: []))
            }
        } catch {
            throw CommandFailure(message: "pekit load: --report: \(error)")
        }
    }
    return thresholds.allSatisfy { $0.holds(for: result) } ? 0 : 99
}

/// The request a URL and -X, -H, --data, --json describe, and its send options.
private func loadRequest(_ parsed: Arguments, url: String) throws -> (PekitRequest, SendOptions) {
    var builder = RequestBuilder(url: url)
    for text in parsed.all(LoadOptions.header) {
        do { builder.headers.append(try RequestBuilder.Header(line: text)) } catch {
            throw UsageError(command: "load", message: "-H '\(text)': \(error)")
        }
    }
    func body(_ text: String) throws -> [UInt8] {
        guard text.hasPrefix("@") else { return Array(text.utf8) }
        let path = String(text.dropFirst())
        guard let bytes = Files.read(path) else { throw CommandFailure(message: "pekit load: \(path): cannot read the file") }
        return bytes
    }
    if let data = parsed.value(LoadOptions.data) {
        builder.body = .bytes(try body(data), contentType: "application/x-www-form-urlencoded")
    } else if let json = parsed.value(LoadOptions.json) {
        builder.body = .bytes(try body(json), contentType: "application/json")
    }
    builder.method = .init(parsed.value(LoadOptions.method) ?? (builder.body.isNone ? "GET" : "POST"))
    let request: PekitRequest
    do { request = try builder.build() } catch { throw CommandFailure(message: "pekit load: \(error)") }
    var options = SendOptions()
    options.insecure = parsed.has(LoadOptions.insecure)
    // A redirect is an answer, as wrk and curl count it; -L follows it.
    options.followRedirects = parsed.has(LoadOptions.location)
    return (request, options)
}

/// The progress line: time, requests, the last second's rate, p50 and p99 so far, errors.
private func progressText(_ p: LoadRunner.Progress, _ plan: LoadPlan) -> String {
    if p.warmingUp { return "warming up  \(ProgressLine.time(p.elapsed))" }
    var text = "\(ProgressLine.time(p.elapsed))  \(p.requests) requests  \(LoadQuantity.fixed(p.recentRate, 0))/s"
    text += "  p50 \(LoadQuantity.micros(p.p50))  p99 \(LoadQuantity.micros(p.p99))  errors \(p.errors)"
    text += "  \(Int(p.done * 100))%"
    return text
}
