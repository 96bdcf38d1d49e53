import Foundation
import PekitCore
import PekitHTTP

/// `pekit request --send`: sends (pekit's own HTTP/1.1 transport or libcurl, as `Transport`
/// chooses) and prints what came back.
func send(_ request: PekitRequest, builder: RequestBuilder, _ parsed: Arguments, output: OutputChoice) throws -> Int32 {
    let delivery = try Delivery(request, builder: builder, parsed, output: output, alone: true)
    return try delivery.finish(Result { try CommandClient.shared().sendBlocking(request, options: delivery.options) })
}

/// Where one URL's body goes: curl pairs each -o FILE and -O with the URLs in order; a URL
/// without one writes to standard output.
enum OutputChoice: Equatable {
    case standardOutput
    case file(String)
    case remoteName
}

/// One request of `pekit request` to send: its options, and what to do with its answer (or
/// failure), so that several can be sent at once (-Z) and their answers shown in order.
struct Delivery {
    let request: PekitRequest
    let options: SendOptions
    let finish: (Result<PekitResponse, Error>) throws -> Int32

    /// - Parameter alone: the only request of the command (progress lines, trace and HAR files
    ///   are per command).
    /// - Parameter heads: where -D FILE collects the heads of several transfers (nil: written now).
    /// - Parameter rate: --rate's pace, shared by the command's transfers.
    /// - Parameter urlnum: the URL's place among the command's, from 0 (-w's %{urlnum}).
    init(_ request: PekitRequest, builder: RequestBuilder, _ parsed: Arguments, output: OutputChoice, alone: Bool,
         heads: HeadDump? = nil, rate: RateLimiter? = nil, urlnum: Int = 0) throws {
        self.request = request
        var options = SendOptions(cookiesOf: builder)
        options.rate = rate
        let noticed = CallbackState(Set<String>())
        let verboseCookies = parsed.has(RequestOptions.verbose)
        options.notice = { notice in
            // -v: each hop's cookies, sent and held back and why, and each Set-Cookie's fate.
            if case .cookies(_, let sent, let received) = notice {
                if verboseCookies { for line in sent + received { Output.stderr.line(printable("* " + line)) } }
                return
            }
            let text = notice.text(.commandLine)
            if noticed.value.insert(text).inserted { Output.stderr.line("pekit request: warning: \(text)") }
        }
        // -v says it, --har keeps it in the entries' comments.
        options.explainsCookies = verboseCookies || parsed.has(RequestOptions.har)
        // The send options the command line gives by a flag of their row (SendOptions.fields).
        for field in SendOptions.fields {
            if let value = try sendOptionValue(field, parsed) { field.set?(&options, value) }
        }
        options.hashingDigestAnswers()
        // -e 'URL;auto': each redirect's Referer is the URL it came from.
        if parsed.value(RequestOptions.referer)?.hasSuffix(";auto") == true { options.autoReferer = true }
        // -U: the proxy's credentials, in its URL (libcurl sends them as Basic, where curl does).
        if let credentials = parsed.value(RequestOptions.proxyUser), let proxy = options.proxy, !proxy.isEmpty {
            options.proxy = proxyURL(proxy, credentials: credentials)
        }
        if options.insecure { Output.stderr.line("pekit request: warning: --insecure: TLS certificates and host names are not checked") }
        // curl's --retry N (--retry-max-time S, --retry-all-errors): any method, as curl retries
        // a POST too (its test 1633: a 429 after a POST's redirect starts the POST again).
        if let text = parsed.value(RequestOptions.retry) {
            // Any count curl takes (its tests 197 and 198 use 1000): waits are capped, not tries.
            guard let n = Int(text), (0...Int(Int32.max)).contains(n) else { throw UsageError(command: "request", message: "--retry takes a whole number from 0, not '\(text)'") }
            var policy = SendRetryPolicy.curl(retries: n)
            policy.maxTimeSeconds = try seconds(RequestOptions.retryMaxTime, parsed)
            // --retry-delay S: that wait before each retry (curl 7.88 takes whole seconds only).
            if let text = parsed.value(RequestOptions.retryDelay) {
                guard let s = Int(text), s >= 0, s <= 1_000_000 else {
                    throw UsageError(command: "request", message: "--retry-delay takes whole seconds, not '\(text)' (as curl 7.88)")
                }
                policy.baseDelay = .seconds(s)
                policy.maxDelay = .seconds(s)
            }
            policy.onAnyError = parsed.has(RequestOptions.retryAllErrors)
            policy.allMethods = true
            options.retry = policy
        } else if parsed.has(RequestOptions.retryMaxTime) || parsed.has(RequestOptions.retryAllErrors) {
            throw UsageError(command: "request", message: "--retry-max-time and --retry-all-errors go with --retry N")
        }
        let verbose = parsed.has(RequestOptions.verbose)
        // -i, unless a later --no-include undoes it (curl: the last of the two wins).
        let include = parsed.last(of: [RequestOptions.include, RequestOptions.noInclude])?.name == RequestOptions.include.name || parsed.has(RequestOptions.head)
        // -i and -D write the header blocks as they came: every response's (redirects, 1xx), LF alone kept.
        options.keepsHeads = include || parsed.has(RequestOptions.dumpHeader)
        if verbose {
            options.willRetry = { attempt, cause, wait in
                Output.stderr.line(printable("* retry: attempt \(attempt) after \(cause), waiting \(String(format: "%.1f", wait.inSeconds)) s"))
            }
        }
        // With -f (not --fail-with-body) an error's body is never written, and -i and -w put
        // something before or after it: the body then waits in memory until the end.
        let failQuietly = parsed.has(RequestOptions.fail) && !parsed.has(RequestOptions.failWithBody)
        var outputPath: String? = nil
        if case .file(let path) = output { outputPath = path }
        // -J with -O: the name the answer gives (curl's -J is for -O alone).
        let headerNamed = output == .remoteName && parsed.has(RequestOptions.remoteHeaderName)
        if headerNamed && include {
            throw CommandFailure(message: "pekit request: showing headers and --remote-header-name cannot be combined (as curl says)", status: 2)
        }
        if output == .remoteName {
            // curl's -O: the URL's last path segment, in the current directory.
            let segment = (try? request.requestURL())?.path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
            let name = String(decoding: (try? PercentDecoder(mode: .lenient).decode(bytes: Array(segment.utf8))) ?? Array(segment.utf8), as: UTF8.self)
            // With -J the answer may name the file: a URL naming none fails only if it does not.
            guard (headerNamed && name.isEmpty) || (!name.isEmpty && name != "." && name != ".." && !name.contains("/")) else {
                // Before anything is sent, with curl 7.88's exit status ("Remote file name has no
                // length!", 23; its tests 690, 691, 1639, 1644).
                throw CommandFailure(message: "pekit request: -O needs a URL that ends in a file name, and \(request.url) names none (use -o FILE)", status: 23)
            }
            outputPath = name
        }
        // --output-dir: -o's and -O's file in that directory, as curl 7.88 joins them
        // (`DIR/FILE`, whatever FILE is; standard output is not a file).
        if let directory = parsed.value(RequestOptions.outputDir), !directory.isEmpty, let path = outputPath, path != "-" {
            outputPath = directory + "/" + path
        }
        if let path = outputPath, path != "-" { outputPath = try OutputFileRules.apply(path, parsed) }
        var writeOut = try parsed.value(RequestOptions.writeOut).map(WriteOut.argument)
        writeOut?.inputURL = builder.url
        // --color: a person's terminal gets JSON indented and coloured, heads coloured; a pipe
        // or a file, the bytes as they came.
        let style = outputPath == nil ? try Style(parsed, command: "request") : .plain
        let errorStyle = try Style(parsed, command: "request", fd: STDERR_FILENO)
        // -v and --trace-ascii FILE: what the sender reports, as curl shows it (the trace is written
        // whole at the end, complete or not at all).
        let trace = CallbackState([UInt8]())
        let tracePath = parsed.value(RequestOptions.traceAscii)
        if verbose || tracePath != nil {
            options.trace = { event, bytes in
                if verbose { TraceOutput.verbose(event, bytes, style: errorStyle) }
                if tracePath != nil { trace.value += TraceOutput.ascii(event, bytes) }
            }
        }
        // --har FILE: every exchange of the chain, written whole at the end (also after a failure).
        let har = parsed.value(RequestOptions.har).map { _ in HARLog(secrets: parsed.has(RequestOptions.harWithSecrets)) }
        if let har { options.record = { har.add($0, $1, started: $2) } }
        // A download to a file shows its progress when standard error is a terminal (--progress:
        // always, --no-progress: never); not for transfers running at once, whose lines would fight.
        let progressLine = alone && (parsed.has(RequestOptions.progress) || (outputPath != nil && outputPath != "-" && isatty(STDERR_FILENO) != 0)) && !RequestOptions.hidesProgress(parsed) ? ProgressLine() : nil
        if let progressLine { options.progress = { progressLine.update($0) } }
        // As curl: a body that is not text is not written to a terminal unless asked (-o -).
        let toTerminal = outputPath == nil && isatty(STDOUT_FILENO) != 0
        if outputPath == "-" { outputPath = nil }
        // Several at once write to standard output only at the end, one after another. -N
        // streams to a terminal too (each piece checked for binary bytes as it comes) and hands
        // each piece on at once.
        let noBuffer = parsed.has(RequestOptions.noBuffer) && alone
        // -C on a download: the answer is judged whole (curl's rules for a resume), then added
        // to what the file holds.
        let resume = request.body == .empty ? (try ContinueAt.offset(parsed)).map { ContinueAt.downloadOffset($0, outputPath: outputPath) } ?? 0 : 0
        // -z: an answer that does not meet the condition has its body dropped, as curl's "304".
        let condition = try TimeCondition(parsed)
        try ETagFiles.checkSave(parsed)
        let held = resume > 0 || condition != nil || failQuietly || include || writeOut != nil || (toTerminal && !noBuffer) || style.indents || (!alone && outputPath == nil)
        let named = headerNamed ? HeaderNamedFile(urlPath: outputPath ?? "", directory: parsed.value(RequestOptions.outputDir)) : nil
        if held { options.sink = .memory }
        else if let named {
            options.head = { named.choose($0) }
            options.sink = .custom { try named.write($0) }
        } else if let path = outputPath { options.sink = .file(path) }
        else if noBuffer {
            options.sink = .custom { piece in
                if toTerminal && (piece.contains(0) || !UTF8Validation.isValid(piece)) {
                    throw CommandFailure(message: "pekit request: the body is binary and would mess up the terminal: use -o FILE, or -o - to write it here anyway")
                }
                Output.stdout.write(piece)
                Output.stdout.flush()
            }
        } else { options.sink = .custom { Output.stdout.write($0) } }
        self.options = options
        finish = { result in
            defer {
                if let har, let path = parsed.value(RequestOptions.har) { try? Files.writeAtomically(har.json(), to: path, mode: 0o600) }
            }
            defer {
                if let tracePath {
                    if tracePath == "-" { Output.stdout.write(trace.value) } else { try? Files.writeAtomically(trace.value, to: tracePath, mode: 0o644) }
                }
            }
            defer { progressLine?.finish() }
            var response: PekitResponse
            // --remove-on-error: a transfer that fails leaves no -o file at all, not even one that
            // was there (pekit never leaves a partial one; curl truncates it first).
            func removeOnError() {
                if parsed.has(RequestOptions.removeOnError), let path = outputPath { try? FileManager.default.removeItem(atPath: path) }
            }
            do { response = try result.get() } catch {
                named?.abandon()
                removeOnError()
                // -c is written after a failed transfer too, as curl writes its cookie jar.
                if let jar = builder.jar, let path = parsed.value(RequestOptions.cookieJar) { try jar.save(to: path, sessions: true, force: true) }
                // As curl: -w is written for a transfer that failed too (%{http_code} is 000).
                if let writeOut {
                    var none = PekitResponse()
                    none.url = request.url
                    none.method = request.method
                    let http = error as? HTTPError
                    writeOut.write(none, urlnum: urlnum, exit: (Int32(http?.curlExitStatus ?? 1), http?.message(.commandLine) ?? "\(error)"))
                }
                throw error
            }
            if verbose {
                // After curl's view, pekit's: each redirect followed and the timings.
                for hop in response.redirects { Output.stderr.line(printable("* redirect: \(hop.status) \(hop.method) \(hop.url) -> \(hop.location)")) }
                let t = response.timing
                Output.stderr.line(String(format: "* timing: dns %.3f  connect %.3f  tls %.3f  first byte %.3f  total %.3f s", t.dns, t.connect, t.tls, t.firstByte, t.total))
            }
            if let jar = builder.jar {
                // Both were checked before sending (a file that is not a jar is not replaced
                // without --force).
                if let path = parsed.value(RequestOptions.jar) { try jar.save(to: path, sessions: true, force: true) }
                if let path = parsed.value(RequestOptions.cookieJar) { try jar.save(to: path, sessions: true, force: true) }
            }
            // As curl -f: an HTTP error is a failure (exit 22) and its body is not printed; with
            // --fail-with-body it is.
            let unmet = condition.map { !$0.isMet(by: response) && response.status < 300 } ?? false
            let resumed = resume > 0 ? ContinueAt.verdict(response, from: resume, method: response.method.rawValue) : nil
            // A 416 to a resume is no failure: the document is here already (curl's http_should_fail).
            let failed = (parsed.has(RequestOptions.fail) || parsed.has(RequestOptions.failWithBody)) && response.status >= 400
                && !(response.status == 416 && (resumed?.resumeFrom ?? 0) > 0)
            if failed && failQuietly {
                // With -i the head goes out before curl judges it (a resumed download's file
                // keeps what it had before it).
                if include {
                    if let path = outputPath, path != "-" {
                        try writeOutput((resumed != nil ? Files.read(path) ?? [] : []) + response.heads, to: path)
                    } else {
                        Output.stdout.write(response.heads)
                    }
                }
                if !parsed.has(RequestOptions.silent) || parsed.has(RequestOptions.showError) {
                    Output.stderr.line("pekit request: the server answered \(response.status)\(response.reason.isEmpty ? "" : " " + printable(response.reason)) (--fail)")
                }
                // As curl: -w is still written (a script reads %{http_code} to learn why), with
                // curl's exit status and message for it.
                writeOut?.write(response, urlnum: urlnum, filename: named?.shownName ?? outputPath,
                                exit: (22, "The requested URL returned error: \(response.status)"))
                removeOnError()
                return 22
            }
            func head(escaped: Bool, style: Style = .plain) -> String {
                let shown = { (text: String) in escaped ? printable(text) : text }
                var text = style.statusLine(version: "HTTP/\(response.httpVersion)", status: response.status, reason: shown(response.reason)) + "\r\n"
                for field in response.headers { text += style.field(shown(field.name), shown(field.value.description)) + "\r\n" }
                return text + "\r\n"
            }
            // As curl -i and -D: each response's header block as it came (every redirect followed,
            // every 1xx), line by line: with -D - and -i both on standard output, each line twice,
            // as curl writes a line to both as it reads it (its test 1066).
            let rawHeads = response.heads, trailers = response.trailerHeads
            let dumpPath = parsed.value(RequestOptions.dumpHeader)
            let shownOnTerminal = outputPath == nil && isatty(STDOUT_FILENO) != 0
            let doubled = dumpPath == "-" && include && outputPath == nil && !shownOnTerminal
            if let path = dumpPath {
                if path == "-" {
                    if !doubled { Output.stdout.write(rawHeads + trailers) }
                } else if let heads { heads.bytes += rawHeads + trailers } else {
                    try Files.writeAtomically(rawHeads + trailers, to: path, mode: 0o644)
                }
            }
            if toTerminal, !UTF8Validation.isValid(response.body) || response.body.contains(0) {
                Output.stderr.line("pekit request: the body is binary (\(response.body.count) bytes) and would mess up the terminal: use -o FILE, or -o - to write it here anyway")
                return 1
            }
            if held {
                // As curl -i: the heads as they came, but the final one escaped (and coloured) when a
                // person reads it on a terminal.
                var shownHead: [UInt8] = []
                if include {
                    if shownOnTerminal {
                        // The earlier responses' blocks (redirects, 1xx) escaped, the final one coloured.
                        let earlier = rawHeads[..<lastHeadBlockStart(rawHeads)]
                        shownHead = Array(printable(String(decoding: earlier, as: UTF8.self), keepingLineBreaks: true).utf8) + Array(head(escaped: true, style: style).utf8)
                    } else {
                        shownHead = doubled ? eachLineTwice(rawHeads) : rawHeads
                    }
                }
                // A trailer's lines come after the body, as curl writes them (twice with -D -).
                var shownTrailers: [UInt8] = []
                if include && !shownOnTerminal { shownTrailers = doubled ? eachLineTwice(trailers) : trailers }
                let body = resumed?.writesBody == false || unmet ? [] : response.body
                if let named {
                    named.choose(response)
                    try named.write(shownHead + body + shownTrailers)
                    try named.commit()
                } else if let path = outputPath {
                    // A resumed download goes after what the file holds.
                    let before = resumed != nil ? Files.read(path) ?? [] : []
                    try writeOutput(before + shownHead + body + shownTrailers, to: path)
                } else {
                    Output.stdout.write(shownHead)
                    Output.stdout.write(style.body(body, contentType: response.header("Content-Type")?.description) ?? body)
                    Output.stdout.write(shownTrailers)
                }
                if let failure = resumed?.failure {
                    removeOnError()
                    if !parsed.has(RequestOptions.silent) || parsed.has(RequestOptions.showError) { Output.stderr.line("pekit request: " + failure) }
                    writeOut?.write(response, urlnum: urlnum, filename: named?.shownName ?? outputPath)
                    return 33
                }
            }
            if let named, !held {
                named.choose(response)
                try named.commit()
            }
            // curl's simulated 304 for a condition not met, which -w then reports.
            if unmet { response.status = 304 }
            try ETagFiles.save(parsed, response)
            // --remote-time: the file's time is the answer's Last-Modified.
            if parsed.has(RequestOptions.remoteTime), let path = outputPath, let modified = response.header("Last-Modified").flatMap({ CookieDate.parse($0.description) }) {
                try? FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Double(modified))], ofItemAtPath: path)
            }
            writeOut?.write(response, urlnum: urlnum, filename: named?.shownName ?? outputPath)
            if failed { removeOnError() }
            return failed ? 22 : 0
        }
    }
}

/// Each line of `bytes` (through its LF) written twice: what curl writes to standard output
/// when a head's line goes both to `-D -` and to `-i`'s output as it is read.
func eachLineTwice(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [], start = 0
    out.reserveCapacity(bytes.count * 2)
    while start < bytes.count {
        let end = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        out += bytes[start..<end]
        out += bytes[start..<end]
        start = end
    }
    return out
}

/// Where the last header block of `heads` starts: after the empty line that ends the block
/// before it (a redirect's, a 1xx's), or 0.
func lastHeadBlockStart(_ heads: [UInt8]) -> Int {
    var lineStart = 0, last = 0
    while let lf = heads[lineStart...].firstIndex(of: 0x0A) {
        let line = heads[lineStart..<lf]
        lineStart = lf + 1
        if (line.isEmpty || line.elementsEqual([0x0D])) && lineStart < heads.count { last = lineStart }
    }
    return last
}

/// A proxy URL with `user:password` (curl's -U) as its user info, each percent-encoded (all but
/// unreserved bytes) so that the URL reads them back as given; `http://` where it names no scheme.
func proxyURL(_ proxy: String, credentials: String) -> String {
    let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    func encoded(_ text: String) -> String { PercentEncoder.rfc3986.encode(text) }
    let userInfo = encoded(parts[0]) + (parts.count > 1 ? ":" + encoded(parts[1]) : "")
    let (scheme, rest) = proxy.range(of: "://").map { (String(proxy[..<$0.upperBound]), String(proxy[$0.upperBound...])) } ?? ("http://", proxy)
    return scheme + userInfo + "@" + rest
}

/// The answer written to -o's file, whole or not at all; a file that cannot be written fails
/// with curl's exit status 23 ("Failed writing").
func writeOutput(_ bytes: [UInt8], to path: String) throws {
    do { try Files.writeAtomically(bytes, to: path, mode: 0o644) } catch {
        throw CommandFailure(message: "pekit request: cannot write \(printable(path)): \(error) (as curl, exit 23)", status: 23)
    }
}
