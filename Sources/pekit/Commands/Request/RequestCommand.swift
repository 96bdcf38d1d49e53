import Foundation
import PekitCore
import PekitCrypto
import PekitHTTP

let requestCommand = Command(
    name: "request",
    summary: "build an HTTP request; print it raw, as a curl command or as JSON, or send it",
    help: """
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

    options:
      -X, --method M    the method (default GET; POST when a body is given)
      --policy P        the encoding policy for the query and form body (default rfc3986)
      --param k=v       a parameter (repeat); keys nest as a Lua table's would (u[name]=x,
                        tags[]=a, m[0][k]=v; u.name=x under a policy with dotted objects), and
                        the policy writes them its own way (rack: u[name]=x, php: tags[0]=a),
                        in its key order; a key given twice is a list (roles=a roles=b is
                        roles[]=a&roles[]=b, or roles=a&roles=b under qs-repeat)
      --param-json k=J  a parameter with a typed JSON value (n=1, flag=true, u={"name":"x"})
      --params-in W     query or body, to override the method's default
      -F, --form SPEC   a multipart/form-data part, as curl's -F: name=value, name=@file (a
                        file part; its type guessed from the name as curl does), name=<file (a
                        text part from the file), each with ;type=… and ;filename=… (repeat)
      --json DATA       a JSON body, as curl's --json: DATA as written, or @FILE (@- for
                        standard input); Content-Type and Accept application/json
      --file f=@path    a multipart file part (repeat; -F f=@path says the same)
      --body-file PATH  a raw body streamed from PATH (any size, bounded memory)
      -H, --header 'K: V'  a header (repeat, repeats kept; as curl: 'K:' removes a default one,
                        'K;' sends it empty, the line goes as written, 'X-A:1' as X-A:1; @FILE
                        reads one a line). pekit's fields are curl's, in curl's order: Host,
                        User-Agent: pekit/VERSION, Accept: */*; a policy adds its backend's
                        (afnetworking: Accept-Language from LANGUAGE/LANG, en;q=1 under C):
                        -H 'Accept-Language: en' fixes it in any locale
      --jar FILE        add the Cookie header from this cookie jar file; with --send, cookies
                        that come back are saved to it too (created when missing; locked from
                        loading to saving; a file that is not a jar is not replaced without
                        --force)
      --filter NAME[:OPTIONS]  a cookie-filter plugin on the jar (--jar's, -b's, or one in
                        memory), as pekit cookies --filter takes it (repeat; in order):
                        --filter 'httpdns:hosts=203.0.113.7=api.example.com'
      --connect N:P=A:Q send requests for host N port P to address A port Q, keeping the name
                        for Host, TLS and cookies (curl's --connect-to; repeat)
      --base URL        resolve a relative URL against this base
      --url URL         the URL, as curl's --url (instead of giving it alone)
      -g, --globoff     send the URL as written: without it, as curl, \\[ \\] \\{ \\} are brackets
                        and braces (the backslash goes), and a glob curl would expand into
                        several URLs ({a,b}, [1-5]) is refused
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
      --color WHEN      auto (the default): on a terminal, a JSON body is indented and coloured
                        as jq shows it, and -i's and -v's status lines and header names are
                        coloured (not when NO_COLOR is set); in a pipe or a file, the bytes as
                        they came. always: styled anywhere (for less -R); never: no colours
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
                        %{time_appconnect}, %{time_starttransfer}, %{time_total}, %{urlnum},
                        %{json} (all of these), %{header_json} (the fields), %header{NAME};
                        \\n \\t \\\\ %% (an unknown variable is an error, before anything is sent)
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
                        tools open; mode 0600, sanitized as Chrome exports it (no Authorization,
                        Proxy-Authorization, Cookie or Set-Cookie values, no cookie lists)
      --har-with-secrets  keep those values in the HAR
      --no-follow       do not follow redirects (pekit follows up to 10 by default, where curl
                        follows only with -L, which pekit accepts)
      -L, --location    follow redirects (the default)
      --max-redirects N follow at most N redirects (also --max-redirs N, curl's name)
      --max-filesize N  fail when the response body is larger than N bytes (default with -i:
                        1 GiB, since the body is then held in memory; none when streamed)
      -4, --ipv4        resolve names to IPv4 addresses only;  -6, --ipv6  IPv6 only
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

func runRequest(_ args: [[UInt8]]) throws -> Int32 { try runRequest(args, built: nil) }

/// What `pekit import curl` does with the request a command line builds, instead of printing
/// or sending it.
typealias BuiltRequestHandler = (HTTPRequest, RequestBuilder, Arguments) throws -> Int32

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
final class HeadDump {
    var text = ""
}

/// Each -o FILE and -O, in the order given (curl pairs them with the URLs in order).
func outputChoices(_ parsed: Arguments, urls: Int) throws -> [OutputChoice] {
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
func runSeveral(_ parsed: Arguments, urls: [String], _ handler: BuiltRequestHandler?) throws -> Int32 {
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
        for (number, (url, output)) in zip(urls, choices).enumerated() {
            report(url) {
                try buildAndRun(parsed, url: url, output: output) { request, builder, _ in
                    let delivery = try Delivery(request, builder: builder, parsed, output: output, alone: true, heads: heads, rate: rate, urlnum: number)
                    return try delivery.finish(Result { try client.send(request, options: delivery.options) })
                }
            }
        }
        return finished()
    }
    // -Z: every request built first (a usage error stops the command before anything is sent).
    var deliveries: [Delivery] = []
    for (number, (url, output)) in zip(urls, choices).enumerated() {
        _ = try buildAndRun(parsed, url: url, output: output) { request, builder, _ in
            deliveries.append(try Delivery(request, builder: builder, parsed, output: output, alone: false, heads: heads, rate: rate, urlnum: number))
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

