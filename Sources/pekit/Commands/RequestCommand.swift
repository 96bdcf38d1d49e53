import Foundation
import PekitCore
import PekitCrypto
import PekitHTTP
import PekitLua

let requestCommand = Command(
    name: "request",
    summary: "build an HTTP request; print it raw, as a curl command or as JSON, or send it",
    help: """
    usage: pekit request [-X M] [--policy P] [--param k=v]... [--params-in query|body] [--json DATA]
                         [-F name=value|name=@file]... [--body-file PATH] [-H 'K: V']...
                         [-u USER:PASSWORD] [--aws-sigv4 aws:amz:REGION:SERVICE -u KEY:SECRET]
                         [--jar FILE [--force]] [--base URL]
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

    options:
      -X, --method M    the method (default GET; POST when a body is given)
      --policy P        the encoding policy for the query and form body (default rfc3986)
      --param k=v       a parameter (repeat); keys nest as a Lua table's would (u[name]=x,
                        tags[]=a, m[0][k]=v; u.name=x under a policy with dotted objects), and
                        the policy writes them its own way (rack: u[name]=x, php: tags[0]=a)
      --param-json k=J  a parameter with a typed JSON value (n=1, flag=true, u={"name":"x"})
      --params-in W     query or body, to override the method's default
      -F, --form SPEC   a multipart/form-data part, as curl's -F: name=value, name=@file (a
                        file part; its type guessed from the name as curl does), name=<file (a
                        text part from the file), each with ;type=… and ;filename=… (repeat)
      --json DATA       a JSON body, as curl's --json: DATA as written, or @FILE (@- for
                        standard input); Content-Type and Accept application/json
      --file f=@path    a multipart file part (repeat; -F f=@path says the same)
      --body-file PATH  a raw body streamed from PATH (any size, bounded memory)
      -H, --header 'K: V'  a header (repeat; as curl: 'K:' removes a default one, 'K;' sends it
                        empty, the value goes as written; @FILE reads one a line). The
                        default Accept-Language follows LANGUAGE/LANG (en;q=1 under C, en-US;q=1
                        under en_US.UTF-8): -H 'Accept-Language: en' fixes it in any locale
      --jar FILE        add the Cookie header from this cookie jar file; with --send, cookies
                        that come back are saved to it too (created when missing; locked from
                        loading to saving; a file that is not a jar is not replaced without
                        --force)
      --connect N:P=A:Q send requests for host N port P to address A port Q, keeping the name
                        for Host, TLS and cookies (curl's --connect-to; repeat)
      --base URL        resolve a relative URL against this base
      --url URL         the URL, as curl's --url (instead of giving it alone)
      --request-target T  send T as the request target exactly as given ('/a b', '*', an
                        absolute URL) instead of the URL's path and query, to test how a server
                        reads it (curl's flag; CR, LF and NUL are refused; not kept on redirects)
      -u, --user U:P    Basic authentication

    curl's flags, with curl's meaning (a test holds pekit's bytes on the wire to curl's):
      -d, --data D      a body of D (@FILE: the file with its CR and LF left out; several -d are
                        joined with &), application/x-www-form-urlencoded, POST unless -X or -G
      --data-ascii D    the same as -d;  --data-raw D  D as written (no @FILE)
      --data-binary D   D, or @FILE exactly as it is
      --data-urlencode D  curl's five forms: content, =content, name=content, @file, name@file;
                        the content encoded (a space as +)
      -G, --get         put the -d data into the query instead (GET)
      -A, --user-agent A  the User-Agent ('' removes it);  -e, --referer URL  the Referer
      --connect-to H1:P1:H2:P2  connect to H2:P2 for H1:P1 (either port may be empty)
      --resolve H:P:ADDR  connect to ADDR for H:P
      -b, --cookie C    a Cookie header (C has '='), or a cookie file to read (Netscape format)
      -c, --cookie-jar FILE  write every cookie, session ones too, to FILE after sending
      --aws-sigv4 aws:amz:REGION:SERVICE  sign with AWS Signature V4 (curl's flag) as botocore
                        signs, with -u ACCESS_KEY:SECRET_KEY; a session token goes in
                        -H 'X-Amz-Security-Token: …'; REGION and SERVICE may be left out for
                        SERVICE.REGION.amazonaws.com hosts
      --plugins DIR     search DIR for plugins first
      -h, --help        show this help

    sending (--send): the response body goes to standard output; the exit status is 0 for any
    HTTP status (--fail: 22 for 400 and above, as curl -f), 1 when the transfer fails.
      -i, --include     print the status line and header fields first (into -o's file too)
      -I, --head        send HEAD and print the head
      -f, --fail        exit 22 when the status is 400 or more, printing no body (curl's -f)
      --fail-with-body  the same, with the body printed
      -o, --output FILE write the body to FILE (complete or not at all; '-': standard output,
                        which a binary body otherwise does not go to when it is a terminal)
      --progress        show the transfer's progress on standard error (the default for -o to a
                        file when standard error is a terminal);  --no-progress  never
      -O, --remote-name write it to the file the URL names, in the current directory
      -D, --dump-header FILE  write the response's status line and header fields to FILE ('-':
                        standard output; the final response's, after redirects)
      -w, --write-out F after the body, F with %{http_code}, %{num_redirects}, %{size_download},
                        %{url_effective}, %{content_type}, %{method}, %{http_version}, %{remote_ip},
                        %{remote_port}, %{size_header}, %{time_namelookup}, %{time_connect},
                        %{time_appconnect}, %{time_starttransfer}, %{time_total}; \n \t \\ %%
                        (an unknown variable is an error, before anything is sent)
      -v, --verbose     as curl -v, on standard error: '* ' notes, '> ' the request's head, '< '
                        the response's, for every request of a redirect chain; then each
                        redirect and the timings
      --trace-ascii F   every byte sent and received, in curl's --trace-ascii format, to F
                        ('-': standard output)
      URL...            several URLs: the same request to each, one after another (curl's way);
                        each -o FILE or -O pairs with one URL in order, the others write to
                        standard output; a failure is reported and the rest still go (exit
                        status: the last transfer's, as curl). --jar, -c, --har and --trace-ascii
                        take one URL
      -Z, --parallel    send the URLs at once, up to --parallel-max N (1 to 300, default 50),
                        on one thread and shared connections; answers shown in the order given,
                        done/failed/in flight on standard error meanwhile when it is a terminal
                        (not with -s; --progress: always, --no-progress: never)
      --rate R          start at most R transfers, whatever their hosts: N/s, N/m or N/h
                        (curl's --rate)
      --retry N         send again up to N times after a timeout or a 408, 429, 500, 502, 503
                        or 504 (curl's --retry: waiting 1 s, doubling, or as Retry-After says;
                        GET, HEAD, PUT, DELETE, OPTIONS only); --retry-max-time S starts no
                        retry after S seconds; --retry-all-errors retries any transfer error
      --har FILE        write every exchange (each request of a redirect chain: headers,
                        cookies, bodies, timings) to FILE as HAR 1.2, which browsers' developer
                        tools open
      --no-follow       do not follow redirects (pekit follows up to 10 by default, where curl
                        follows only with -L, which pekit accepts)
      -L, --location    follow redirects (the default)
      --max-redirects N follow at most N redirects (also --max-redirs N, curl's name)
      --max-filesize N  fail when the response body is larger than N bytes (default with -i:
                        1 GiB, since the body is then held in memory; none when streamed)
      --timeout S       give up after S seconds in all (also -m, --max-time S);
                        --connect-timeout S  to connect (30)
      --cacert FILE     trust the CAs in FILE;  -k, --insecure  do not check certificates
      -x, --proxy URL   use this proxy ('' for none; default: http_proxy, HTTPS_PROXY, NO_PROXY…)
      --http V          1.1 or 2 (also curl's --http1.1 and --http2);  --compressed  ask for
                        and decode a compressed body
      -s, --silent      accepted: pekit shows no progress meter (errors still show, as with
                        -sS);  -S, --show-error  accepted

    examples:
      pekit request --policy afnetworking --param 'tags[]=a b' https://api.example.com/items
      pekit request -X POST --param q=1 --curl https://api.example.com/search
      pekit request --send -i --jar jar.txt https://example.com/
    """,
    run: runRequest
)

private func runRequest(_ args: [[UInt8]]) throws -> Int32 { try runRequest(args, built: nil) }

/// What `pekit import curl` does with the request a command line builds, instead of printing
/// or sending it.
typealias BuiltRequestHandler = (HTTPRequest, RequestBuilder) throws -> Int32

/// The option table of `pekit request` (also what `pekit import curl` reads a command with).
let requestOptions: [Arguments.Option] = [
        .init(name: "method", short: "X", takesValue: true), .init(name: "policy", short: nil, takesValue: true),
        .init(name: "param", short: nil, takesValue: true), .init(name: "params-in", short: nil, takesValue: true),
        .init(name: "param-json", short: nil, takesValue: true),
        .init(name: "form", short: "F", takesValue: true), .init(name: "json", short: nil, takesValue: true),
        .init(name: "file", short: nil, takesValue: true), .init(name: "header", short: "H", takesValue: true),
        .init(name: "jar", short: nil, takesValue: true), .init(name: "base", short: nil, takesValue: true),
        .init(name: "user", short: "u", takesValue: true), .init(name: "body-file", short: nil, takesValue: true),
        .init(name: "connect", short: nil, takesValue: true), .init(name: "send", short: nil, takesValue: false),
        .init(name: "include", short: "i", takesValue: false), .init(name: "output", short: "o", takesValue: true),
        .init(name: "verbose", short: "v", takesValue: false), .init(name: "no-follow", short: nil, takesValue: false),
        .init(name: "max-redirects", short: nil, takesValue: true), .init(name: "timeout", short: nil, takesValue: true),
        .init(name: "connect-timeout", short: nil, takesValue: true), .init(name: "cacert", short: nil, takesValue: true),
        .init(name: "insecure", short: "k", takesValue: false), .init(name: "proxy", short: "x", takesValue: true),
        .init(name: "http", short: nil, takesValue: true), .init(name: "compressed", short: nil, takesValue: false),
        .init(name: "fail", short: "f", takesValue: false), .init(name: "force", short: nil, takesValue: false),
        .init(name: "max-filesize", short: nil, takesValue: true), .init(name: "aws-sigv4", short: nil, takesValue: true),
        .init(name: "raw", short: nil, takesValue: false), .init(name: "curl", short: nil, takesValue: false),
        .init(name: "describe", short: nil, takesValue: false), .init(name: "request-target", short: nil, takesValue: true), pluginsOption,
        // curl's flags, with curl's meaning.
        .init(name: "data", short: "d", takesValue: true), .init(name: "data-ascii", short: nil, takesValue: true),
        .init(name: "data-raw", short: nil, takesValue: true), .init(name: "data-binary", short: nil, takesValue: true),
        .init(name: "data-urlencode", short: nil, takesValue: true), .init(name: "get", short: "G", takesValue: false),
        .init(name: "user-agent", short: "A", takesValue: true), .init(name: "referer", short: "e", takesValue: true),
        .init(name: "head", short: "I", takesValue: false), .init(name: "location", short: "L", takesValue: false),
        .init(name: "max-redirs", short: nil, takesValue: true), .init(name: "max-time", short: "m", takesValue: true),
        .init(name: "fail-with-body", short: nil, takesValue: false), .init(name: "silent", short: "s", takesValue: false),
        .init(name: "show-error", short: "S", takesValue: false), .init(name: "connect-to", short: nil, takesValue: true),
        .init(name: "resolve", short: nil, takesValue: true), .init(name: "cookie", short: "b", takesValue: true),
        .init(name: "cookie-jar", short: "c", takesValue: true), .init(name: "remote-name", short: "O", takesValue: false),
        .init(name: "dump-header", short: "D", takesValue: true), .init(name: "write-out", short: "w", takesValue: true),
        .init(name: "trace-ascii", short: nil, takesValue: true), .init(name: "url", short: nil, takesValue: true),
        .init(name: "har", short: nil, takesValue: true), .init(name: "retry", short: nil, takesValue: true),
        .init(name: "retry-max-time", short: nil, takesValue: true), .init(name: "retry-all-errors", short: nil, takesValue: false),
        .init(name: "http1.1", short: nil, takesValue: false), .init(name: "http2", short: nil, takesValue: false),
        .init(name: "progress", short: nil, takesValue: false), .init(name: "no-progress", short: nil, takesValue: false),
        .init(name: "parallel", short: "Z", takesValue: false), .init(name: "parallel-max", short: nil, takesValue: true),
        .init(name: "rate", short: nil, takesValue: true),
        .init(name: "help", short: "h", takesValue: false),
]

func runRequest(_ args: [[UInt8]], built handler: BuiltRequestHandler?) throws -> Int32 {
    let parsed = try Arguments(args, command: "request", options: requestOptions)
    if parsed.has("help") { Output.stdout.line(requestCommand.help); return 0 }
    // curl's --url URL is the same as the URL given alone.
    let urls = parsed.positionals + parsed.all("url")
    guard let url = urls.first else { throw UsageError(command: "request", message: "give a URL") }
    try parsed.requireTextPaths(command: "request", options: ["jar", "body-file", "output", "file", "cacert", "cookie-jar", "dump-header"])
    if let format = parsed.value("write-out") { _ = try WriteOut.parse(format) }
    if urls.count > 1 || parsed.has("parallel") { return try runSeveral(parsed, urls: urls, handler) }
    // Sending with a jar file is a read-change-write of it: under its lock, so that requests
    // sharing a jar at once merge their cookies (they run one after another) instead of each
    // writing back what it read.
    let output = try outputChoices(parsed, urls: 1).first ?? .standardOutput
    if let jarPath = parsed.value("jar"), try isSending(parsed) {
        do { return try Files.withLock(jarPath) { try buildAndRun(parsed, url: url, output: output, handler) } } catch let error as CookieError {
            throw CommandFailure(message: "pekit request: \(error)")
        }
    }
    return try buildAndRun(parsed, url: url, output: output, handler)
}

/// The heads -D FILE gets from several transfers, in the order given.
private final class HeadDump {
    var text = ""
}

/// Each -o FILE and -O, in the order given (curl pairs them with the URLs in order).
private func outputChoices(_ parsed: Arguments, urls: Int) throws -> [OutputChoice] {
    var outputs: [OutputChoice] = []
    for (name, value) in parsed.values {
        if name == "output", let value { outputs.append(.file(value)) } else if name == "remote-name" { outputs.append(.remoteName) }
    }
    if outputs.count > urls {
        throw UsageError(command: "request", message: "\(outputs.count) -o/-O for \(urls) URL\(urls == 1 ? "" : "s"): each pairs with one URL, in order")
    }
    return outputs
}

/// Several URLs, as curl takes them: the same options for each; -o FILE and -O pair with the
/// URLs in order (a URL without one writes to standard output); one after another, or with
/// -Z/--parallel up to --parallel-max at once (50), answers shown in the order given. --rate
/// spaces their starts. A failure is reported and the rest still go; the exit status is the
/// last transfer's, as curl's.
private func runSeveral(_ parsed: Arguments, urls: [String], _ handler: BuiltRequestHandler?) throws -> Int32 {
    let outputs = try outputChoices(parsed, urls: urls.count)
    if handler != nil { throw UsageError(command: "request", message: "give one URL") }
    guard try isSending(parsed) else {
        throw UsageError(command: "request", message: "several URLs are for sending (--send, or a sending option): --raw, --curl and --describe show one request")
    }
    // These files are written whole once per command, and the jar is one read-change-write:
    // with several transfers they would keep only the last one's.
    for option in ["har", "trace-ascii", "jar", "cookie-jar"] where parsed.has(option) {
        throw UsageError(command: "request", message: "--\(option) takes one URL (for several, a script: pekit run, with pekit.http.all and a jar)")
    }
    let rate = try parsed.value("rate").map { text -> RateLimiter in
        do { return try RateLimiter(text, acrossHosts: true) } catch {
            throw UsageError(command: "request", message: "--rate: \(error)")
        }
    }
    var limit = 50
    if let text = parsed.value("parallel-max") {
        guard let n = Int(text), (1...300).contains(n) else { throw UsageError(command: "request", message: "--parallel-max takes a count from 1 to 300, not '\(text)'") }
        limit = n
    }
    var status: Int32 = 0
    // As curl: the exit status is the last transfer's.
    func report(_ url: String, _ body: () throws -> Int32) {
        do {
            status = try body()
        } catch let error as UsageError {
            Output.stderr.line("pekit request: \(printable(url)): \(error.message)")
            status = 2
        } catch let error as CommandFailure {
            Output.stderr.line(error.message)
            status = 1
        } catch {
            Output.stderr.line("pekit request: \(printable(url)): \(error)")
            status = 1
        }
    }
    let choices = urls.indices.map { $0 < outputs.count ? outputs[$0] : OutputChoice.standardOutput }
    // -D FILE: every transfer's head, in the order given, written once at the end (as curl fills it).
    let heads = parsed.value("dump-header").flatMap { $0 == "-" ? nil : HeadDump() }
    func finished() -> Int32 {
        if let heads, let path = parsed.value("dump-header") {
            do { try Files.writeAtomically(Array(heads.text.utf8), to: path, mode: 0o644) } catch {
                Output.stderr.line("pekit request: -D \(printable(path)): \(error)")
                status = 1
            }
        }
        return status
    }
    if !parsed.has("parallel") {
        let client = try HTTPClient()
        for (url, output) in zip(urls, choices) {
            report(url) {
                try buildAndRun(parsed, url: url, output: output) { request, builder in
                    let delivery = try Delivery(request, builder: builder, parsed, output: output, alone: true, heads: heads, rate: rate)
                    return try delivery.finish(Result { try client.send(request, options: delivery.options) })
                }
            }
        }
        return finished()
    }
    // -Z: every request built first (a usage error stops the command before anything is sent).
    var deliveries: [Delivery] = []
    for (url, output) in zip(urls, choices) {
        _ = try buildAndRun(parsed, url: url, output: output) { request, builder in
            deliveries.append(try Delivery(request, builder: builder, parsed, output: output, alone: false, heads: heads, rate: rate))
            return 0
        }
    }
    // Done, failed and in flight on standard error, as `har replay` shows a batch (a terminal's
    // default unless -s; --progress always, --no-progress never).
    let showProgress = (parsed.has("progress") || (isatty(STDERR_FILENO) != 0 && !parsed.has("silent"))) && !parsed.has("no-progress")
    let progress = showProgress ? ProgressLine() : nil
    var succeeded = 0, failed = 0
    let started = HTTPClient.now()
    let results = try HTTPClient().sendAll(deliveries.map { ($0.request, $0.options) }, concurrency: limit) { _, result in
        if case .failure = result { failed += 1 } else { succeeded += 1 }
        progress?.update(done: succeeded + failed, failed: failed, inFlight: min(limit, deliveries.count - succeeded - failed),
                         total: deliveries.count, elapsed: HTTPClient.now() - started)
    }
    progress?.finish()
    for (i, result) in results.enumerated() {
        report(urls[i]) {
            do { return try deliveries[i].finish(result) } catch let error as HTTPError {
                throw CommandFailure(message: "pekit request: \(error.message(.commandLine))")
            }
        }
    }
    return finished()
}

private func buildAndRun(_ parsed: Arguments, url: String, output: OutputChoice, _ handler: BuiltRequestHandler?) throws -> Int32 {
    let runtime = try makeRuntime(extraPluginDirectories: parsed.all("plugins"))
    var builder = RequestBuilder(url: url)
    builder.environment = ProcessInfo.processInfo.environment
    builder.base = parsed.value("base")
    builder.target = parsed.value("request-target")
    do {
        if let name = parsed.value("policy") { builder.policy = try runtime.policy(named: name) }
        // --param keys nest as a Lua table's would (u[name]=x, tags[]=a; u.name=x under a
        // policy that writes objects with dots), so the policy writes them its own way;
        // --param-json values are typed.
        let items = parsed.values.compactMap { option -> (text: String, typed: Bool)? in
            guard let value = option.value, option.name == "param" || option.name == "param-json" else { return nil }
            return (value, option.name == "param-json")
        }
        if !items.isEmpty {
            do { builder.params = try CommandLineParameters.read(items, dots: { if case .dots = builder.policy.objects { return true }; return false }()) } catch let failure as CommandLineParameters.Failure {
                throw UsageError(command: "request", message: "--param \(failure)")  // "takes key=value, …" or "'item': why"
            }
        }
        if let placement = parsed.value("params-in") {
            guard let value = RequestBuilder.ParameterPlacement(rawValue: placement) else {
                throw UsageError(command: "request", message: "--params-in must be query or body")
            }
            builder.paramsIn = value
        }
        let jsonData = parsed.rawValues.filter { $0.name == "json" }.compactMap(\.value)
        if !jsonData.isEmpty {
            // curl's --json: the data (or @FILE, @- for standard input) sent as it is, with
            // Content-Type and Accept application/json; several are joined as they are.
            var body: [UInt8] = []
            for data in jsonData {
                if data.first == 0x40 {
                    let name = String(decoding: data.dropFirst(), as: UTF8.self)
                    guard let bytes = name == "-" ? try readAllInput() : Files.read(name) else {
                        throw CommandFailure(message: "pekit request: --json @\(name): cannot read the file")
                    }
                    body += bytes
                } else {
                    let text = String(decoding: data, as: UTF8.self)
                    if (try? JSON.parse(data)) == nil, FileManager.default.fileExists(atPath: text) {
                        throw UsageError(command: "request", message: "--json takes the JSON itself or @FILE, as curl does: for the file, --json @\(text)")
                    }
                    body += data
                }
            }
            builder.body = body
            builder.contentType = "application/json"
            builder.headers.append(("Accept", "application/json"))
        }
        var parts: [MultipartBody.Part] = []
        for spec in parsed.all("file") {
            guard let eq = spec.firstIndex(of: "="), spec[spec.index(after: eq)...].hasPrefix("@") else {
                throw UsageError(command: "request", message: "--file takes field=@path, not '\(spec)'")
            }
            let path = String(spec[spec.index(eq, offsetBy: 2)...])
            parts.append(MultipartBody.Part(name: String(spec[..<eq]), filename: String(path.split(separator: "/").last ?? ""), source: .file(path)))
        }
        for spec in parsed.all("form") { parts.append(try curlFormPart(spec)) }
        if !parts.isEmpty { builder.multipart = parts }
        // As curl: -H @FILE (or @- for standard input) reads header lines from a file, one a line.
        var headerSpecs: [String] = []
        for header in parsed.all("header") {
            guard header.hasPrefix("@") else { headerSpecs.append(header); continue }
            let path = String(header.dropFirst())
            guard let bytes = path == "-" ? try readAllInput() : Files.read(path) else {
                throw CommandFailure(message: "pekit request: -H @\(path): cannot read the file")
            }
            // Lines end in LF or CR LF (split as bytes: Swift reads CR LF as one Character).
            headerSpecs += bytes.split(separator: 0x0A).map { line in
                String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
            }.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
        for header in headerSpecs {
            // As curl: "Name;" sends the header empty; "Name:" with nothing after it removes a
            // default one; otherwise the value is sent as written (one space after the colon
            // is the separator pekit writes again).
            if header.hasSuffix(";"), !header.contains(":") {
                builder.headers.append((String(header.dropLast()), ""))
                continue
            }
            guard let colon = header.firstIndex(of: ":") else { throw UsageError(command: "request", message: "--header takes 'Name: value' (or 'Name;' for an empty one), not '\(header)'") }
            let name = String(header[..<colon])
            var value = Substring(header[header.index(after: colon)...])
            if value.hasPrefix(" ") { value = value.dropFirst() }
            while value.last == " " || value.last == "\t" { value = value.dropLast() }
            builder.headers.append((name, value.trimmingCharacters(in: .whitespaces).isEmpty ? nil : String(value)))
        }
        if let user = parsed.value("user"), !parsed.has("aws-sigv4") {
            let parts = user.split(separator: ":", maxSplits: 1)
            builder.basicAuth = (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        let sending = try isSending(parsed)
        if let jarPath = parsed.value("jar") {
            let jar = CookieJar(publicSuffixes: try PublicSuffixList.loadFromProcessEnvironment(), clock: { Date().timeIntervalSince1970 })
            // A jar file that does not exist yet is where --send will save the first cookies.
            if !(sending && !FileManager.default.fileExists(atPath: jarPath)) {
                let (loaded, warnings) = try jar.load(from: jarPath)
                for warning in warnings { Output.stderr.line("pekit request: warning: \(printable(warning))") }
                if sending && !parsed.has("force") { try refuseToReplace(jarPath, loaded: loaded, skipped: warnings.count, command: "request") }
            }
            builder.jar = jar
        }
        // curl's -b: a cookie string (it has '=') is the Cookie header; otherwise a cookie file
        // to read. -c FILE: the cookies, session ones too, are written there after sending.
        if let cookie = parsed.value("cookie") {
            if cookie.contains("=") {
                builder.headers.append(("Cookie", cookie))
            } else {
                let jar = try builder.jar ?? CookieJar(publicSuffixes: PublicSuffixList.loadFromProcessEnvironment(), clock: { Date().timeIntervalSince1970 })
                let (_, warnings) = try jar.load(from: cookie)
                for warning in warnings { Output.stderr.line("pekit request: warning: \(printable(warning))") }
                builder.jar = jar
            }
        }
        if parsed.value("cookie-jar") != nil, builder.jar == nil {
            builder.jar = CookieJar(publicSuffixes: try PublicSuffixList.loadFromProcessEnvironment(), clock: { Date().timeIntervalSince1970 })
        }
        builder.bodyFile = parsed.value("body-file")
        builder.connect = try parsed.all("connect").map { spec in
            guard let eq = spec.firstIndex(of: "=") else {
                throw UsageError(command: "request", message: "--connect takes NAME:PORT=ADDRESS:PORT, not '\(spec)'")
            }
            return try HostMapping(String(spec[..<eq]), String(spec[spec.index(after: eq)...]), written: "--connect \(spec)")
        }
        builder.connect += try curlMappings(parsed)
        if let agent = parsed.value("user-agent") { builder.headers.append(("User-Agent", agent.isEmpty ? nil : agent)) }
        if let referer = parsed.value("referer") { builder.headers.append(("Referer", referer)) }
        let data = try curlData(parsed)
        if let data {
            if builder.form != nil || builder.json != nil || builder.multipart != nil || builder.bodyFile != nil || builder.body != nil {
                throw UsageError(command: "request", message: "-d/--data… is the body: it cannot go with -F/--form, --json, --file or --body-file")
            }
            if parsed.has("get") {
                // -G: the data goes into the query, as curl puts it there.
                builder.url = URLResolution.appendQuery(String(decoding: data, as: UTF8.self), to: builder.url)
            } else {
                builder.body = data
                builder.contentType = "application/x-www-form-urlencoded"
            }
        }
        let bodies = [builder.multipart != nil, builder.bodyFile != nil, builder.body != nil && data == nil, data != nil && !parsed.has("get")].filter { $0 }.count
        if bodies > 1 { throw UsageError(command: "request", message: "give one body: -d/--data…, --json, -F/--file or --body-file") }
        let hasBody = builder.form != nil || builder.json != nil || builder.multipart != nil || builder.bodyFile != nil || builder.body != nil
        builder.method = parsed.value("method") ?? (parsed.has("head") ? "HEAD" : hasBody ? "POST" : "GET")
        var request = try builder.build()
        if let spec = parsed.value("aws-sigv4") {
            try signAWS(&request, spec: spec, user: parsed.value("user"))
        }
        if let handler { return try handler(request, builder) }
        if sending {
            return try send(request, builder: builder, parsed, output: output)
        }
        if parsed.has("curl") {
            Output.stdout.line(try request.curl())
        } else if parsed.has("describe") {
            Output.stdout.write(JSON.write(request.summary))
            Output.stdout.line("")
        } else {
            Output.stdout.write(try request.raw())
        }
        return 0
    } catch let error as UsageError {
        throw error
    } catch let error as CommandFailure {
        throw error
    } catch let error as HTTPError {
        throw CommandFailure(message: "pekit request: \(error.message(.commandLine))")
    } catch {
        throw CommandFailure(message: "pekit request: \(error)")
    }
}

/// `pekit request --send`: sends with libcurl and prints what came back.
private func send(_ request: HTTPRequest, builder: RequestBuilder, _ parsed: Arguments, output: OutputChoice) throws -> Int32 {
    let delivery = try Delivery(request, builder: builder, parsed, output: output, alone: true)
    return try delivery.finish(Result { try HTTPClient().send(request, options: delivery.options) })
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
private struct Delivery {
    let request: HTTPRequest
    let options: SendOptions
    let finish: (Result<HTTPResponse, Error>) throws -> Int32

    /// - Parameter alone: the only request of the command (progress lines, trace and HAR files
    ///   are per command).
    /// - Parameter heads: where -D FILE collects the heads of several transfers (nil: written now).
    /// - Parameter rate: --rate's pace, shared by the command's transfers.
    init(_ request: HTTPRequest, builder: RequestBuilder, _ parsed: Arguments, output: OutputChoice, alone: Bool,
         heads: HeadDump? = nil, rate: RateLimiter? = nil) throws {
        self.request = request
        var options = SendOptions(cookiesOf: builder)
        options.rate = rate
        options.followRedirects = !parsed.has("no-follow")
        func number(_ name: String) throws -> Double? {
            guard let text = parsed.value(name) else { return nil }
            guard let value = Double(text), SendOptions.secondsRange.contains(value), value > 0 else {
                throw UsageError(command: "request", message: "--\(name) takes a number of seconds more than 0 and at most \(Int(SendOptions.secondsRange.upperBound)), not '\(text)'")
            }
            return value
        }
        if let text = parsed.value("max-redirects") ?? parsed.value("max-redirs") {
            guard let limit = Int(text), SendOptions.redirectRange.contains(limit) else {
                throw UsageError(command: "request", message: "--max-redirects takes a count from 0 to \(SendOptions.redirectRange.upperBound), not '\(text)'")
            }
            options.maxRedirects = limit
        }
        if let text = parsed.value("max-filesize") {
            guard let limit = Int(text), limit >= 0 else {
                throw UsageError(command: "request", message: "--max-filesize takes a number of bytes, not '\(text)'")
            }
            options.maxBody = limit
        }
        options.timeout = try number("timeout") ?? number("max-time")
        if let seconds = try number("connect-timeout") { options.connectTimeout = seconds }
        options.caCertificate = parsed.value("cacert")
        options.insecure = parsed.has("insecure")
        if options.insecure { Output.stderr.line("pekit request: warning: --insecure: TLS certificates and host names are not checked") }
        options.proxy = parsed.value("proxy")
        if parsed.has("http1.1") { options.version = .http1_1 }
        if parsed.has("http2") { options.version = .http2 }
        if let version = parsed.value("http") {
            guard let value = SendOptions.Version(rawValue: version) else { throw UsageError(command: "request", message: "--http takes 1.1 or 2") }
            options.version = value
        }
        options.compressed = parsed.has("compressed")
        // curl's --retry N (--retry-max-time S, --retry-all-errors): idempotent methods only.
        if let text = parsed.value("retry") {
            guard let n = Int(text), (0...100).contains(n) else { throw UsageError(command: "request", message: "--retry takes a count from 0 to 100, not '\(text)'") }
            var policy = RetryPolicy.curl(retries: n)
            policy.maxTime = try number("retry-max-time")
            policy.onAnyError = parsed.has("retry-all-errors")
            options.retry = policy
        } else if parsed.has("retry-max-time") || parsed.has("retry-all-errors") {
            throw UsageError(command: "request", message: "--retry-max-time and --retry-all-errors go with --retry N")
        }
        let verbose = parsed.has("verbose")
        let include = parsed.has("include") || parsed.has("head")
        if verbose {
            options.willRetry = { attempt, cause, wait in
                Output.stderr.line(printable("* retry: attempt \(attempt) after \(cause), waiting \(String(format: "%.1f", wait)) s"))
            }
        }
        // With -f (not --fail-with-body) an error's body is never written, and -i and -w put
        // something before or after it: the body then waits in memory until the end.
        let failQuietly = parsed.has("fail") && !parsed.has("fail-with-body")
        var outputPath: String? = nil
        if case .file(let path) = output { outputPath = path }
        if output == .remoteName {
            // curl's -O: the URL's last path segment, in the current directory.
            let segment = (try? RequestURL(request.url))?.path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
            let name = String(decoding: (try? PercentDecoder(mode: .lenient).decode(bytes: Array(segment.utf8))) ?? Array(segment.utf8), as: UTF8.self)
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
                throw UsageError(command: "request", message: "-O needs a URL that ends in a file name (use -o FILE)")
            }
            outputPath = name
        }
        let writeOut = try parsed.value("write-out").map(WriteOut.parse)
        // -v and --trace-ascii FILE: what libcurl reports, as curl shows it (the trace is written
        // whole at the end, complete or not at all).
        var trace: [UInt8] = []
        let tracePath = parsed.value("trace-ascii")
        if verbose || tracePath != nil {
            options.trace = { event, bytes in
                if verbose { TraceOutput.verbose(event, bytes) }
                if tracePath != nil { trace += TraceOutput.ascii(event, bytes) }
            }
        }
        // --har FILE: every exchange of the chain, written whole at the end (also after a failure).
        let har = parsed.value("har").map { _ in HARLog() }
        if let har { options.record = { har.add($0, $1, started: $2) } }
        // A download to a file shows its progress when standard error is a terminal (--progress:
        // always, --no-progress: never); not for transfers running at once, whose lines would fight.
        let progressLine = alone && (parsed.has("progress") || (outputPath != nil && outputPath != "-" && isatty(STDERR_FILENO) != 0)) && !parsed.has("no-progress") ? ProgressLine() : nil
        if let progressLine { options.progress = { progressLine.update($0) } }
        // As curl: a body that is not text is not written to a terminal unless asked (-o -).
        let toTerminal = outputPath == nil && isatty(STDOUT_FILENO) != 0
        if outputPath == "-" { outputPath = nil }
        // Several at once write to standard output only at the end, one after another.
        let held = failQuietly || include || writeOut != nil || toTerminal || (!alone && outputPath == nil)
        if held { options.sink = .memory }
        else if let path = outputPath { options.sink = .file(path) }
        else { options.sink = .custom { Output.stdout.write($0) } }
        self.options = options
        finish = { result in
            defer {
                if let har, let path = parsed.value("har") { try? Files.writeAtomically(har.json(), to: path, mode: 0o644) }
            }
            defer {
                if let tracePath {
                    if tracePath == "-" { Output.stdout.write(trace) } else { try? Files.writeAtomically(trace, to: tracePath, mode: 0o644) }
                }
            }
            defer { progressLine?.finish() }
            let response: HTTPResponse
            do { response = try result.get() } catch {
                // As curl: -w is written for a transfer that failed too (%{http_code} is 000).
                if let writeOut {
                    var none = HTTPResponse()
                    none.url = request.url
                    none.method = request.method
                    Output.stdout.write(writeOut.render(none))
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
                if let path = parsed.value("jar") { try jar.save(to: path, sessions: true) }
                if let path = parsed.value("cookie-jar") { try jar.save(to: path, sessions: true) }
            }
            // As curl -f: an HTTP error is a failure (exit 22) and its body is not printed; with
            // --fail-with-body it is.
            let failed = (parsed.has("fail") || parsed.has("fail-with-body")) && response.status >= 400
            if failed && failQuietly {
                if !parsed.has("silent") || parsed.has("show-error") {
                    Output.stderr.line("pekit request: the server answered \(response.status)\(response.reason.isEmpty ? "" : " " + printable(response.reason)) (--fail)")
                }
                // As curl: -w is still written (a script reads %{http_code} to learn why).
                if let writeOut { Output.stdout.write(writeOut.render(response)) }
                return 22
            }
            func head(escaped: Bool) -> String {
                let shown = { (text: String) in escaped ? printable(text) : text }
                var text = "HTTP/\(response.httpVersion) \(response.status)\(response.reason.isEmpty ? "" : " " + shown(response.reason))\r\n"
                for field in response.headers { text += "\(shown(field.name)): \(shown(field.value.description))\r\n" }
                return text + "\r\n"
            }
            if let path = parsed.value("dump-header") {
                // curl's -D: the final response's status line and header fields, as they came (with
                // several URLs, each one's in turn, written once at the end).
                if path == "-" { Output.stdout.write(head(escaped: false)) } else if let heads { heads.text += head(escaped: false) } else {
                    try Files.writeAtomically(Array(head(escaped: false).utf8), to: path, mode: 0o644)
                }
            }
            if toTerminal, !UTF8Validation.isValid(response.body) || response.body.contains(0) {
                Output.stderr.line("pekit request: the body is binary (\(response.body.count) bytes) and would mess up the terminal: use -o FILE, or -o - to write it here anyway")
                return 1
            }
            if held {
                // As curl -i: the head as it came, but escaped when a person reads it on a terminal.
                let shownHead = include ? Array(head(escaped: outputPath == nil && isatty(STDOUT_FILENO) != 0).utf8) : []
                if let path = outputPath {
                    try Files.writeAtomically(shownHead + response.body, to: path, mode: 0o644)
                } else {
                    Output.stdout.write(shownHead)
                    Output.stdout.write(response.body)
                }
            }
            if let writeOut { Output.stdout.write(writeOut.render(response)) }
            return failed ? 22 : 0
        }
    }
}

/// The options that only mean something when the request is sent.
private let sendOnlyOptions = ["include", "output", "verbose", "no-follow", "max-redirects", "max-redirs", "timeout", "max-time",
                               "connect-timeout", "cacert", "insecure", "proxy", "http", "compressed", "fail", "fail-with-body",
                               "max-filesize", "head", "location", "silent", "show-error", "cookie-jar", "remote-name", "dump-header",
                               "write-out", "trace-ascii", "har", "retry", "retry-max-time", "retry-all-errors", "http1.1", "http2", "progress",
                               "no-progress", "parallel", "parallel-max", "rate"]

/// Whether the command sends: --send, or any option that only sending has (-i, -o, -I, -L, -f,
/// …), as the same curl command would. With --raw, --curl or --describe, which only show the
/// request, such an option is an error rather than silently ignored.
private func isSending(_ parsed: Arguments) throws -> Bool {
    let sendOnly = sendOnlyOptions.filter { parsed.has($0) }
    let showing = ["raw", "curl", "describe"].filter { parsed.has($0) }
    if let option = sendOnly.first, let shown = showing.first {
        throw UsageError(command: "request", message: "--\(option) is for sending, and --\(shown) only shows the request: leave one out")
    }
    if parsed.has("send"), let shown = showing.first {
        throw UsageError(command: "request", message: "--send and --\(shown) cannot go together")
    }
    return parsed.has("send") || !sendOnly.isEmpty
}

/// A part of curl's -F/--form: `name=value`, `name=@file` (a file part, named by the file),
/// `name=<file` (a text part read from the file), with `;type=` and `;filename=` after.
private func curlFormPart(_ spec: String) throws -> MultipartBody.Part {
    guard let eq = spec.firstIndex(of: "="), eq != spec.startIndex else {
        throw UsageError(command: "request", message: "-F/--form takes name=value, name=@file or name=<file, not '\(spec)'")
    }
    let name = String(spec[..<eq])
    var rest = String(spec[spec.index(after: eq)...])
    var type: String?, filename: String?
    // curl reads a value in double quotes as one piece, with \" and \\ inside ("a;b", "x\"y").
    if rest.hasPrefix("\"") {
        var value = "", escaped = false, end: String.Index?
        var i = rest.index(after: rest.startIndex)
        while i < rest.endIndex {
            let c = rest[i]
            if escaped { value.append(c); escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { end = i; break } else { value.append(c) }
            i = rest.index(after: i)
        }
        guard let end else { throw UsageError(command: "request", message: "-F \(spec): a \" is not closed") }
        let after = rest[rest.index(after: end)...]
        if let semicolon = after.range(of: ";type=") { type = String(after[semicolon.upperBound...]) }
        return MultipartBody.Part(name: name, contentType: type, source: .data(Array(value.utf8)))
    }
    let isFile = rest.hasPrefix("@"), isText = rest.hasPrefix("<")
    if isFile || isText {
        // For a file, ";type=" and ";filename=" follow the path.
        var pieces = rest.dropFirst().components(separatedBy: ";")
        rest = pieces.removeFirst()
        for piece in pieces {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            if trimmed.lowercased().hasPrefix("type=") { type = String(trimmed.dropFirst(5)) }
            else if trimmed.lowercased().hasPrefix("filename=") { filename = String(trimmed.dropFirst(9)) }
            else { throw UsageError(command: "request", message: "-F \(spec): '\(trimmed)' is not type= or filename=") }
        }
    } else if let semicolon = rest.range(of: ";type=") {
        type = String(rest[semicolon.upperBound...])
        rest = String(rest[..<semicolon.lowerBound])
    }
    if isFile {
        // curl's own guess from the file name, else application/octet-stream.
        let guessed = ["gif": "image/gif", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "svg": "image/svg+xml",
                       "txt": "text/plain", "htm": "text/html", "html": "text/html", "pdf": "application/pdf", "xml": "application/xml"]
        let ext = (rest.split(separator: "/").last ?? "").split(separator: ".").last.map { $0.lowercased() } ?? ""
        return MultipartBody.Part(name: name, filename: filename ?? String(rest.split(separator: "/").last ?? ""),
                                  contentType: type ?? guessed[ext] ?? "application/octet-stream", source: .file(rest))
    }
    if isText {
        guard let bytes = rest == "-" ? try readAllInput() : Files.read(rest) else {
            throw CommandFailure(message: "pekit request: -F \(name)=<\(rest): cannot read the file")
        }
        return MultipartBody.Part(name: name, filename: filename, contentType: type, source: .data(bytes))
    }
    return MultipartBody.Part(name: name, contentType: type, source: .data(Array(rest.utf8)))
}

/// curl's --connect-to HOST1:PORT1:HOST2:PORT2 and --resolve HOST:PORT:ADDRESS as mappings.
private func curlMappings(_ parsed: Arguments) throws -> [HostMapping] {
    func split(_ spec: String) -> [String] {
        // IPv6 addresses are in brackets: split at the colons outside them.
        var parts: [String] = [], current = "", depth = 0
        for c in spec {
            if c == "[" { depth += 1 } else if c == "]" { depth -= 1 }
            if c == ":" && depth == 0 { parts.append(current); current = "" } else { current.append(c) }
        }
        return parts + [current]
    }
    func port(_ text: String, _ option: String, _ spec: String) throws -> Int? {
        if text.isEmpty { return nil }
        guard let n = Int(text), (1...65535).contains(n) else { throw UsageError(command: "request", message: "--\(option) \(spec): '\(text)' is not a port") }
        return n
    }
    func host(_ text: String) -> String { text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text }
    var out: [HostMapping] = []
    for spec in parsed.all("connect-to") {
        let p = split(spec)
        guard p.count == 4, !p[2].isEmpty || !p[3].isEmpty else { throw UsageError(command: "request", message: "--connect-to takes HOST1:PORT1:HOST2:PORT2, not '\(spec)'") }
        out.append(HostMapping(host: host(p[0]), port: try port(p[1], "connect-to", spec), address: host(p[2].isEmpty ? p[0] : p[2]),
                               addressPort: try port(p[3], "connect-to", spec)))
    }
    for spec in parsed.all("resolve") {
        let p = split(spec)
        guard p.count == 3, !p[0].isEmpty, !p[2].isEmpty else { throw UsageError(command: "request", message: "--resolve takes HOST:PORT:ADDRESS, not '\(spec)'") }
        let n = try port(p[1], "resolve", spec)
        out.append(HostMapping(host: host(p[0]), port: n, address: host(p[2]), addressPort: n))
    }
    return out
}

/// The body curl's -d/--data, --data-ascii, --data-raw, --data-binary and --data-urlencode make,
/// in the order given, joined with '&'; nil when none was given.
private func curlData(_ parsed: Arguments) throws -> [UInt8]? {
    let names = ["data", "data-ascii", "data-raw", "data-binary", "data-urlencode"]
    let given = parsed.rawValues.filter { names.contains($0.name) }
    guard !given.isEmpty else { return nil }
    func file(_ path: [UInt8], _ option: String) throws -> [UInt8] {
        let name = String(decoding: path, as: UTF8.self)
        if name == "-" { return try readAllInput() }
        guard let bytes = Files.read(name) else { throw CommandFailure(message: "pekit request: --\(option) @\(name): cannot read the file") }
        return bytes
    }
    var parts: [[UInt8]] = []
    for (name, value) in given {
        let v = value ?? []
        switch name {
        case "data", "data-ascii":
            // As curl: @FILE is read with its CR and LF bytes left out.
            parts.append(v.first == 0x40 ? try file(Array(v.dropFirst()), name).filter { $0 != 0x0D && $0 != 0x0A } : v)
        case "data-binary":
            parts.append(v.first == 0x40 ? try file(Array(v.dropFirst()), name) : v)
        case "data-urlencode":
            // curl's five forms: content, =content, name=content, @file, name@file.
            let equals = v.firstIndex(of: 0x3D), at = v.firstIndex(of: 0x40)
            if let at, equals.map({ at < $0 }) ?? true {
                let content = try file(Array(v[(at + 1)...]), name)
                parts.append(at == 0 ? curlEscape(content) : Array(v[..<at]) + [0x3D] + curlEscape(content))
            } else if let equals {
                parts.append(equals == 0 ? curlEscape(Array(v.dropFirst())) : Array(v[...equals]) + curlEscape(Array(v[(equals + 1)...])))
            } else {
                parts.append(curlEscape(v))
            }
        default:
            parts.append(v)
        }
    }
    return Array(parts.joined(separator: [0x26]))
}

/// What curl's --data-urlencode writes: ALPHA, DIGIT and -._~ as they are, a space as '+',
/// everything else as %XX (upper case).
private func curlEscape(_ bytes: [UInt8]) -> [UInt8] {
    PercentEncoder(allowed: .unreserved, space: .plus).encode(bytes: bytes)
}

/// `--aws-sigv4 aws:amz:REGION:SERVICE` with `-u KEY:SECRET`, as curl takes them.
private func signAWS(_ request: inout HTTPRequest, spec: String, user: String?) throws {
    let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard parts.count >= 1, parts.count <= 4, parts[0].lowercased() == "aws", parts.count < 2 || parts[1].lowercased() == "amz" else {
        throw UsageError(command: "request", message: "--aws-sigv4 takes aws:amz:REGION:SERVICE (AWS Signature V4), not '\(spec)'")
    }
    guard let user, let colon = user.firstIndex(of: ":"), colon != user.startIndex, user.index(after: colon) != user.endIndex else {
        throw UsageError(command: "request", message: "--aws-sigv4 needs -u ACCESS_KEY:SECRET_KEY")
    }
    var region = parts.count > 2 ? parts[2] : ""
    var service = parts.count > 3 ? parts[3] : ""
    if region.isEmpty || service.isEmpty {
        // As curl does: SERVICE.REGION.amazonaws.com names both.
        let labels = (try RequestURL(request.url)).host.split(separator: ".").map(String.init)
        guard labels.count >= 4, labels.suffix(2) == ["amazonaws", "com"] else {
            throw UsageError(command: "request", message: "--aws-sigv4: give the region and service (aws:amz:REGION:SERVICE); they cannot be read from this host")
        }
        if service.isEmpty { service = labels[labels.count - 4] }
        if region.isEmpty { region = labels[labels.count - 3] }
    }
    let signer = AWSSigV4(accessKey: String(user[..<colon]), secretKey: String(user[user.index(after: colon)...]),
                          sessionToken: request.headers["X-Amz-Security-Token"], region: region, service: service)
    try signer.sign(&request, at: Date().timeIntervalSince1970.rounded(.down))
}
