import Foundation
import PekitCore
import PekitCrypto
import PekitHTTP

let requestCommand = Command(
    name: "request",
    summary: "build an HTTP request; print it raw, as a curl command or as JSON, or send it",
    synopsis: """
    usage: pekit request [-X M] [--policy P] [--param k=v]... [--params-in query|body] [--json DATA]
                         [-F name=value|name=@file]... [--body-file PATH] [-H 'K: V']...
                         [-u USER:PASSWORD] [--aws-sigv4 aws:amz:REGION:SERVICE -u KEY:SECRET]
                         [--jar FILE [--force]] [--filter NAME[:OPTIONS]]... [--base URL]
                         [--connect NAME:PORT=ADDRESS:PORT]... [--request-target TARGET]
                         [-d DATA | --data-raw D | --data-binary D | --data-urlencode D]... [-G]
                         [-A AGENT] [-e REFERER] [--connect-to H1:P1:H2:P2] [--resolve H:P:ADDR]
                         [--raw | --curl | --describe | --send [send options]] URL
           pekit request [send options] [-Z [--parallel-max N]] [--rate R] URL... (several, as curl)

    Builds the request the way AFNetworking's serializer does, done right: --param values go into
    the query for GET, HEAD and DELETE and into a form body otherwise (--params-in query|body to
    force), encoded with the policy. Prints the exact HTTP/1.1 message (--raw, the default), one
    shell-safe curl command that sends the same bytes (--curl), or a JSON description (--describe).
    An option that only sending has (-i, -o, -I, -f, -L, -m, -v, …) sends, as the same curl command
    would; with --raw, --curl or --describe it is an error. Short flags bundle and take attached
    values, as curl's do (-XPOST, -sSL, -H'X: 1').
    """,
    sections: { RequestOptions.sections },
    epilogue: """
    examples:
      pekit request --policy afnetworking --param 'tags[]=a b' https://api.example.com/items
      pekit request -X POST --param q=1 --curl https://api.example.com/search
      pekit request --send -i --jar jar.txt https://example.com/
    """,
    run: runRequest
)

func runRequest(_ args: [[UInt8]]) throws -> Int32 {
    // curl's -K FILE read in its place, and its --next: one request a group, in turn.
    let groups = try requestGroups(args)
    return groups.count == 1 ? try runRequest(groups[0], built: nil) : try runInTurn(groups)
}

/// What `pekit import curl` does with the request a command line builds, instead of printing
/// or sending it.
typealias BuiltRequestHandler = (PekitRequest, RequestBuilder, Arguments) throws -> Int32

func runRequest(_ args: [[UInt8]], built handler: BuiltRequestHandler?) throws -> Int32 {
    // Long options by any unambiguous start, as curl reads them (a pasted `--sil`).
    // curl 8's --variable and --expand-OPTION first: the options as they then read.
    let parsed = try requestCommand.parse(try CurlVariables.applied(to: args, options: RequestOptions.all), prefixes: true)
    if parsed.has(.help) { Output.stdout.line(requestCommand.help); return 0 }
    QuietTransfers.on = parsed.has(RequestOptions.silent) && !parsed.has(RequestOptions.showError)
    // --stderr FILE: what goes to standard error goes to FILE (- : standard output), as curl.
    if let path = parsed.value(RequestOptions.stderrFile), try isSending(parsed) {
        let fd = path == "-" ? STDOUT_FILENO : open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CommandFailure(message: "pekit request: --stderr: cannot write \(printable(path))", status: 23) }
        Output.stderr.flush()
        dup2(fd, STDERR_FILENO)
        if fd != STDOUT_FILENO { close(fd) }
    }
    // curl's --url URL is the same as the URL given alone.
    let urls = parsed.positionals + parsed.all(RequestOptions.url)
    guard var url = urls.first else { throw UsageError(command: "request", message: "give a URL") }
    var globbedOutput: OutputChoice?
    try parsed.requireTextPaths(command: "request", options: [RequestOptions.jar, RequestOptions.bodyFile, RequestOptions.output, RequestOptions.file,
                                                               RequestOptions.cacert, RequestOptions.cookieJar, RequestOptions.dumpHeader])
    if let format = parsed.value(RequestOptions.writeOut), !format.hasPrefix("@") { _ = try WriteOut.parse(format) }
    // As curl (its test 360): the two say different things of a failed status.
    if parsed.has(RequestOptions.fail) && parsed.has(RequestOptions.failWithBody) {
        throw UsageError(command: "request", message: "give either --fail or --fail-with-body, not both")
    }
    // -D FILE that cannot be created: nothing is sent, as newer curl refuses before the transfer
    // (exit 23, "Failed to open"; its test 419). curl 7.88 itself crashes here.
    if let path = parsed.value(RequestOptions.dumpHeader), path != "-", try isSending(parsed) {
        if let why = OutputFileRules.uncreatable(path) {
            throw CommandFailure(message: "pekit request: -D \(printable(path)): cannot create the file (\(why)); nothing was sent", status: 23)
        }
    }
    // Each URL's globs (curl's {a,b} and [1-5]) make several: each with its -o name's #N read.
    if handler == nil, !parsed.has(RequestOptions.globoff) {
        let outputs = try outputChoices(parsed, urls: urls.count)
        var targets: [Target] = []
        for (n, given) in urls.enumerated() {
            for expansion in try CurlGlob.expand(given) {
                var output = n < outputs.count ? outputs[n] : .standardOutput
                if case .file(let name) = output { output = .file(CurlGlob.outputName(name, values: expansion.values)) }
                targets.append(Target(url: expansion.url, output: output, index: n))
            }
        }
        if targets.count > 1 || parsed.has(RequestOptions.parallel) { return try runSeveral(parsed, targets: targets, handler) }
        if let only = targets.first { url = only.url; globbedOutput = only.output }
    } else if urls.count > 1 || parsed.has(RequestOptions.parallel) {
        let outputs = try outputChoices(parsed, urls: urls.count)
        return try runSeveral(parsed, targets: urls.enumerated().map { Target(url: $1, output: $0 < outputs.count ? outputs[$0] : .standardOutput, index: $0) }, handler)
    }
    // Sending with a jar file is a read-change-write of it: under its lock, so that requests
    // sharing a jar at once merge their cookies (they run one after another) instead of each
    // writing back what it read.
    let output = try globbedOutput ?? outputChoices(parsed, urls: 1).first ?? .standardOutput
    if let jarPath = parsed.value(RequestOptions.jar), try isSending(parsed) {
        do { return try Files.withLock(jarPath) { try buildAndRun(parsed, url: url, output: output, handler) } } catch let error as CookieError {
            throw CommandFailure(message: "pekit request: \(error)")
        }
    }
    return try buildAndRun(parsed, url: url, output: output, handler)
}

/// The heads -D FILE gets from several transfers, in the order given.
final class HeadDump {
    var bytes: [UInt8] = []
}

/// Each -o FILE and -O, in the order given (curl pairs them with the URLs in order).
func outputChoices(_ parsed: Arguments, urls: Int) throws -> [OutputChoice] {
    var outputs: [OutputChoice] = []
    for (name, value) in parsed.values {
        if name == "output", let value { outputs.append(.file(value)) } else if name == "remote-name" { outputs.append(.remoteName) }
    }
    // --remote-name-all (unless a later --no-remote-name): -O for each URL beyond the -o/-O given.
    if parsed.last(of: [RequestOptions.remoteNameAll, RequestOptions.noRemoteName])?.name == RequestOptions.remoteNameAll.name {
        while outputs.count < urls { outputs.append(.remoteName) }
    }
    if outputs.count > urls {
        // As curl: the extra ones are not used, and a warning says so unless -s (its test 26).
        let extra = outputs.count - urls
        if !parsed.has(RequestOptions.silent) || parsed.has(RequestOptions.showError) {
            Output.stderr.line("pekit request: warning: \(outputs.count) -o/-O for \(urls) URL\(urls == 1 ? "" : "s"): the last \(extra) \(extra == 1 ? "is" : "are") not used (each pairs with one URL, in order)")
        }
        outputs.removeLast(extra)
    }
    return outputs
}

/// One transfer of several: its URL, where its answer goes, and the number of the URL given it
/// came from (a glob makes several of one; -T files pair with the given URLs).
struct Target {
    var url: String
    var output: OutputChoice
    var index: Int
}

/// Several URLs, as curl takes them: the same options for each; -o FILE and -O pair with the
/// URLs in order (a URL without one writes to standard output); one after another, or with
/// -Z/--parallel up to --parallel-max at once (50), answers shown in the order given. --rate
/// spaces their starts. A failure is reported and the rest still go; the exit status is the
/// last transfer's, as curl's.
func runSeveral(_ parsed: Arguments, targets: [Target], _ handler: BuiltRequestHandler?) throws -> Int32 {
    let urls = targets.map(\.url)
    if handler != nil { throw UsageError(command: "request", message: "give one URL") }
    guard try isSending(parsed) else {
        throw UsageError(command: "request", message: "several URLs are for sending (--send, or a sending option): --raw, --curl and --describe show one request")
    }
    // These files are written whole once per command, and --jar is one read-change-write: with
    // several transfers they would keep only the last one's. (-c is the command's one cookie
    // engine written out, every cookie so far, after each transfer: the last write has them all,
    // as curl's one write at the end.)
    for option in parsed.given([RequestOptions.har, RequestOptions.traceAscii, RequestOptions.jar]) {
        throw UsageError(command: "request", message: "--\(option.name) takes one URL (for several, a script: pekit run, with pekit.http.all and a jar)")
    }
    let rate = try parsed.value(RequestOptions.rate).map { text -> RateLimiter in
        do { return try RateLimiter(text, acrossHosts: true) } catch {
            throw UsageError(command: "request", message: "--rate: \(error)")
        }
    }
    var limit = 50
    if let text = parsed.value(RequestOptions.parallelMax) {
        guard let n = Int(text), (1...300).contains(n) else { throw UsageError(command: "request", message: "--parallel-max takes a count from 1 to 300, not '\(text)'") }
        limit = n
    }
    var status: Int32 = 0
    // As curl: the exit status is the last transfer's.
    var stopped = false
    func report(_ url: String, _ body: () throws -> Int32) {
        // --fail-early: nothing more after the first failure.
        if stopped { return }
        defer { if parsed.has(RequestOptions.failEarly) && status != 0 { stopped = true } }
        do {
            status = try body()
        } catch let error as UsageError {
            Output.stderr.line("pekit request: \(printable(url)): \(error.message)")
            status = 2
        } catch let error as CommandFailure {
            if !error.isQuiet { Output.stderr.line(error.message) }
            status = error.status
        } catch {
            Output.stderr.line("pekit request: \(printable(url)): \(error)")
            status = 1
        }
    }
    let choices = targets.map(\.output)
    // -D FILE: every transfer's head, in the order given, written once at the end (as curl fills it).
    let heads = parsed.value(RequestOptions.dumpHeader).flatMap { $0 == "-" ? nil : HeadDump() }
    func finished() -> Int32 {
        if let heads, let path = parsed.value(RequestOptions.dumpHeader) {
            do { try Files.writeAtomically(heads.bytes, to: path, mode: 0o644) } catch {
                Output.stderr.line("pekit request: -D \(printable(path)): \(error)")
                status = 1
            }
        }
        return status
    }
    // One cookie engine for the command, as curl's: what one URL's answer sets, the next sends.
    var sharedJar: CookieJar?
    if !parsed.has(RequestOptions.parallel) {
        let client = try CommandClient.shared()
        for (number, (url, output)) in zip(urls, choices).enumerated() {
            report(url) {
                try buildAndRun(parsed, url: url, urlIndex: targets[number].index, output: output, sharedJar: sharedJar) { request, builder, _ in
                    sharedJar = builder.jar
                    let delivery = try Delivery(request, builder: builder, parsed, output: output, alone: true, heads: heads, rate: rate, urlnum: number)
                    return try delivery.finish(Result { try client.sendBlocking(request, options: delivery.options) })
                }
            }
        }
        return finished()
    }
    // -Z: every request built first (a usage error stops the command before anything is sent).
    var deliveries: [Delivery] = []
    for (number, (url, output)) in zip(urls, choices).enumerated() {
        _ = try buildAndRun(parsed, url: url, urlIndex: targets[number].index, output: output, sharedJar: sharedJar) { request, builder, _ in
            sharedJar = builder.jar
            deliveries.append(try Delivery(request, builder: builder, parsed, output: output, alone: false, heads: heads, rate: rate, urlnum: number))
            return 0
        }
    }
    // Done, failed and in flight on standard error, as `har replay` shows a batch (a terminal's
    // default unless -s; --progress always, --no-progress never).
    let showProgress = (parsed.has(RequestOptions.progress) || (isatty(STDERR_FILENO) != 0 && !parsed.has(RequestOptions.silent))) && !RequestOptions.hidesProgress(parsed)
    let progress = showProgress ? ProgressLine() : nil
    var succeeded = 0, failed = 0
    let started = PekitClient.now()
    let results = try CommandClient.shared().sendAllBlocking(deliveries.map { ($0.request, $0.options) }, concurrency: limit) { _, result in
        if case .failure = result { failed += 1 } else { succeeded += 1 }
        progress?.update(done: succeeded + failed, failed: failed, inFlight: min(limit, deliveries.count - succeeded - failed),
                         total: deliveries.count, elapsed: PekitClient.now() - started)
    }
    progress?.finish()
    for (i, result) in results.enumerated() {
        report(urls[i]) {
            do { return try deliveries[i].finish(result) } catch let error as HTTPError {
                throw CommandFailure(message: "pekit request: \(error.message(.commandLine))", status: error.curlExitStatus, isTransfer: true)
            }
        }
    }
    return finished()
}

