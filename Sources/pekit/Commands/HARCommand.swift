import Foundation
import PekitCore
import PekitHTTP

let harCommand = Command(
    name: "har",
    summary: "list or replay the requests of a HAR file (browsers' and proxies' exports)",
    synopsis: """
    usage: pekit har list FILE
           pekit har replay FILE [--filter PATTERN] [--compare body,headers] [--concurrency N]
                            [--connect N:P=A:Q]... [-k] [--cacert FILE] [--progress | --no-progress]

    Reads an HTTP Archive (HAR 1.2) as Chrome, Firefox, Safari and proxies export it.
      list     one line per entry: its number, method, URL and the status recorded
      replay   sends each request again (method, URL, recorded headers and body; pekit adds
               only Host and Content-Length), and prints each status next to the recorded
               one, in the file's order (with --compare, the body and header fields too, each
               difference on a line of its own under its entry's; a body is decoded where the
               recorded request asked for codings); the exit status is 1 if any differs or fails
    """,
    sections: { [HelpSection("options:", HAROptions.all)] },
    epilogue: """
    examples:
      pekit har list session.har
      pekit har replay session.har --filter /api/
      pekit har replay session.har --concurrency 20
    """,
    run: runHAR
)

/// `pekit har`'s options, in the order its help shows them.
enum HAROptions {
    static let filter = Option("filter", value: "PATTERN", "only the entries whose URL contains PATTERN")
    static let compare = Option("compare", value: "WHAT", """
        body, headers or body,headers: also compare the body (bytes, or the same
        JSON value) and the header fields with the recorded response (Date, Age,
        Set-Cookie, request ids and the framing fields are left out)
        """)
    static let color = Option.color("colour the status column: auto (on a terminal), always or never")
    static let concurrency = Option("concurrency", value: "N", "send up to N at once (default 1: one after another, in order)")
    static let progress = Option("progress", """
        show done, failed and in flight on standard error (the default when it
        is a terminal and N > 1)
        """)
    static let noProgress = Option("no-progress", "never show them")
    static let connect = Option("connect", value: "N:P=A:Q", "send requests for host N port P to address A port Q (repeat)")
    // The send options' own rows (declared once, in SendOptions.fields).
    static let insecure = RequestOptions.insecure
    static let cacert = RequestOptions.cacert
    static let all: [Option] = [filter, compare, color, concurrency, progress, noProgress, connect, insecure, cacert, .help]
}

private func runHAR(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try harCommand.parse(args)
    let style = try Style(parsed, command: "har")
    if parsed.has(.help) { Output.stdout.line(harCommand.help); return 0 }
    guard parsed.positionals.count == 2, ["list", "replay"].contains(parsed.positionals[0]) else {
        throw UsageError(command: "har", message: "give list FILE or replay FILE")
    }
    let path = parsed.positionals[1]
    var entries = try harEntries(path, command: "har").enumerated().map { ($0.offset + 1, $0.element) }
    if let pattern = parsed.value(HAROptions.filter) { entries = entries.filter { $0.1.url.contains(pattern) } }
    if parsed.positionals[0] == "list" {
        if parsed.has(HAROptions.compare) { throw UsageError(command: "har", message: "--compare is for replay") }
        for (n, e) in entries { Output.stdout.line("\(n)\t\(printable(e.method))\t\(printable(e.url))\t\(style.status(e.status.map(String.init) ?? "-", e.status))") }
        return 0
    }
    let comparison = try parsed.value(HAROptions.compare).map(HARComparison.init)
    let connect = try parsed.all(HAROptions.connect).map { spec -> HostMapping in
        guard let eq = spec.firstIndex(of: "=") else { throw UsageError(command: "har", message: "--connect takes NAME:PORT=ADDRESS:PORT, not '\(spec)'") }
        return try HostMapping(String(spec[..<eq]), String(spec[spec.index(after: eq)...]), written: "--connect \(spec)")
    }
    var concurrency = 1
    if let text = parsed.value(HAROptions.concurrency) {
        guard let n = Int(text), (1...10_000).contains(n) else {
            throw UsageError(command: "har", message: "--concurrency takes a whole number from 1 to 10000, not '\(text)'")
        }
        concurrency = n
    }
    var options = SendOptions()
    options.connect = connect
    options.followRedirects = false  // each hop was recorded as its own entry
    options.insecure = parsed.has(HAROptions.insecure)
    options.caCertificate = parsed.value(HAROptions.cacert)
    // Built first: an entry that cannot be sent is reported in its place, and costs no request.
    var outcomes = [Result<PekitResponse, Error>?](repeating: nil, count: entries.count)
    var batch: [(PekitRequest, SendOptions)] = [], slots: [Int] = []
    for (i, (_, e)) in entries.enumerated() {
        var builder = e.builder()
        builder.connect = connect
        // Bodies are compared as the browser recorded them: decoded, where the recorded request
        // asked for codings (its own Accept-Encoding goes as recorded; none is added).
        var entryOptions = options
        entryOptions.compressed = comparison?.body == true && e.headers.contains { PekitHeaders.sameName($0.name, "Accept-Encoding") }
        do { batch.append((try builder.build(), entryOptions)); slots.append(i) } catch { outcomes[i] = .failure(error) }
    }
    let showProgress = (parsed.has(HAROptions.progress) || (concurrency > 1 && isatty(STDERR_FILENO) != 0)) && !parsed.has(HAROptions.noProgress)
    let progress = showProgress ? ProgressLine() : nil
    var succeeded = 0, failed = 0
    let started = PekitClient.now()
    let results = try PekitClient().sendAllBlocking(batch, concurrency: concurrency) { _, result in
        if case .failure = result { failed += 1 } else { succeeded += 1 }
        progress?.update(done: succeeded + failed, failed: failed, inFlight: min(concurrency, batch.count - succeeded - failed),
                         total: batch.count, elapsed: PekitClient.now() - started)
    }
    progress?.finish()
    for (slot, result) in zip(slots, results) { outcomes[slot] = result }
    var differs = false
    for ((n, e), outcome) in zip(entries, outcomes) {
        switch outcome {
        case .success(let response):
            let same = e.status == nil || e.status == response.status
            if !same { differs = true }
            Output.stdout.line("\(n)\t\(printable(e.method))\t\(printable(e.url))\t\(style.status(String(response.status), response.status))\t\(same ? "as recorded" : "recorded \(e.status ?? 0)")")
            for line in comparison?.differences(e, response) ?? [] {
                differs = true
                Output.stdout.line("\(n)\t  \(line)")
            }
        case .failure(let error):
            differs = true
            Output.stdout.line("\(n)\t\(printable(e.method))\t\(printable(e.url))\tfailed: \(printable("\(error)"))")
        case nil:
            differs = true
        }
    }
    return differs ? 1 : 0
}
