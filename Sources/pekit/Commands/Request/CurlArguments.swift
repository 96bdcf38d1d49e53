import Foundation
import PekitCore
import PekitHTTP

/// curl's --connect-to HOST1:PORT1:HOST2:PORT2 and --resolve HOST:PORT:ADDRESS as mappings.
func curlMappings(_ parsed: Arguments) throws -> [HostMapping] {
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
        // curl's CURLE_SETOPT_OPTION_SYNTAX (49), for an entry it cannot parse (its tests 3019, 3020).
        guard let n = Int(text), (1...65535).contains(n) else {
            throw CommandFailure(message: "pekit request: --\(option) \(spec): '\(text)' is not a port", status: 49)
        }
        return n
    }
    func host(_ text: String) -> String { text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text }
    var out: [HostMapping] = []
    for spec in parsed.all(RequestOptions.connectTo) {
        let p = split(spec)
        guard p.count == 4, !p[2].isEmpty || !p[3].isEmpty else { throw UsageError(command: "request", message: "--connect-to takes HOST1:PORT1:HOST2:PORT2, not '\(spec)'") }
        out.append(HostMapping(host: host(p[0]), port: try port(p[1], "connect-to", spec), address: host(p[2].isEmpty ? p[0] : p[2]),
                               addressPort: try port(p[3], "connect-to", spec)))
    }
    for given in parsed.all(RequestOptions.resolve) {
        // curl 7.88: "-HOST:PORT" takes an earlier entry for HOST:PORT out; "+HOST:PORT:ADDRESS"
        // is an entry that may time out of its cache (here, one like any other).
        if given.hasPrefix("-") {
            let p = split(String(given.dropFirst()))
            guard p.count == 2, !p[0].isEmpty else { throw UsageError(command: "request", message: "--resolve -HOST:PORT takes an entry out, not '\(given)'") }
            let n = try port(p[1], "resolve", given)
            out.removeAll { $0.host == host(p[0]) && $0.port == n && $0.addressPort == n }
            continue
        }
        let spec = given.hasPrefix("+") ? String(given.dropFirst()) : given
        let p = split(spec)
        guard p.count == 3, !p[0].isEmpty, !p[2].isEmpty else { throw UsageError(command: "request", message: "--resolve takes HOST:PORT:ADDRESS, not '\(spec)'") }
        let n = try port(p[1], "resolve", spec)
        out.append(HostMapping(host: host(p[0]), port: n, address: host(p[2]), addressPort: n))
    }
    return out
}

/// One piece of the body curl's -d/--data, --data-ascii, --data-raw, --data-binary and
/// --data-urlencode make: `prefix` (`name=` of `--data-urlencode name=…`) then the content, given
/// or read from `file` (`-` is standard input), with CR and LF left out (`-d @FILE`) and
/// percent-encoded (`--data-urlencode`) as curl does.
struct CurlDataPart {
    var prefix: [UInt8] = []
    var literal: [UInt8] = []
    var file: String?
    var stripsLines = false
    var encodes = false
    /// The escapes' hex digits in lower case: curl 7.88's --url-query writes `%c3%a9` where
    /// --data-urlencode writes `%C3%A9` (its test 1221).
    var lowerHex = false
    let option: String

    /// --data-urlencode's five forms: content, =content, name=content, @file, name@file.
    static func urlencoded(_ v: [UInt8], option: String) -> CurlDataPart {
        var part = CurlDataPart(option: option)
        part.encodes = true
        let equals = v.firstIndex(of: 0x3D), at = v.firstIndex(of: 0x40)
        if let at, equals.map({ at < $0 }) ?? true {
            part.file = String(decoding: v[(at + 1)...], as: UTF8.self)
            if at > 0 { part.prefix = Array(v[..<at]) + [0x3D] }
        } else if let equals {
            part.prefix = equals == 0 ? [] : Array(v[...equals])
            part.literal = Array(v[(equals + 1)...])
        } else {
            part.literal = v
        }
        return part
    }

    /// The piece's bytes.
    func bytes() throws -> [UInt8] {
        var content = literal
        if let file {
            if file == "-" { content = try readAllInput() } else {
                guard let bytes = Files.read(file) else { throw CommandFailure(message: "pekit request: --\(option) @\(file): cannot read the file") }
                content = bytes
            }
        }
        if stripsLines { content = Self.curlFileText(content) }
        return prefix + (encodes ? curlEscape(content, lowerHex: lowerHex) : content)
    }

    /// A file as curl's file2string reads it for -d @FILE: line by line as fgets gives them (up
    /// to 255 bytes, or through an LF), each cut at its first CR, LF or NUL (its test 463:
    /// "one\rtwo\rthree\nfour\0five\n" is "onefour").
    static func curlFileText(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while i < bytes.count {
            var end = i
            while end < bytes.count, end - i < 255 {
                end += 1
                if bytes[end - 1] == 0x0A { break }
            }
            let cut = bytes[i..<end].firstIndex { $0 == 0x0D || $0 == 0x0A || $0 == 0 } ?? end
            out += bytes[i..<cut]
            i = end
        }
        return out
    }
}

/// The pieces of the body the -d family gives, in the order given (curl joins them with '&');
/// nil when none was given.
func curlDataParts(_ parsed: Arguments) -> [CurlDataPart]? {
    let names = [RequestOptions.data, RequestOptions.dataAscii, RequestOptions.dataRaw, RequestOptions.dataBinary, RequestOptions.dataUrlencode].map(\.name)
    let given = parsed.rawValues.filter { names.contains($0.name) }
    guard !given.isEmpty else { return nil }
    return given.map { name, value in
        let v = value ?? []
        var part = CurlDataPart(option: name)
        let path = { (bytes: ArraySlice<UInt8>) in String(decoding: bytes, as: UTF8.self) }
        switch name {
        case RequestOptions.data.name, RequestOptions.dataAscii.name:
            // As curl: @FILE is read with its CR and LF bytes left out.
            if v.first == 0x40 { part.file = path(v.dropFirst()); part.stripsLines = true } else { part.literal = v }
        case RequestOptions.dataBinary.name:
            if v.first == 0x40 { part.file = path(v.dropFirst()) } else { part.literal = v }
        case RequestOptions.dataUrlencode.name:
            part = CurlDataPart.urlencoded(v, option: name)
        default:
            part.literal = v
        }
        return part
    }
}

/// The body of the -d family, joined with '&'; nil when none was given. `file` names the file
/// when the body is exactly one file's bytes (`--data-binary @FILE`, or `-d @FILE` of a file with
/// no CR or LF for curl to leave out), so that it can be read while sending, and named as a file.
func curlData(_ parsed: Arguments) throws -> (bytes: [UInt8], file: String?)? {
    guard let parts = curlDataParts(parsed) else { return nil }
    let bytes = Array(try parts.map { try $0.bytes() }.joined(separator: [0x26]))
    if parts.count == 1, let file = parts[0].file, file != "-", !parts[0].encodes,
       !parts[0].stripsLines || Files.read(file).map({ !$0.contains(0x0D) && !$0.contains(0x0A) }) == true {
        return (bytes, file)
    }
    return (bytes, nil)
}

/// What curl's --data-urlencode writes: ALPHA, DIGIT and -._~ as they are, a space as '+',
/// everything else as %XX (upper case).
func curlEscape(_ bytes: [UInt8], lowerHex: Bool = false) -> [UInt8] {
    PercentEncoder(allowed: .unreserved, space: .plus, hexCase: lowerHex ? .lower : .upper).encode(bytes: bytes)
}


/// The header fields of `-H` in the order given, as curl reads them: `Name: value` is sent as
/// written (the whitespace after the colon and at the end kept: curl sends `-H 'X-A:1'` as
/// `X-A:1`), `Name:` with nothing after it removes a default field, `Name;` sends it empty, and
/// `@FILE` (`@-`: standard input) reads one a line. A line that is neither (`NoColon`,
/// `X-A;  `, `X-A;b`) is not sent, as curl 7.88 sends nothing for it (its tests 4, 1147): a
/// warning says so. A name that is not an HTTP token (` Folded : x`, `“host:x”`) is sent as
/// written, as curl sends it (its tests 470, 1147), with a warning.
func curlHeaders(_ parsed: Arguments) throws -> [RequestBuilder.Header] {
    // As bytes: -H $'X-A: caf\xe9' sends the byte E9, as curl does.
    var specs: [[UInt8]] = []
    for header in parsed.rawValues.filter({ $0.name == RequestOptions.header.name }).compactMap({ $0.value }) {
        guard header.first == 0x40 else { specs.append(header); continue }
        let path = String(decoding: header.dropFirst(), as: UTF8.self)
        guard let bytes = path == "-" ? try readAllInput() : Files.read(path) else {
            throw CommandFailure(message: "pekit request: -H @\(path): cannot read the file")
        }
        // Lines end in LF or CR LF (split as bytes: Swift reads CR LF as one Character).
        specs += bytes.split(separator: 0x0A).map { line in Array(line.last == 0x0D ? line.dropLast() : line) }
            .filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
    }
    return try specs.compactMap { line in
        guard line.contains(0x3A) || line.last == 0x3B else {
            Output.stderr.line("pekit request: warning: -H '\(PercentDecodingError.printable(line))' is neither 'Name: value' nor 'Name;': not sent (curl sends nothing for it)")
            return nil
        }
        let header: RequestBuilder.Header
        do { header = try RequestBuilder.Header(lineBytes: line) } catch {
            throw UsageError(command: "request", message: "--header takes 'Name: value' (or 'Name;' for an empty one), not '\(PercentDecodingError.printable(line))'")
        }
        if header.nameAsWritten && header.value != nil {
            Output.stderr.line("pekit request: warning: -H '\(PercentDecodingError.printable(line))': the name is not an HTTP token; sent as written, as curl sends it (servers may refuse the request\(line.first == 0x20 || line.first == 0x09 ? ", or read the line as part of the field before it" : ""))")
        }
        // 'Name:' removes a field of curl's own: one whose name no field can have removes nothing,
        // and curl sends nothing for it (its test 469: -H “host:).
        if header.value == nil && header.rawValue == nil && !PekitHeaders.isToken(header.name) { return nil }
        return header
    }
}

/// curl's `--json`: the data (or @FILE, @- for standard input) sent as it is; several are joined
/// as they are. nil when none was given.
func curlJSON(_ parsed: Arguments) throws -> [UInt8]? {
    let given = parsed.rawValues.filter { $0.name == RequestOptions.json.name }.compactMap { $0.value }
    guard !given.isEmpty else { return nil }
    var body: [UInt8] = []
    for data in given {
        if data.first == 0x40 {
            let name = String(decoding: data.dropFirst(), as: UTF8.self)
            guard let bytes = name == "-" ? try readAllInput() : Files.read(name) else {
                throw CommandFailure(message: "pekit request: --json @\(name): cannot read the file")
            }
            body += bytes
        } else {
            let text = String(decoding: data, as: UTF8.self)
            if (try? JSONText.parse(data)) == nil, FileManager.default.fileExists(atPath: text) {
                throw UsageError(command: "request", message: "--json takes the JSON itself or @FILE, as curl does: for the file, --json @\(text)")
            }
            body += data
        }
    }
    return body
}

/// A command-line URL with the scheme curl guesses when it has none (curl 7.88's urlapi.c,
/// `CURLU_GUESS_SCHEME`): `127.0.0.1:8080/x` and `example.com/a` are `http://…`, a host starting
/// `ftp.`, `dict.`, `ldap.`, `imap.`, `smtp.` or `pop3.` that protocol (which pekit then refuses
/// by name). As curl reads it, a scheme is a letter, then letters, digits, `+`, `-` or `.`, then
/// `:/`: in `example.com:80/a`, `example.com` is a host with a port, not a scheme.
func curlGuessedScheme(_ url: String) -> String {
    let bytes = Array(url.utf8)
    func isAlpha(_ c: UInt8) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
    func isSchemeByte(_ c: UInt8) -> Bool { isAlpha(c) || (0x30...0x39).contains(c) || c == 0x2B || c == 0x2D || c == 0x2E }
    if let first = bytes.first, isAlpha(first) {
        var i = 1
        while i < bytes.count, i < 40, isSchemeByte(bytes[i]) { i += 1 }
        if i + 1 < bytes.count, bytes[i] == 0x3A, bytes[i + 1] == 0x2F { return url }
    }
    let host = url.lowercased()
    for scheme in ["ftp", "dict", "ldap", "imap", "smtp", "pop3"] where host.hasPrefix(scheme + ".") { return scheme + "://" + url }
    return "http://" + url
}

/// The URL as curl's globber (7.88, `tool_urlglob.c`) hands it on without `-g`/`--globoff`:
/// `\[`, `\]`, `\{` and `\}` lose their backslash (`filter\[status\]=open` is
/// `filter[status]=open`), and an IPv6 literal's brackets are no glob. A glob that curl would
/// expand into several URLs (`{a,b}`, `[1-5]`, `[a-z:2]`) is refused, as pekit sends the one URL
/// given; brackets or braces curl cannot read as a glob (`u[name]`, a `}` alone; `[]` is kept)
/// fail as curl fails them, with its exit status 3 (its test 2409).
func curlGlobbed(_ url: String, subject: String = "the URL") throws -> String {
    let chars = Array(url)
    guard chars.contains(where: { "[]{}".contains($0) }) else { return url }
    var out = ""
    var i = 0
    func refuse(_ what: String) -> UsageError {
        UsageError(command: "request", message: "\(subject) has curl's glob \(what) at character \(i + 1), which curl expands into several \(subject == "the URL" ? "URLs: give each URL" : "names: give each"), or -g/--globoff to send it as written (\\[ and \\{ write a bracket)")
    }
    func malformed(_ what: String) -> CommandFailure {
        CommandFailure(message: "pekit request: \(what) in \(subject) at character \(i + 1), as curl's globbing reads it: -g/--globoff sends brackets and braces as written (\\[ and \\{ write one)", status: 3)
    }
    while i < chars.count {
        let c = chars[i]
        if c == "\\", i + 1 < chars.count, "[]{}".contains(chars[i + 1]) {
            out.append(chars[i + 1]); i += 2; continue
        }
        switch c {
        case "{":
            guard chars[(i + 1)...].contains("}") else { throw malformed("an unmatched brace") }
            throw refuse("list {…}")
        case "[" where i + 1 < chars.count && chars[i + 1] == "]":
            // An empty pair is no glob to curl (`tags[]=a` goes as written).
            out += "[]"; i += 2
        case "[":
            // curl's peek_ipv6: alphanumerics, '.', '%' and two colons or more, then ']'.
            if let close = chars[(i + 1)...].firstIndex(of: "]") {
                let inside = chars[(i + 1)..<close]
                if inside.filter({ $0 == ":" }).count >= 2, inside.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".%:".contains($0)) }) {
                    out += String(chars[i...close]); i = close + 1; continue
                }
                if isCurlRange(String(inside)) { throw refuse("range [\(String(inside))]") }
            }
            throw malformed("a bad range specification")
        case "]", "}":
            throw malformed("an unmatched close brace or bracket")
        default:
            out.append(c); i += 1
        }
    }
    return out
}

/// curl's range syntax: `N-M` of numbers or of single letters of one case, with `:STEP`.
private func isCurlRange(_ text: String) -> Bool {
    let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    if parts.count == 2, parts[1].isEmpty || !parts[1].allSatisfy(\.isNumber) { return false }
    let ends = parts[0].split(separator: "-", omittingEmptySubsequences: false)
    guard ends.count == 2, !ends[0].isEmpty, !ends[1].isEmpty else { return false }
    if ends[0].allSatisfy(\.isNumber) && ends[1].allSatisfy(\.isNumber) { return true }
    guard ends[0].count == 1, ends[1].count == 1, let a = ends[0].first, let b = ends[1].first, a.isASCII, b.isASCII else { return false }
    return (a.isLowercase && b.isLowercase) || (a.isUppercase && b.isUppercase)
}

/// curl's --url-query pieces (7.87): each as --data-urlencode reads it, or, after a leading '+',
/// as it is; joined with '&', for the end of the URL's query. Nil when none was given.
func curlURLQuery(_ parsed: Arguments) throws -> String? {
    let given = parsed.rawValues.filter { $0.name == RequestOptions.urlQuery.name }
    guard !given.isEmpty else { return nil }
    let pieces = try given.map { _, value -> [UInt8] in
        let v = value ?? []
        if v.first == 0x2B { return Array(v.dropFirst()) }
        var part = CurlDataPart.urlencoded(v, option: RequestOptions.urlQuery.name)
        part.lowerHex = true
        return try part.bytes()
    }
    return String(decoding: Array(pieces.joined(separator: [0x26])), as: UTF8.self)
}
