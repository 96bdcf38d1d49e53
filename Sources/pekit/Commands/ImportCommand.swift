import Foundation
import PekitCore
import PekitHTTP

let importCommand = Command(
    name: "import",
    summary: "turn a copied curl command (\"Copy as cURL\") into a pekit Lua script, or send it",
    help: """
    usage: pekit import curl [--policy P] [--send | --words] ['curl …' | -]

    Reads a curl command as browsers' developer tools (Chrome, Firefox, Safari, Edge) and
    proxies or API tools (Charles, Proxyman, Postman, Insomnia) copy it — POSIX shell quoting
    with $'…' and line continuations, the Windows cmd form (^) and the PowerShell form (`) —
    from the argument or standard input, and prints an equivalent Lua script (pekit.request{…},
    the query's parameters as a table where they read back the same, the cookies in a jar
    where it writes the same Cookie header back, and curl's own default headers, so the
    script sends what the command sends), or sends it (--send, taking every
    send option of pekit request). A flag pekit does not take is listed, not dropped silently.

    options:
      --policy P   read the query's parameters back as P writes them (rack: u[name]=x and
                   tags[]=a become nested tables) and name P in the script; default rfc3986
      --send       send the request instead of printing the script
      --words      print the command's words as the shell would hand them to curl, each
                   ended by a NUL byte (to check how a command is read)
      -h, --help   show this help

    examples:
      pekit import curl "curl 'https://api.example.com/items?page=2' -H 'accept: application/json'"
      pbpaste | pekit import curl -            # macOS;  xclip -o | pekit import curl -  on Linux
      pekit import curl --send < copied.txt
      pekit import curl --policy rack "curl 'https://h/s?u[name]=ada&tags[]=a&tags[]=b'"
    """,
    run: runImport
)

/// curl flags the copying tools emit that change nothing pekit sends (they are left out, saying
/// so on standard error).
private let ignoredCurlFlags: Set<String> = ["--globoff", "-g", "--http1.1", "--path-as-is", "--no-buffer", "-N", "--progress-bar", "-#"]

private func runImport(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try Arguments(args, command: "import", options: [
        .init(name: "send", short: nil, takesValue: false), .init(name: "words", short: nil, takesValue: false),
        .init(name: "policy", short: nil, takesValue: true),
        .init(name: "help", short: "h", takesValue: false),
    ])
    if parsed.has("help") { Output.stdout.line(importCommand.help); return 0 }
    guard parsed.positionals.first == "curl" else { throw UsageError(command: "import", message: "give what to import: pekit import curl 'curl …'") }
    guard parsed.positionals.count <= 2 else { throw UsageError(command: "import", message: "give the curl command as one argument (quote it), or on standard input") }
    let text = parsed.positionals.count == 2 && parsed.positionals[1] != "-" ? parsed.positionals[1] : String(decoding: try readAllInput(), as: UTF8.self)
    var words: [String]
    do { words = try ShellWords.split(text) } catch { throw CommandFailure(message: "pekit import: \(error)") }
    if parsed.has("words") {
        // The words as the shell would hand them to curl, each ended by a NUL (for checking).
        for word in words { Output.stdout.write(Array(word.utf8) + [0]) }
        return 0
    }
    guard let first = words.first, ["curl", "curl.exe"].contains((first as NSString).lastPathComponent) else {
        throw CommandFailure(message: "pekit import: this is not a curl command (it starts with '\(words.first ?? "")')")
    }
    words.removeFirst()
    // Flags pekit does not take are listed, and left out; everything else is pekit request's.
    var kept: [String] = [], dropped: [String] = []
    var takesValue: [String: Bool] = [:]
    for o in requestOptions {
        takesValue["--\(o.name)"] = o.takesValue
        if let short = o.short { takesValue["-\(short)"] = o.takesValue }
    }
    // A flag's value is the next word whatever it looks like (curl's --data-raw '------Webkit…').
    var valueNext = false
    for word in words {
        if valueNext {
            kept.append(word)
            valueNext = false
            continue
        }
        if word.hasPrefix("-") && word != "-" {
            let name = word.hasPrefix("--") ? String(word.split(separator: "=", maxSplits: 1)[0]) : String(word.prefix(2))
            if ignoredCurlFlags.contains(name) { dropped.append(word); continue }
            if name == "--http2" { kept += ["--http", "2"]; continue }
            if name == "--request" { kept.append("-X"); valueNext = true; continue }
            guard let takes = takesValue[name] else {
                throw CommandFailure(message: "pekit import: curl's \(name) is not something pekit takes (yet); the command was not imported")
            }
            if word.hasPrefix("--") {
                valueNext = takes && !word.contains("=")
            } else {
                // Bundled short flags (-sSL, -XPOST): the first that takes a value takes the rest
                // of the word, or the next word when it ends the bundle.
                let letters = Array(word.dropFirst())
                if let at = letters.firstIndex(where: { takesValue["-\($0)"] == true }) { valueNext = at == letters.count - 1 }
            }
        }
        kept.append(word)
    }
    for word in dropped { Output.stderr.line("pekit import: left out \(word) (it changes nothing pekit sends)") }
    // curl's own defaults, unless the command gives its own: what the imported request sends.
    let lower = kept.map { $0.lowercased() }
    let agent = HTTPClient.curlVersion.split(separator: " ").first.map { "curl/" + $0.replacingOccurrences(of: "libcurl/", with: "") } ?? "curl"
    if !lower.contains(where: { $0.hasPrefix("user-agent:") }) && !kept.contains("-A") && !kept.contains("--user-agent") { kept += ["-A", agent] }
    if !lower.contains(where: { $0.hasPrefix("accept:") }) && !kept.contains("--json") { kept += ["-H", "Accept: */*"] }
    if !lower.contains(where: { $0.hasPrefix("accept-language:") }) { kept += ["-H", "Accept-Language:"] }
    if let policy = parsed.value("policy") {
        // Checked here, so that a wrong name is reported as this command's.
        do { _ = try makeRuntime(extraPluginDirectories: []).policy(named: policy) } catch {
            throw CommandFailure(message: "pekit import: \(error)")
        }
        kept += ["--policy", policy]
    }
    let bytes = kept.map { Array($0.utf8) }
    if parsed.has("send") { return try runRequest(bytes + [Array("--send".utf8)], built: nil) }
    return try runRequest(bytes, built: { request, builder in
        Output.stdout.write(luaScript(request, builder: builder, from: text))
        return 0
    })
}

/// A Lua string literal for any bytes.
private func luaQuote(_ bytes: [UInt8]) -> String {
    var out = "\""
    for b in bytes {
        switch b {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(b))
        default: out += String(format: "\\%03d", b)
        }
    }
    return out + "\""
}

private func luaQuote(_ text: String) -> String {
    // Text that is UTF-8 stays readable; other bytes are escaped.
    var out = "\""
    for c in text.unicodeScalars {
        switch c {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if c.value < 0x20 || c.value == 0x7F { out += String(format: "\\%03d", c.value) } else { out.unicodeScalars.append(c) }
        }
    }
    return out + "\""
}

/// The script: pekit.request{…} with the method, URL (its query as parameters when they read
/// back to the same bytes), every header pekit would not add itself, and the body.
private func luaScript(_ request: HTTPRequest, builder: RequestBuilder, from command: String) -> String {
    var lines = ["-- Made by `pekit import curl` from:"]
    for line in command.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).prefix(12) {
        lines.append("--   " + line.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    // The Cookie header's pairs go into a jar (as a browser holds them), when every pair is a
    // plain name=value: the jar writes the same header back.
    let origin = try? RequestURL(request.url)
    let cookies = origin.flatMap { origin in request.headers["Cookie"].flatMap { cookiePairs($0, for: origin) } }
    if let cookies, let origin {
        let site = "\(origin.scheme)://\(HostMapping.bracketed(origin.host))\(origin.port.map { ":\($0)" } ?? "")/"
        lines.append("local jar = pekit.cookies.jar()")
        lines.append("jar:receive(\(luaQuote(site)), {")
        for (name, value) in cookies { lines.append("  \(luaQuote("\(name)=\(value); Path=/")),") }
        lines.append("})")
    }
    lines.append("local req = pekit.request{")
    lines.append("  method = \(luaQuote(request.method)),")
    var url = request.url
    if let hash = url.firstIndex(of: "#") { url = String(url[..<hash]) }
    // The query as parameters, when the policy writes them back to the same bytes: nested
    // under the policy's brackets or dots where it nests, else as a list of pairs.
    let policy = builder.policy
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
        if params != nil { url = String(url[..<q]) }
    }
    lines.append("  url = \(luaQuote(url)),")
    if let params {
        lines.append("  params = \(params),")
        if policy.name != Policy.rfc3986.name { lines.append("  policy = \(luaQuote(policy.name)),") }
        lines.append("  params_in = \"query\",")
    }
    // Host and Content-Length are pekit's to write, unless the command set Host itself.
    let userHost = builder.headers.contains { $0.0.lowercased() == "host" }
    let computed: Set<String> = userHost ? ["content-length"] : ["host", "content-length"]
    var headers: [String] = []
    var seen: Set<String> = []
    for field in request.headers.fields where !computed.contains(field.name.lowercased()) {
        if cookies != nil && field.name.lowercased() == "cookie" { continue }
        seen.insert(field.name.lowercased())
        headers.append("    [\(luaQuote(field.name))] = \(luaQuote(field.value)),")
    }
    // pekit's own defaults that the command does not send.
    for name in ["User-Agent", "Accept-Language"] where !seen.contains(name.lowercased()) { headers.append("    [\(luaQuote(name))] = false,") }
    if !headers.isEmpty { lines.append("  headers = {"); lines += headers; lines.append("  },") }
    if cookies != nil { lines.append("  jar = jar,") }
    if let body = try? request.bodyBytes(), !body.isEmpty {
        lines.append("  body = \(luaQuote(body)),")
        lines.append("  content_type = \(luaQuote(request.headers["Content-Type"] ?? "application/octet-stream")),")
    }
    lines.append("}")
    lines.append("print(req:raw())          -- the request, byte for byte")
    lines.append("-- local r = req:send()  print(r.status, #r.body)")
    return lines.joined(separator: "\n") + "\n"
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
        return "{ " + fields.joined(separator: ", ") + " }"
    case .integer(let n): return String(n)
    case .number(let x): return String(x)
    case .boolean(let b): return String(b)
    case .null: return "pekit.null"
    }
}
