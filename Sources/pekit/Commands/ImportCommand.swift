import Foundation
import PekitCore
import PekitLua
import PekitHTTP
import PekitTools

let importCommand = Command(
    name: "import",
    summary: "turn a copied curl command (\"Copy as cURL\") into a pekit Lua script, or send it; a .http or .hurl file or a Postman collection into tests",
    synopsis: """
    usage: pekit import curl [--policy P] [--send | --words] ['curl …' | -]
           pekit import http FILE.http  |  pekit import hurl FILE.hurl  |  pekit import postman FILE.json

    Reads a curl command as browsers' developer tools (Chrome, Firefox, Safari, Edge) and
    proxies or API tools (Charles, Proxyman, Postman, Insomnia) copy it — POSIX shell quoting
    with $'…' and line continuations, the Windows cmd form (^) and the PowerShell form (`) —
    from the argument or standard input, and prints an equivalent Lua script (pekit.request{…},
    the query's parameters as a table where they read back the same, the cookies in a jar
    where it writes the same Cookie header back, and curl's own default headers, so the
    script sends what the command sends, byte for byte: curl's own User-Agent, the fields in
    curl's order, bodies from files as file references), or sends it (--send, which takes every
    send option of pekit request, -i, -o, --har… included). Each curl flag becomes its Lua field
    (connect, compressed, insecure, cacert, timeout, max_redirects, max_body, proxy, retry,
    sink, follow: curl follows redirects only with -L); a flag the script cannot carry is named
    in it.
    """,
    sections: { [HelpSection("options:", ImportOptions.own),
                 HelpSection("""
                     send options (with --send), as pekit request takes them (see its help); they are added
                     to the command's own flags, after them:
                     """, compact: sendOnlyOptions)] },
    epilogue: """
    examples:
      pekit import curl "curl 'https://api.example.com/items?page=2' -H 'accept: application/json'"
      pbpaste | pekit import curl -            # macOS;  xclip -o | pekit import curl -  on Linux
      pekit import curl --send < copied.txt
      pekit import curl --policy rack "curl 'https://h/s?u[name]=ada&tags[]=a&tags[]=b'"
      pekit import http api.http > api_test.lua   # a .http file as the test file pekit test runs (docs/collections.md)
      pekit import hurl api.hurl > api_test.lua   # a Hurl file likewise
      pekit import postman api.postman_collection.json > api_test.lua   # a Postman collection (v2.0, v2.1)
    """,
    run: runImport
)

/// `pekit import`'s own options; with --send it takes `pekit request`'s send options too.
enum ImportOptions {
    static let policy = Option("policy", value: "P", """
        read the query's parameters back as P writes them (rack: u[name]=x and
        tags[]=a become nested tables) and name P in the script; default rfc3986
        """)
    static let send = Option("send", "send the request instead of printing the script, with any send option below")
    static let words = Option("words", """
        print the command's words as the shell would hand them to curl, each
        ended by a NUL byte (to check how a command is read)
        """)
    static let own: [Option] = [policy, send, words, .help]
}

/// Send options of the command line that a script cannot carry: they are named in it.
private let notCarried: Set<String> = Set([RequestOptions.include, RequestOptions.noInclude, RequestOptions.continueAt, RequestOptions.proxyUser, RequestOptions.etagSave, RequestOptions.verbose, RequestOptions.writeOut, RequestOptions.dumpHeader,
                                            RequestOptions.traceAscii, RequestOptions.remoteName, RequestOptions.remoteHeaderName, RequestOptions.outputDir, RequestOptions.har, RequestOptions.harWithSecrets,
                                            RequestOptions.cookieJar, RequestOptions.failWithBody, RequestOptions.progress, RequestOptions.noProgress,
                                            RequestOptions.parallel, RequestOptions.parallelMax, RequestOptions.rate].map(\.name))

private func runImport(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try importCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(importCommand.help); return 0 }
    if let format = parsed.positionals.first, CollectionFile.formats.contains(format) { return try importCollection(parsed) }
    guard parsed.positionals.first == "curl" else { throw UsageError(command: "import", message: "give what to import: pekit import curl 'curl …', pekit import http FILE.http, pekit import hurl FILE.hurl, or pekit import postman COLLECTION.json") }
    guard parsed.positionals.count <= 2 else { throw UsageError(command: "import", message: "give the curl command as one argument (quote it), or on standard input") }
    let sendNames = Set(sendOnlyOptions.map(\.name))
    let sendOptions = parsed.values.filter { sendNames.contains($0.name) }
    if !sendOptions.isEmpty && !parsed.has(ImportOptions.send) {
        throw UsageError(command: "import", message: "--\(sendOptions[0].name) is a send option: give it with --send (the script carries the command's own)")
    }
    let text = parsed.positionals.count == 2 && parsed.positionals[1] != "-" ? parsed.positionals[1] : String(decoding: try readAllInput(), as: UTF8.self)
    if parsed.has(ImportOptions.words) {
        // The words as the shell would hand them to curl, each ended by a NUL (for checking).
        let words: [[UInt8]]
        do { words = try ShellCommand.pasted(text, environment: { ProcessInfo.processInfo.environment[$0] }, readFile: { Files.read($0) }).words } catch {
            throw CommandFailure(message: "pekit import: \(error)")
        }
        for word in words { Output.stdout.write(word + [0]) }
        return 0
    }
    // The script reads the command's environment variables when it runs (os.getenv), never
    // their values now: a token stands for each while the request is built.
    let sending = parsed.has(ImportOptions.send)
    let (arguments, dropped, shell) = try curlArguments(text, environment: sending ? { ProcessInfo.processInfo.environment[$0] } : { environmentToken($0) })
    // An unquoted variable whose value bash splits into several words: the words are the
    // command's own, which a script reading the value later cannot redo.
    for name in shell.unquoted.sorted() where !sending && (ProcessInfo.processInfo.environment[name] ?? "").contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
        throw CommandFailure(message: "pekit import: $\(name) is unquoted and bash splits its value into several words: the script cannot read it when it runs; quote it (\"$\(name)\"), or send with --send")
    }
    for name in shell.variables where ProcessInfo.processInfo.environment[name] == nil && shell.defaults[name] == nil {
        Output.stderr.line("pekit import: warning: the command reads $\(name), which is not set: it is empty, as in bash\(sending ? "" : " (the script reads it when it runs)")")
    }
    var kept = arguments
    for word in dropped { Output.stderr.line("pekit import: left out \(word) (it changes nothing pekit sends)") }
    if let policy = parsed.value(ImportOptions.policy) {
        // Checked here, so that a wrong name is reported as this command's.
        do { _ = try commandHost(extraPluginDirectories: []).policy(named: policy) } catch {
            throw CommandFailure(message: "pekit import: \(error)")
        }
        kept += [Array("--policy".utf8), Array(policy.utf8)]
    }
    let requests = curlRequests(kept)
    if parsed.has(ImportOptions.send) {
        var extra: [String] = ["--send"]
        for (name, value) in sendOptions { extra.append("--" + name); if let value { extra.append(value) } }
        // curl's --next: each request in turn, the exit status the last one's.
        return try runInTurn(requests, extra: extra.map { Array($0.utf8) })
    }
    guard requests.count == 1 else {
        throw CommandFailure(message: "pekit import: the command has curl's --next: \(requests.count) requests, and a script is made of one (--send sends them all)")
    }
    return try runRequest(kept, built: { request, builder, options in
        Output.stdout.write(try readingEnvironment(luaScript(request, builder: builder, options: options, from: text), shell.variables, defaults: shell.defaults))
        var seen: Set<String> = []
        let skipped = options.values.map(\.name).filter { notCarried.contains($0) && seen.insert($0).inserted }
        if !skipped.isEmpty {
            Output.stderr.line("pekit import: the script does not carry " + skipped.map { "--" + $0 }.joined(separator: ", ") + " (it says so in a comment; --send takes them)")
        }
        return 0
    })
}

/// The request `pekit request` builds for a pasted curl command: the bytes curl sends for it.
func requestFromCurl(_ text: String) throws -> PekitRequest {
    try fromCurl(text) { request, _, _ in request }
}

/// The script `pekit import curl` prints for a curl command of one request (pekit serve's
/// "as pekit Lua").
func luaFromCurl(_ text: String) throws -> String {
    try fromCurl(text) { request, builder, options in luaScript(request, builder: builder, options: options, from: text) }
}

/// What `make` makes of the request a curl command of one request builds.
private func fromCurl<T>(_ text: String, _ make: (PekitRequest, RequestBuilder, Arguments) throws -> T) throws -> T {
    defer { StandardInput.replacement = nil }
    let requests = curlRequests(try curlArguments(text).arguments)
    guard requests.count == 1, let arguments = requests.first else { throw CommandFailure(message: "the curl command has --next: give one request") }
    var made: T?
    try withoutActuallyEscaping(make) { make in
        _ = try runRequest(arguments, built: { request, builder, options in made = try make(request, builder, options); return 0 })
    }
    guard let made else { throw CommandFailure(message: "the curl command builds no request") }
    return made
}

/// A Lua string literal for any bytes, and for text (UTF-8 kept readable).
private func luaQuote(_ bytes: [UInt8]) -> String { LuaLiteral.quoted(bytes: bytes) }
private func luaQuote(_ text: String) -> String { LuaLiteral.quoted(text) }

/// The script: `pekit.request{…}` made from the same builder the command line made (so it sends
/// the same bytes: the printed script and `--send` agree), then `req:send{…}` with the command's
/// send options. Parameters read back from the query, cookies of `-b` in a jar, and a body as
/// JSON or text, each only where building with them gives the very same request.
private func luaScript(_ request: PekitRequest, builder: RequestBuilder, options parsed: Arguments, from command: String) -> String {
    var lines = ["-- Made by `pekit import curl` from:"]
    for line in command.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).prefix(12) {
        // The pasted command is a stranger's text: its control bytes (ESC, BEL) are escaped, as
        // the body's literal escapes them, so printing the script sends none to a terminal.
        lines.append("--   " + printable(line.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
    let same = { (other: RequestBuilder) -> Bool in
        guard let built = try? other.build() else { return false }
        return (try? built.raw()) == (try? request.raw()) && built.url == request.url
    }
    var fields: [String] = []
    func field(_ name: String, _ value: String) { fields.append("  \(name) = \(value),") }
    field("method", luaQuote(request.method.rawValue))
    // curl sends -X as written; pekit.request upper-cases unless told.
    if request.method.rawValue != RequestBuilder.uppercased(request.method.rawValue) { field("keep_method_case", "true") }
    // curl's reading of the URL (dot segments, the host's case, escapes), where it is not what
    // pekit.request reads from the same text.
    var browserReading = builder
    browserReading.readsURLAsCurl = false
    let urlAsCurl = !same(browserReading)

    // The query as parameters, when the policy writes them back to the same bytes: nested under
    // the policy's brackets or dots where it nests, else as a list of pairs.
    var url = builder.url
    let policy = builder.policy
    if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
    var params: String?
    if let q = url.firstIndex(of: "?") {
        let query = String(url[url.index(after: q)...])
        let pairs = WHATWGFormParser().pairs(ByteString(Array(query.utf8))).map { (String(decoding: $0.name.bytes, as: UTF8.self), String(decoding: $0.value.bytes, as: UTF8.self)) }
        func writesBack(_ value: PekitValue) -> Bool { !query.isEmpty && (try? policy.queryString(value).description) == query }
        let dots: Bool = { if case .dots = policy.objects { return true }; return false }()
        if policy.name != Policy.rfc3986.name, !pairs.contains(where: { $0.0.contains("=") }),
           let nested = try? CommandLineParameters.read(pairs.map { (text: "\($0.0)=\($0.1)", typed: false) }, dots: dots), writesBack(nested) {
            params = luaLiteral(nested, ordered: { if case .given = policy.order { return true }; return false }())
        } else if writesBack(.array(pairs.map { .array([.text($0.0), .text($0.1)]) })) {
            params = "{ " + pairs.map { "{ \(luaQuote($0.0)), \(luaQuote($0.1)) }" }.joined(separator: ", ") + " }"
        }
        if params != nil, builder.params == nil { url = String(url[..<q]) } else { params = nil; url = builder.url }
    }
    field("url", luaQuote(params == nil ? builder.url : url))
    if urlAsCurl { field("url_as_curl", "true") }
    if builder.keepsDotSegments { field("path_as_is", "true") }
    if let params {
        field("params", params)
        field("params_in", "\"query\"")
    }
    if policy.name != Policy.rfc3986.name { field("policy", luaQuote(policy.name)) }
    if builder.userAgent != RequestBuilder.userAgent { field("user_agent", builder.userAgent.map(luaQuote) ?? "false") }
    if builder.accept != "*/*" { fields.append("  -- (no Accept by default)") }
    for case let (name, value?) in [("referer", builder.referer), ("range", builder.range)] { field(name, luaQuote(value)) }
    if let token = builder.bearerToken { field("auth", "{ bearer = \(luaQuote(token)) }") }
    else if let (user, password) = builder.basicAuth { field("auth", "{ user = \(luaQuote(user)), password = \(luaQuote(password)) }") }
    for (flag, name) in [(builder.acceptEncoding != nil, "compressed"), (builder.uploadsAsCurl, "upload")] where flag { field(name, "true") }
    if !builder.headers.isEmpty || builder.timeCondition != nil {
        // A list of pairs keeps the order and repeats (-z's field first, where curl writes it); a field written with other spacing than
        // one space after the colon is given as its whole line, which is sent as written.
        fields.append("  headers = {")
        for header in (builder.timeCondition.map { [RequestBuilder.Header($0.name, $0.value)] } ?? []) + builder.headers {
            // As bytes: a value that is not UTF-8 goes as it came.
            if let value = header.value, header.spacing == " " || value.isEmpty {
                fields.append("    { \(luaQuote(header.name)), \(header.rawValue.map(luaQuote) ?? luaQuote(value)) },")
            } else if header.value == nil {
                fields.append("    { \(luaQuote(header.name)), false },")
            } else {
                fields.append("    \(luaQuote(header.lineBytes)),")
            }
        }
        fields.append("  },")
    }
    // curl's -b pairs go into a jar (as a browser holds them) when the jar writes the same field back.
    var jarLines: [String] = []
    if let cookie = builder.cookie {
        if let origin = try? request.requestURL(), let pairs = cookiePairs(cookie, for: origin), builder.jar == nil {
            let site = "\(origin.scheme)://\(HostMapping.bracketed(origin.host))\(origin.port.map { ":\($0)" } ?? "")/"
            jarLines.append("local jar = pekit.cookies.jar()")
            jarLines.append("jar:receive(\(luaQuote(site)), {")
            for (name, value) in pairs { jarLines.append("  \(luaQuote("\(name)=\(value); Path=/")),") }
            jarLines.append("})")
            field("jar", "jar")
        } else {
            field("cookie", luaQuote(cookie))
        }
    }
    if builder.jar != nil {
        // curl's -b FILE (and -b "", -c): curl's cookie engine, each file that is there loaded
        // when the script runs (a file not there yet, or a folder, gives none, as in curl).
        jarLines.append("local jar = pekit.cookies.jar{ as_curl = true }")
        for file in parsed.all(RequestOptions.cookie) where !file.contains("=") && !file.isEmpty && FilePaths.exists(file) && !FilePaths.isDirectory(file) {
            jarLines.append("jar:load(\(luaQuote(file)))")
        }
        field("jar", "jar")
    }
    if !builder.connect.isEmpty {
        field("connect", "{ " + builder.connect.map { "[\(luaQuote(HostMapping.bracketed($0.host) + ($0.port.map { ":\($0)" } ?? "")))] = \(luaQuote(HostMapping.bracketed($0.address) + ($0.addressPort.map { ":\($0)" } ?? "")))" }.joined(separator: ", ") + " }")
    }
    if let target = builder.target { field("target", luaQuote(target)) }
    var usesRead = false
    if case .bytes = builder.body, !parsed.has(RequestOptions.get), let parts = curlDataParts(parsed), parts.contains(where: { $0.file != nil && $0.file != "-" }) {
        // The -d family read files: the script reads them too, as curl would, when it runs.
        let pieces = parts.map { part -> String in
            var content = part.file.map { $0 == "-" ? luaQuote((try? part.bytes()) ?? []) : "read(\(luaQuote($0)))" } ?? luaQuote(part.literal)
            if part.file != nil && part.file != "-" {
                if part.stripsLines { content = "(\(content):gsub(\"[\\r\\n]\", \"\"))" }
                if part.encodes { content = "pekit.encode(\(content), { allowed = \"unreserved\", space = \"+\" })" }
                return (part.prefix.isEmpty ? "" : luaQuote(part.prefix) + " .. ") + content
            }
            return luaQuote((try? part.bytes()) ?? [])
        }
        usesRead = true
        fields.append("  body = " + pieces.joined(separator: " .. \"&\" .. ") + ",")
        if case .bytes(_, let type) = builder.body, let type { fields.append("  content_type = \(luaQuote(type)),") }
    } else {
        fields += bodyFields(builder, same: same)
    }
    lines += jarLines
    if usesRead { lines.append("local function read(path) local f = assert(io.open(path, \"rb\")) local s = f:read(\"a\") f:close() return s end") }
    lines.append("local req = pekit.request{")
    lines += fields
    lines.append("}")

    // The send options the command gave, as Lua send options.
    var send: [String] = []
    // Each send option given by a flag of its row (SendOptions.fields), as its Lua field
    // (--compressed is a request field already).
    // A value the command line would refuse is left out, as curl's own error is the command's.
    for field in SendOptions.fields where field.name != "compressed" {
        switch (try? sendOptionValue(field, parsed)) ?? nil {
        case .flag(let on)?: send.append("\(field.name) = \(on)")
        case .number(let x)?: send.append("\(field.name) = \(x.luaLiteral)")
        case .integer(let n)?: send.append("\(field.name) = \(n)")
        case .text(let text)?: send.append("\(field.name) = \(luaQuote(text))")
        case nil: break
        }
    }
    if parsed.value(RequestOptions.referer)?.hasSuffix(";auto") == true { send.append("auto_referer = true") }
    if let n = parsed.value(RequestOptions.retry).flatMap(Int.init) {
        // curl's --retry N: N more tries after a timeout or a 408, 429, 500, 502, 503 or 504,
        // waiting 1 s and doubling (or as Retry-After says).
        var retry = "attempts = \(n + 1), on = { 408, 429, 500, 502, 503, 504, \"timeout\"\(parsed.has(RequestOptions.retryAllErrors) ? ", \"any\"" : "") }, backoff = { base = 1, max = 600, jitter = false }"
        if let s = parsed.value(RequestOptions.retryMaxTime).flatMap(Double.init) { retry += ", max_time = \(s.luaLiteral)" }
        send.append("retry = { \(retry) }")
    }
    let sink = parsed.value(RequestOptions.output).flatMap { $0 == "-" ? nil : $0 }
    if let sink { send.append("sink = \(luaQuote(sink))") }
    lines.append(send.isEmpty ? "local r = req:send()" : "local r = req:send{ " + send.joined(separator: ", ") + " }")
    if parsed.has(RequestOptions.fail) || parsed.has(RequestOptions.failWithBody) {
        // curl -f: an HTTP error is a failure (exit 22), its body not written.
        lines.append("if r.status >= 400 then")
        if parsed.has(RequestOptions.failWithBody) && sink == nil { lines.append("  io.write(r.body)") }
        lines.append("  io.stderr:write(\"the server answered \", r.status, \" (-f)\\n\")")
        lines.append("  os.exit(22)")
        lines.append("end")
    }
    if sink == nil { lines.append("io.write(r.body)") }
    let skipped = parsed.values.map(\.name).filter { notCarried.contains($0) }
    if !skipped.isEmpty {
        var seen: Set<String> = []
        lines.append("-- not carried: " + skipped.filter { seen.insert($0).inserted }.map { "--" + $0 }.joined(separator: ", ") + " (pekit request and pekit.http have their own ways)")
    }
    return lines.joined(separator: "\n") + "\n"
}

/// The body as Lua fields: a file reference when the command read a file as it is, JSON or a
/// text literal when building with it gives the same request, else the bytes escaped.
private func bodyFields(_ builder: RequestBuilder, same: (RequestBuilder) -> Bool) -> [String] {
    switch builder.body {
    case .none, .form, .json:
        return []
    case .file(let path, let type):
        return ["  body_file = \(luaQuote(path)),"] + (type.map { ["  content_type = \(luaQuote($0)),"] } ?? [])
    case .bytes(let bytes, let type):
        let typeLine = type.map { ["  content_type = \(luaQuote($0)),"] } ?? []
        if let value = try? JSONText.parse(bytes), case .map = value {
            var json = builder
            json.body = .json(value)
            // Keys come out sorted (the policy's order), so a plain table reads back the same.
            if same(json) { return ["  json = \(luaLiteral(value, ordered: false)),"] }
        }
        return ["  body = \(luaText(bytes)),"] + typeLine
    case .multipart(let parts):
        var out = ["  multipart = {"]
        for part in parts {
            var items = ["name = \(luaQuote(part.name))"]
            switch part.source {
            case .data(let bytes): items.append("value = \(luaQuote(bytes))")
            case .file(let path): items.append("path = \(luaQuote(path))")
            // Several files in one field: the nested body as it goes (its boundary in the type).
            case .mixed(let inner): items.append("value = \(luaQuote((try? inner.bytes()) ?? []))")
            }
            if let filename = part.filename { items.append("filename = \(luaQuote(filename))") }
            if let type = part.contentType { items.append("type = \(luaQuote(type))") }
            out.append("    { " + items.joined(separator: ", ") + " },")
        }
        return out + ["  },"]
    }
}

/// Text as a Lua long string where it reads back to the same bytes (UTF-8 with no CR and no
/// control byte but LF and tab: Lua turns CR LF into LF inside one), else a quoted literal.
private func luaText(_ bytes: [UInt8]) -> String {
    guard bytes.contains(0x0A), UTF8Validation.isValid(bytes), !bytes.contains(where: { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F }) else {
        return luaQuote(bytes)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    var level = ""
    while text.contains("]" + level + "]") { level += "=" }
    // A newline right after the opening bracket is skipped by Lua: one more keeps the first.
    return "[" + level + "[" + (bytes.first == 0x0A ? "\n" : "") + text + "]" + level + "]"
}

private extension Double {
    /// The number as a Lua literal: whole numbers without a fraction.
    var luaLiteral: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

/// The pairs of a Cookie header when a jar that receives each as `name=value; Path=/` writes the
/// very same header back for `url` (what the script's jar will do); nil otherwise, and the
/// header stays a header.
private func cookiePairs(_ header: String, for url: RequestURL) -> [(String, String)]? {
    var pairs: [(String, String)] = []
    for piece in header.components(separatedBy: "; ") {
        guard let eq = piece.firstIndex(of: "=") else { return nil }
        pairs.append((String(piece[..<eq]), String(piece[piece.index(after: eq)...])))
    }
    let jar = CookieJar(publicSuffixes: nil, clock: { Date().timeIntervalSince1970 })
    for (name, value) in pairs { _ = try? jar.receive("\(name)=\(value); Path=/", from: url) }
    return (try? jar.header(for: url)) == header ? pairs : nil
}

/// A Lua literal for parameters: strings quoted, lists as `{ a, b }`, maps as `{ k = v }` (or
/// `pekit.ordered{ {k, v}, … }` when the policy keeps the given order and there are several).
private func luaLiteral(_ value: PekitValue, ordered: Bool) -> String {
    switch value {
    case .string(let bytes): return luaQuote(bytes.bytes)
    // An empty table is an object to pekit.json: an empty list is written as one.
    case .array(let items) where items.isEmpty: return "pekit.array{}"
    case .array(let items), .set(let items): return "{ " + items.map { luaLiteral($0, ordered: ordered) }.joined(separator: ", ") + " }"
    case .map(let map):
        if ordered && map.entries.count > 1 {
            let items = map.entries.map { entry -> String in "{ " + luaQuote(entry.key.bytes) + ", " + luaLiteral(entry.value, ordered: ordered) + " }" }
            return "pekit.ordered{ " + items.joined(separator: ", ") + " }"
        }
        let fields = map.entries.map { entry -> String in
            let key = String(decoding: entry.key.bytes, as: UTF8.self)
            let bare = key.first.map { $0.isLetter || $0 == "_" } == true && key.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" }
            let written: String = bare ? key : "[" + luaQuote(entry.key.bytes) + "]"
            return written + " = " + luaLiteral(entry.value, ordered: ordered)
        }
        return fields.isEmpty ? "{}" : "{ " + fields.joined(separator: ", ") + " }"
    case .integer(let n): return String(n)
    case .number(let x): return String(x)
    case .bigInteger(let digits): return digits  // Lua reads it as the float pekit.json would give
    case .boolean(let b): return String(b)
    case .null: return "pekit.null"
    }
}
