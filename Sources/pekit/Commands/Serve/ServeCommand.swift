import Foundation
import PekitCore
import PekitHTTP

let serveCommand = Command(
    name: "serve",
    summary: "a local HTTP server that records each request exactly and shows how each real server reads it",
    synopsis: """
    usage: pekit serve [--listen ADDRESS:PORT] [--servers qs,php,rack,python,go,whatwg,node] [--echo] [--tls CERT.pem] [-v]
           pekit serve --mock FILE.har [--match-by SERVER|bytes|mitmproxy] [--ignore-param NAME]... [--mock-reuse] [...]

    Accepts any request, keeps it as it came (every byte, the head and the body), and answers
    with what each server model reads from its query, from its body (urlencoded, or
    multipart/form-data with fields and files) and from its Cookie header: qs (Express, and its
    cookie package), PHP's $_GET/$_POST/$_FILES/$_COOKIE, Rack (Rails, Sinatra), Python's parse_qs,
    cgi.FieldStorage and http.cookies, Go's ParseQuery, ParseMultipartForm and Request.Cookies,
    the WHATWG URLSearchParams and node's querystring, side by side. One line a request on the terminal;
    -v adds each server's reading. The requests kept are in a JSON API:
      GET /_pekit/requests      the list (the newest 1,000), with the total received
      GET /_pekit/requests/N    request N: its parts, its exact bytes (as text, or base64 under
                                raw_base64 when they are not UTF-8) and each server's reading
      GET /_pekit/events        each request as it comes (server-sent events, "request")
      GET /_pekit/requests.har  the requests kept and their answers, as HAR 1.2 (pekit export
                                writes them as curl, .http, Hurl or a Postman collection)
    Loopback only unless --listen names another address (then with a warning: what others
    send is recorded and shown).

    With --mock, each request is answered with the response a HAR file recorded for a request
    that the --match-by server reads the same (method, path, query, form body; the host is not
    compared), as mitmproxy's server replay does: each recorded response once, in the file's
    order (--mock-reuse: again and again), parameters named by --ignore-param not compared.
    Set-Cookie loses Domain and Secure so that a browser keeps it for the local host. A request
    nothing matches is answered 404 with the nearest recorded ones and how each differs.
    """,
    sections: { [HelpSection("options:", ServeOptions.all)] },
    epilogue: """
    a session: pekit serve -v in one terminal (each request a line, each reading under it);
    curl, an app and a browser form send to it; http://127.0.0.1:8080/_pekit/ shows them all:
      pekit serve -v
      curl 'http://127.0.0.1:8080/form?a[b]=1&a[c]=2' -d 'tags[]=x&tags[]=y' -b 'a=1; a=2'
      python3 -c 'import requests; requests.post("http://127.0.0.1:8080/up", files={"f": b"hi"})'
      <form method="post" enctype="multipart/form-data" action="http://127.0.0.1:8080/signup">
      curl http://127.0.0.1:8080/_pekit/requests/1

    examples:
      pekit serve --listen 127.0.0.1:0 --servers php,rack -v
      pekit serve --tls cert.pem; curl --cacert cert.pem https://localhost:8080/x
      pekit serve --mock session.har --match-by php --ignore-param _

    exit status: 0 when stopped (Ctrl-C); 1 when the address cannot be listened on; 2 on a
    usage error.
    """,
    run: runServe
)

/// `pekit serve`'s options, in the order its help shows them.
enum ServeOptions {
    static let listen = Option("listen", value: "ADDRESS:PORT", """
        where to listen (default 127.0.0.1:8080; [::1]:8080; PORT alone on
        127.0.0.1; port 0: any free port, printed)
        """)
    static let servers = Option("servers", value: "LIST", "the server models to show, by name, comma-separated (default: all)")
    static let echo = Option("echo", "answer with the request's own bytes (message/http) instead of the readings")
    static let verbose = Option("verbose", short: "v", "print each server's reading of each request")
    static let maxBody = Option("max-body", value: "SIZE", "the largest body taken (default 10M; 16K, 1M, 2G); a larger one is answered 413")
    static let harWithSecrets = Option("har-with-secrets", "keep Authorization and Cookie values in /_pekit/requests.har (redacted by default)")
    static let mock = Option("mock", value: "FILE.har", "answer with the responses FILE recorded, matched by --match-by")
    static let matchBy = Option("match-by", value: "SERVER", """
        with --mock: compare the query and a form body as SERVER reads them (a model,
        or a framework's name; default python), bytes: exactly, or mitmproxy: as
        mitmproxy's server replay does (the query's pairs as parse_qsl reads them, in
        order; the body's bytes; a path's ;params left out)
        """)
    static let ignoreParam = Option("ignore-param", value: "NAME", "with --mock: leave the parameter NAME out of the comparison (repeat for more)")
    static let mockReuse = Option("mock-reuse", "with --mock: serve a recorded response again each time it matches (by default once)")
    static let tls = Option("tls", value: "CERT.pem", """
        serve HTTPS (HTTP/1.1; no HTTP/2) with a certificate made at start for localhost,
        127.0.0.1 and ::1 (a new P-256 key, valid 30 days), written to CERT.pem for clients to
        trust (curl --cacert CERT.pem); its SHA-256 fingerprint is printed
        """)
    static let all = [listen, servers, echo, tls, mock, matchBy, ignoreParam, mockReuse, verbose, maxBody, harWithSecrets, .help]
}

/// The names `--servers` takes: the models' own, and `node` for node-querystring.
private func serverModels(_ list: String?) throws -> [(name: String, model: QueryServer)] {
    guard let list else { return QueryServer.all }
    return try list.split(separator: ",").map { raw in
        let name = raw.trimmingCharacters(in: .whitespaces)
        let known = name == "node" ? "node-querystring" : name
        guard let found = QueryServer.all.first(where: { $0.name == known }) else {
            throw UsageError(command: "serve", message: Suggestion.message("no server model '\(name)'", for: name, among: QueryServer.names + ["node"]))
        }
        return found
    }
}

/// `--listen`'s address and port.
private func listenAddress(_ text: String?) throws -> (host: String, port: Int) {
    guard let text else { return ("127.0.0.1", 8080) }
    func port(_ digits: Substring) throws -> Int {
        guard let port = Int(digits), (0...65_535).contains(port) else {
            throw UsageError(command: "serve", message: "--listen takes ADDRESS:PORT with a port from 0 to 65535, not '\(text)'")
        }
        return port
    }
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
        let rest = text[text.index(after: close)...]
        guard rest.hasPrefix(":") else { throw UsageError(command: "serve", message: "--listen takes [IPv6]:PORT, not '\(text)'") }
        return (String(text[text.index(after: text.startIndex)..<close]), try port(rest.dropFirst()))
    }
    if let colon = text.lastIndex(of: ":") { return (String(text[..<colon]), try port(text[text.index(after: colon)...])) }
    return ("127.0.0.1", try port(Substring(text)))
}

func runServe(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try serveCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(serveCommand.help); return 0 }
    guard parsed.positionals.isEmpty else { throw UsageError(command: "serve", message: "takes no arguments, only options") }
    let (host, port) = try listenAddress(parsed.value(ServeOptions.listen))
    // The file read and the options checked before the port is taken.
    let mock = try mockReplay(parsed)
    if mock != nil, parsed.has(ServeOptions.echo) { throw UsageError(command: "serve", message: "--mock and --echo cannot go together: each says what a request is answered") }
    let recorder = ServeRecorder(servers: try serverModels(parsed.value(ServeOptions.servers)))
    let listener: ServeListener
    do { listener = try ServeListener(host: host, port: port) } catch let failure as ServeListener.Failure {
        throw CommandFailure(message: "pekit serve: \(failure.description)")
    }
    if let certificate = parsed.value(ServeOptions.tls) {
        do {
            let tls = try ServeTLS()
            try Files.writeAtomically(Array(tls.pem.utf8), to: certificate, mode: 0o644)
            listener.tls = tls
        } catch let failure as ServeListener.Failure {
            throw CommandFailure(message: "pekit serve: \(failure.description)")
        } catch {
            throw CommandFailure(message: "pekit serve: --tls: cannot write \(certificate): \(error)")
        }
    }
    if let size = parsed.value(ServeOptions.maxBody) {
        guard let bytes = curlByteCount(size) else { throw UsageError(command: "serve", message: "--max-body takes a size (16K, 1M, 2G), not '\(size)'") }
        listener.framing.maxBody = bytes
    }
    let shown = host.contains(":") ? "[\(host)]" : host
    let base = "\(listener.tls == nil ? "http" : "https")://\(shown):\(listener.port)"
    recorder.authority = "\(shown):\(listener.port)"
    Output.stdout.line("pekit serve: listening on \(base)/ (in a browser: \(base)/_pekit/; as JSON: \(base)/_pekit/requests; Ctrl-C stops)")
    if let tls = listener.tls, let certificate = parsed.value(ServeOptions.tls) {
        Output.stdout.line("pekit serve: TLS with a certificate made now for localhost, 127.0.0.1 and ::1, in \(certificate) (curl --cacert \(certificate)); SHA-256 fingerprint \(tls.fingerprint); HTTP/1.1 only")
    }
    if !(host.hasPrefix("127.") || host == "::1") {
        Output.stderr.line("pekit serve: warning: \(shown) is reachable from other machines: what they send is recorded and shown")
    }
    Output.stdout.flush()
    let echo = parsed.has(ServeOptions.echo), verbose = parsed.has(ServeOptions.verbose), harSecrets = parsed.has(ServeOptions.harWithSecrets)
    // A mocked request's answer, kept: the HAR of the session shows what was served.
    var mocked: [Int: ServeListener.Answer] = [:]
    /// What a recorded request is answered (its JSON, or with --echo its own bytes); `readings`
    /// when they were made already (`-v` prints them), so that each server reads it once.
    func answer(_ request: ServedRequest, readings: PekitValue? = nil) -> ServeListener.Answer {
        if echo { return .init(status: 200, headers: [("Content-Type", "message/http")], body: request.raw) }
        if let served = mocked[request.number] { return served }
        return json(.map(PekitMap(ordered: [
            .init(key: "number", value: .integer(Int64(request.number))),
            .init(key: "servers", value: readings ?? recorder.readings(of: request)),
        ])))
    }
    listener.run(stop: { false }) { request in
        var request = request
        let path = String(decoding: request.path, as: UTF8.self)
        // The page and the API are answered, not recorded: the page for a browser (at
        // /_pekit/, and at / asked for with no query), the API's JSON otherwise.
        let browser = request.method == "GET" && (request.header("Accept")?.contains("text/html") ?? false)
        if path == "/_pekit" || path == "/_pekit/" || (browser && request.target == Array("/".utf8)) {
            return .init(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: ServePages.list(recorder))
        }
        // A browser's own fetch of an icon for the page is answered, not recorded.
        if request.method == "GET" && request.target == Array("/favicon.ico".utf8) { return .init(status: 204) }
        if path == "/_pekit/events" {
            // Each request as it is recorded: the page's live list.
            return .init(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")], streams: true)
        }
        if path == "/_pekit/requests.har" {
            return .init(status: 200, headers: [("Content-Type", "application/json")], body: recorder.har(secrets: harSecrets) { answer($0) })
        }
        if path == "/_pekit/requests" || path.hasPrefix("/_pekit/requests/") {
            if browser, let number = Int(path.dropFirst("/_pekit/requests/".count)), let kept = recorder.request(number: number) {
                return .init(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: ServePages.detail(kept, recorder))
            }
            return api(path, recorder)
        }
        request.receivedAt = UnixTime.now()
        recorder.record(&request)
        listener.broadcast(Array("event: request\ndata: ".utf8) + JSONText.write(recorder.summary(of: request)) + Array("\n\n".utf8))
        let target = PercentDecodingError.printable(request.target)
        var line = "#\(request.number) \(request.method) \(target)  \(request.body.count) bytes  from \(request.peer)"
        switch mock?.answer(request) {
        case .mocked(let entry, let answer)?:
            mocked[request.number] = answer
            line += "  → recorded entry \(entry), \(answer.status)"
        case .unmatched(let answer)?:
            mocked[request.number] = answer
            line += "  → no recorded match, 404"
        case nil: break
        }
        Output.stdout.line(line)
        let readings = verbose ? recorder.readings(of: request) : nil
        if case .map(let shown)? = readings {
            for entry in shown.entries {
                Output.stdout.line("    \(entry.key): " + String(decoding: JSONText.write(entry.value), as: UTF8.self))
            }
        }
        Output.stdout.flush()
        return answer(request, readings: readings)
    }
    return 0
}

/// `--mock`'s replay: the HAR file's entries, matched as --match-by says.
/// - Throws: `UsageError` for a --match-by, --ignore-param or --mock-reuse without --mock, or an
///   unknown server; `CommandFailure` for a file that cannot be read or is not HAR.
private func mockReplay(_ parsed: Arguments) throws -> MockReplay? {
    guard let path = parsed.value(ServeOptions.mock) else {
        if let option = parsed.given([ServeOptions.matchBy, ServeOptions.ignoreParam, ServeOptions.mockReuse]).first {
            throw UsageError(command: "serve", message: "--\(option.name) goes with --mock")
        }
        return nil
    }
    let matchBy: MockReplay.MatchBy
    switch parsed.value(ServeOptions.matchBy) ?? "python" {
    case "bytes": matchBy = .bytes
    case "mitmproxy": matchBy = .mitmproxy
    case let name:
        do { matchBy = .server(name: name, try QueryServer.named(name, options: [])) } catch {
            throw UsageError(command: "serve", message: "--match-by: \(error) (or bytes, mitmproxy)")
        }
    }
    return MockReplay(entries: try harEntries(path, command: "serve"), matchBy: matchBy, ignored: parsed.all(ServeOptions.ignoreParam), reuse: parsed.has(ServeOptions.mockReuse))
}

private func json(_ value: PekitValue, status: Int = 200) -> ServeListener.Answer {
    .init(status: status, headers: [("Content-Type", "application/json")], body: JSONText.write(value) + [0x0A])
}

/// `/_pekit/requests` and `/_pekit/requests/N`.
private func api(_ path: String, _ recorder: ServeRecorder) -> ServeListener.Answer {
    if path == "/_pekit/requests" { return json(recorder.list()) }
    let number = Int(path.dropFirst("/_pekit/requests/".count))
    guard let number, let request = recorder.request(number: number) else {
        let why = number.map { $0 >= 1 && $0 <= recorder.total ? "request \($0) is no longer kept (the newest \(recorder.limit) are)" : "there is no request \($0)" }
            ?? "not a request number"
        return json(.map(PekitMap(ordered: [.init(key: "error", value: .string(ByteString(why)))])), status: 404)
    }
    return json(recorder.detail(request))
}
