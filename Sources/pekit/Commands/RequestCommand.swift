import Foundation
import PekitCore
import PekitCrypto
import PekitHTTP
import PekitLua

let requestCommand = Command(
    name: "request",
    summary: "build an HTTP request; print it raw, as a curl command or as JSON, or send it",
    help: """
    usage: pekit request [-X M] [--policy P] [--param k=v]... [--params-in query|body] [--json FILE]
                         [--form k=v]... [--file field=@path]... [--body-file PATH] [-H 'K: V']...
                         [-u USER:PASSWORD] [--aws-sigv4 aws:amz:REGION:SERVICE -u KEY:SECRET]
                         [--jar FILE [--force]] [--base URL]
                         [--connect NAME:PORT=ADDRESS:PORT]... [--request-target TARGET]
                         [--raw | --curl | --describe | --send [send options]] URL

    Builds the request the way AFNetworking's serializer does, done right: --param values go into
    the query for GET, HEAD and DELETE and into a form body otherwise (--params-in query|body to
    force), encoded with the policy. Prints the exact HTTP/1.1 message (--raw, the default), one
    shell-safe curl command that sends the same bytes (--curl), or a JSON description (--describe).

    options:
      -X, --method M    the method (default GET; POST when a body is given)
      --policy P        the encoding policy for the query and form body (default rfc3986)
      --param k=v       a parameter (repeat; keys may nest: a[b]=1 is written as the policy says)
      --params-in W     query or body, to override the method's default
      --form k=v        a form body field (repeat)
      --json FILE       a JSON body from FILE ('-' for standard input)
      --file f=@path    a multipart file part (repeat; makes the body multipart/form-data)
      --body-file PATH  a raw body streamed from PATH (any size, bounded memory)
      -H, --header 'K: V'  a header (repeat; 'K:' with no value removes a default one). The
                        default Accept-Language follows LANGUAGE/LANG (en;q=1 under C, en-US;q=1
                        under en_US.UTF-8): -H 'Accept-Language: en' fixes it in any locale
      --jar FILE        add the Cookie header from this cookie jar file; with --send, cookies
                        that come back are saved to it too (created when missing; locked from
                        loading to saving; a file that is not a jar is not replaced without
                        --force)
      --connect N:P=A:Q send requests for host N port P to address A port Q, keeping the name
                        for Host, TLS and cookies (curl's --connect-to; repeat)
      --base URL        resolve a relative URL against this base
      --request-target T  send T as the request target exactly as given ('/a b', '*', an
                        absolute URL) instead of the URL's path and query, to test how a server
                        reads it (curl's flag; CR, LF and NUL are refused; not kept on redirects)
      -u, --user U:P    Basic authentication
      --aws-sigv4 aws:amz:REGION:SERVICE  sign with AWS Signature V4 (curl's flag) as botocore
                        signs, with -u ACCESS_KEY:SECRET_KEY; a session token goes in
                        -H 'X-Amz-Security-Token: …'; REGION and SERVICE may be left out for
                        SERVICE.REGION.amazonaws.com hosts
      --plugins DIR     search DIR for plugins first
      -h, --help        show this help

    sending (--send): the response body goes to standard output; the exit status is 0 for any
    HTTP status (--fail: 22 for 400 and above, as curl -f), 1 when the transfer fails.
      -i, --include     print the status line and header fields first
      --fail            exit 22 when the status is 400 or more (the body is still printed)
      -o, --output FILE write the body to FILE (complete or not at all)
      -v, --verbose     print each redirect, the address and the timings to standard error
      --no-follow       do not follow redirects (default: follow up to --max-redirects, 10)
      --max-redirects N follow at most N redirects
      --max-filesize N  fail when the response body is larger than N bytes (default with -i:
                        1 GiB, since the body is then held in memory; none when streamed)
      --timeout S       give up after S seconds in all;  --connect-timeout S  to connect (30)
      --cacert FILE     trust the CAs in FILE;  -k, --insecure  do not check certificates
      --proxy URL       use this proxy ('' for none; default: http_proxy, HTTPS_PROXY, NO_PROXY…)
      --http V          1.1 or 2;  --compressed  ask for and decode a compressed body

    examples:
      pekit request --policy afnetworking --param 'tags[]=a b' https://api.example.com/items
      pekit request -X POST --param q=1 --curl https://api.example.com/search
      pekit request --send -i --jar jar.txt https://example.com/
    """,
    run: runRequest
)

private func runRequest(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try Arguments(args, command: "request", options: [
        .init(name: "method", short: "X", takesValue: true), .init(name: "policy", short: nil, takesValue: true),
        .init(name: "param", short: nil, takesValue: true), .init(name: "params-in", short: nil, takesValue: true),
        .init(name: "form", short: nil, takesValue: true), .init(name: "json", short: nil, takesValue: true),
        .init(name: "file", short: nil, takesValue: true), .init(name: "header", short: "H", takesValue: true),
        .init(name: "jar", short: nil, takesValue: true), .init(name: "base", short: nil, takesValue: true),
        .init(name: "user", short: "u", takesValue: true), .init(name: "body-file", short: nil, takesValue: true),
        .init(name: "connect", short: nil, takesValue: true), .init(name: "send", short: nil, takesValue: false),
        .init(name: "include", short: "i", takesValue: false), .init(name: "output", short: "o", takesValue: true),
        .init(name: "verbose", short: "v", takesValue: false), .init(name: "no-follow", short: nil, takesValue: false),
        .init(name: "max-redirects", short: nil, takesValue: true), .init(name: "timeout", short: nil, takesValue: true),
        .init(name: "connect-timeout", short: nil, takesValue: true), .init(name: "cacert", short: nil, takesValue: true),
        .init(name: "insecure", short: "k", takesValue: false), .init(name: "proxy", short: nil, takesValue: true),
        .init(name: "http", short: nil, takesValue: true), .init(name: "compressed", short: nil, takesValue: false),
        .init(name: "fail", short: nil, takesValue: false), .init(name: "force", short: nil, takesValue: false),
        .init(name: "max-filesize", short: nil, takesValue: true), .init(name: "aws-sigv4", short: nil, takesValue: true),
        .init(name: "raw", short: nil, takesValue: false), .init(name: "curl", short: nil, takesValue: false),
        .init(name: "describe", short: nil, takesValue: false), .init(name: "request-target", short: nil, takesValue: true), pluginsOption, .init(name: "help", short: "h", takesValue: false),
    ])
    if parsed.has("help") { Output.stdout.line(requestCommand.help); return 0 }
    guard parsed.positionals.count == 1, let url = parsed.positionals.first else {
        throw UsageError(command: "request", message: parsed.positionals.isEmpty ? "give a URL" : "give one URL")
    }
    try parsed.requireTextPaths(command: "request", options: ["jar", "body-file", "output", "file", "cacert"])
    // Sending with a jar file is a read-change-write of it: under its lock, so that requests
    // sharing a jar at once merge their cookies (they run one after another) instead of each
    // writing back what it read.
    if let jarPath = parsed.value("jar"), parsed.has("send") {
        do { return try Files.withLock(jarPath) { try buildAndRun(parsed, url: url) } } catch let error as CookieError {
            throw CommandFailure(message: "pekit request: \(error)")
        }
    }
    return try buildAndRun(parsed, url: url)
}

private func buildAndRun(_ parsed: Arguments, url: String) throws -> Int32 {
    let runtime = try makeRuntime(extraPluginDirectories: parsed.all("plugins"))
    var builder = RequestBuilder(url: url)
    builder.environment = ProcessInfo.processInfo.environment
    builder.base = parsed.value("base")
    builder.target = parsed.value("request-target")
    func pairs(_ option: String) throws -> PekitValue? {
        let items = parsed.all(option)
        guard !items.isEmpty else { return nil }
        return .array(try items.map { item in
            guard let eq = item.firstIndex(of: "=") else { throw UsageError(command: "request", message: "--\(option) takes key=value, not '\(item)'") }
            return .array([.text(String(item[..<eq])), .text(String(item[item.index(after: eq)...]))])
        })
    }
    do {
        if let name = parsed.value("policy") { builder.policy = try runtime.policy(named: name) }
        builder.params = try pairs("param")
        builder.form = try pairs("form")
        if let placement = parsed.value("params-in") {
            guard let value = RequestBuilder.ParameterPlacement(rawValue: placement) else {
                throw UsageError(command: "request", message: "--params-in must be query or body")
            }
            builder.paramsIn = value
        }
        if let file = parsed.value("json") {
            let bytes = file == "-" ? try readAllInput() : (Files.read(file) ?? { () -> [UInt8] in [] }())
            guard file == "-" || Files.read(file) != nil else { throw CommandFailure(message: "pekit request: \(file): cannot read the file") }
            builder.json = try JSON.parse(bytes)
        }
        let files = parsed.all("file")
        if !files.isEmpty {
            builder.multipart = try files.map { spec in
                guard let eq = spec.firstIndex(of: "="), spec[spec.index(after: eq)...].hasPrefix("@") else {
                    throw UsageError(command: "request", message: "--file takes field=@path, not '\(spec)'")
                }
                let path = String(spec[spec.index(eq, offsetBy: 2)...])
                return MultipartBody.Part(name: String(spec[..<eq]), filename: String(path.split(separator: "/").last ?? ""), source: .file(path))
            }
        }
        for header in parsed.all("header") {
            guard let colon = header.firstIndex(of: ":") else { throw UsageError(command: "request", message: "--header takes 'Name: value', not '\(header)'") }
            let name = String(header[..<colon])
            let value = String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            builder.headers.append((name, value.isEmpty ? nil : value))
        }
        if let user = parsed.value("user"), !parsed.has("aws-sigv4") {
            let parts = user.split(separator: ":", maxSplits: 1)
            builder.basicAuth = (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        let sending = parsed.has("send")
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
        builder.bodyFile = parsed.value("body-file")
        builder.connect = try parsed.all("connect").map { spec in
            guard let eq = spec.firstIndex(of: "=") else {
                throw UsageError(command: "request", message: "--connect takes NAME:PORT=ADDRESS:PORT, not '\(spec)'")
            }
            return try HostMapping(String(spec[..<eq]), String(spec[spec.index(after: eq)...]), written: "--connect \(spec)")
        }
        let hasBody = builder.form != nil || builder.json != nil || builder.multipart != nil || builder.bodyFile != nil
        builder.method = parsed.value("method") ?? (hasBody ? "POST" : "GET")
        var request = try builder.build()
        if let spec = parsed.value("aws-sigv4") {
            try signAWS(&request, spec: spec, user: parsed.value("user"))
        }
        if sending {
            return try send(request, builder: builder, parsed)
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
private func send(_ request: HTTPRequest, builder: RequestBuilder, _ parsed: Arguments) throws -> Int32 {
    var options = SendOptions(cookiesOf: builder)
    options.followRedirects = !parsed.has("no-follow")
    func number(_ name: String) throws -> Double? {
        guard let text = parsed.value(name) else { return nil }
        guard let value = Double(text), SendOptions.secondsRange.contains(value), value > 0 else {
            throw UsageError(command: "request", message: "--\(name) takes a number of seconds more than 0 and at most \(Int(SendOptions.secondsRange.upperBound)), not '\(text)'")
        }
        return value
    }
    if let text = parsed.value("max-redirects") {
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
    options.timeout = try number("timeout")
    if let seconds = try number("connect-timeout") { options.connectTimeout = seconds }
    options.caCertificate = parsed.value("cacert")
    options.insecure = parsed.has("insecure")
    if options.insecure { Output.stderr.line("pekit request: warning: --insecure: TLS certificates and host names are not checked") }
    options.proxy = parsed.value("proxy")
    if let version = parsed.value("http") {
        guard let value = SendOptions.Version(rawValue: version) else { throw UsageError(command: "request", message: "--http takes 1.1 or 2") }
        options.version = value
    }
    options.compressed = parsed.has("compressed")
    let verbose = parsed.has("verbose")
    let include = parsed.has("include")
    // The body streams to the file or standard output; with -i the head comes first, so the
    // body waits in memory.
    if let path = parsed.value("output") { options.sink = .file(path) }
    else if include { options.sink = .memory }
    else { options.sink = .custom { Output.stdout.write($0) } }
    let response = try HTTPClient().send(request, options: options)
    if verbose {
        for hop in response.redirects { Output.stderr.line(printable("< \(hop.status) \(hop.method) \(hop.url) -> \(hop.location)")) }
        let t = response.timing
        Output.stderr.line(printable("< \(response.status) \(response.method) \(response.url) from \(response.remoteAddress):\(response.remotePort)"))
        Output.stderr.line(String(format: "  dns %.3f  connect %.3f  tls %.3f  first byte %.3f  total %.3f s", t.dns, t.connect, t.tls, t.firstByte, t.total))
    }
    if include {
        // As curl -i: the head as it came, but escaped when a person reads it on a terminal.
        let terminal = isatty(STDOUT_FILENO) != 0
        let shown = { (text: String) in terminal ? printable(text) : text }
        var head = "HTTP/\(response.httpVersion) \(response.status)\(response.reason.isEmpty ? "" : " " + shown(response.reason))\r\n"
        for field in response.headers { head += "\(shown(field.name)): \(shown(field.value.description))\r\n" }
        Output.stdout.write(head + "\r\n")
        Output.stdout.write(response.body)
    }
    if let jar = builder.jar, let path = parsed.value("jar") { try jar.save(to: path, sessions: true) }
    return parsed.has("fail") && response.status >= 400 ? 22 : 0
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
