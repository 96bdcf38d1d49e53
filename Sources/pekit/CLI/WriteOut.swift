import Foundation
import PekitCore
import PekitHTTP

/// curl's -w/--write-out, the variables people use: `%{http_code}` (also `%{response_code}`),
/// `%{http_version}`, `%{method}`, `%{url_effective}`, `%{num_redirects}`, `%{content_type}`,
/// `%{size_download}`, `%{size_header}`, `%{remote_ip}`, `%{remote_port}`, and the times
/// `%{time_namelookup}`, `%{time_connect}`, `%{time_appconnect}`, `%{time_starttransfer}`,
/// `%{time_total}` (seconds, six decimals, as curl writes them), `%{scheme}` (upper case, as
/// curl 7.88 writes it), `%{num_headers}` (the last response's fields), `%{redirect_url}` (the
/// Location a redirect not followed points to, resolved), `%{speed_download}` (bytes a second,
/// whole), `%{filename_effective}` (the file the body went to: `-o`'s, `-O`'s, `-J`'s name as the
/// answer gave it), `%{urlnum}` (the URL's place in
/// the command, from 0), `%{json}` (those as one JSON object, names sorted, as curl writes it),
/// `%{header_json}` (the response's fields as curl writes them: lower-case names, each with its
/// list of values) and `%header{name}` (the first field of that name); `%{stderr}` and
/// `%{stdout}` send what follows them to standard error or back to standard output, as curl
/// 7.88 does; `%{onerror}` writes what follows only for a transfer that failed; `%{referer}`,
/// `%{num_connects}`, `%{local_ip}`, `%{local_port}`, `%{time_pretransfer}`, `%{time_redirect}`,
/// `%{size_upload}`, `%{size_request}`, `%{speed_upload}`, `%{ssl_verify_result}`; `\n`, `\r`, `\t`, `\\` and `%%`. An unknown variable, or an unknown `%word{…}`, is an error before anything is sent
/// (curl warns and writes nothing, or writes it as it is).
struct WriteOut {
    enum Piece { case text(String), variable(String), header(String), stream(Int32), onError }
    let pieces: [Piece]

    static let variables = ["http_code", "response_code", "http_version", "method", "url_effective", "num_redirects", "content_type",
                            "size_download", "size_header", "remote_ip", "remote_port", "time_namelookup", "time_connect",
                            "time_appconnect", "time_starttransfer", "time_total", "urlnum", "scheme", "num_headers", "redirect_url",
                            "speed_download", "filename_effective", "json", "header_json", "url", "exitcode", "errormsg",
                            "num_connects", "local_ip", "local_port", "referer", "time_pretransfer", "time_redirect", "size_upload",
                            "size_request", "speed_upload", "ssl_verify_result"]
    /// The URL as the command gave it (after globbing: curl's `%{url}`).
    var inputURL = ""

    /// The format `-w` names: the text itself, or as curl reads `@FILE` (`@-`: standard input),
    /// the file's text (an empty file writes nothing, curl's test 1271).
    static func argument(_ value: String) throws -> WriteOut {
        guard value.hasPrefix("@") else { return try parse(value) }
        let path = String(value.dropFirst())
        let bytes: [UInt8]?
        if path == "-" { bytes = try readAllInput() } else { bytes = Files.read(path) }
        guard let bytes else { throw CommandFailure(message: "pekit request: -w @\(path): cannot read the file") }
        return try parse(String(decoding: bytes, as: UTF8.self))
    }

    static func parse(_ format: String) throws -> WriteOut {
        var pieces: [Piece] = []
        var text = ""
        var rest = Substring(format)
        while let c = rest.first {
            rest = rest.dropFirst()
            if c == "%", rest.first == "%" { text.append("%"); rest = rest.dropFirst(); continue }
            if c == "%", rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    throw UsageError(command: "request", message: "-w: '%{' without its '}' in '\(format)'")
                }
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                if name == "onerror" {
                    // curl's %{onerror}: what follows is written only for a transfer that failed.
                    if !text.isEmpty { pieces.append(.text(text)); text = "" }
                    pieces.append(.onError)
                    rest = rest[rest.index(after: close)...]
                    continue
                }
                if name == "stderr" || name == "stdout" {
                    if !text.isEmpty { pieces.append(.text(text)); text = "" }
                    pieces.append(.stream(name == "stderr" ? STDERR_FILENO : STDOUT_FILENO))
                    rest = rest[rest.index(after: close)...]
                    continue
                }
                guard variables.contains(name) else {
                    throw UsageError(command: "request", message: "-w: unknown variable %{\(name)} (known: \(variables.joined(separator: ", ")))")
                }
                if !text.isEmpty { pieces.append(.text(text)); text = "" }
                pieces.append(.variable(name))
                rest = rest[rest.index(after: close)...]
                continue
            }
            // %header{name}; any other %word{ is a mistake (curl would write it as it is).
            if c == "%", let open = rest.firstIndex(of: "{"), open != rest.startIndex,
               rest[..<open].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") }) {
                let word = String(rest[..<open])
                guard word == "header" else {
                    throw UsageError(command: "request", message: "-w: unknown %\(word){…} (known: %{variable} and %header{name})")
                }
                guard let close = rest[open...].firstIndex(of: "}") else {
                    throw UsageError(command: "request", message: "-w: '%header{' without its '}' in '\(format)'")
                }
                if !text.isEmpty { pieces.append(.text(text)); text = "" }
                pieces.append(.header(String(rest[rest.index(after: open)..<close])))
                rest = rest[rest.index(after: close)...]
                continue
            }
            if c == "\\", let next = rest.first, let escaped = ["n": "\n", "r": "\r", "t": "\t", "\\": "\\"][next] {
                text.append(escaped)
                rest = rest.dropFirst()
                continue
            }
            text.append(c)
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return WriteOut(pieces: pieces)
    }

    /// The effective URL with its host as the command wrote it when that was an international
    /// name the wire carries in its ASCII form: curl 7.88 shows `http://åäö.se/x`, not
    /// `http://xn--4cab6c.se/x` (its tests 2046, 2047).
    static func shownAsGiven(_ url: String, input: String) -> String {
        guard let given = try? RequestURL(input, readingHostAsCurl: true), let effective = try? RequestURL(url, readingHostAsCurl: true),
              given.host == effective.host, given.host.contains("xn--"), let start = input.range(of: "://")?.upperBound else { return url }
        // The host as written: after the userinfo, up to the port, path, query or fragment.
        var written = input[start...].prefix { !"/?#".contains($0) }
        if let at = written.lastIndex(of: "@") { written = written[written.index(after: at)...] }
        let name = written.prefix { $0 != ":" }
        guard !name.isEmpty, name.unicodeScalars.contains(where: { !$0.isASCII }), let hostRange = url.range(of: "://" + effective.host) else { return url }
        return url.replacingCharacters(in: hostRange, with: "://" + name)
    }

    private func quoted(_ text: String) -> String { String(decoding: JSONText.write(.text(text)), as: UTF8.self) }

    /// Writes the format for `r`: to standard output, and after `%{stderr}` to standard error
    /// (until `%{stdout}`).
    /// - Parameter urlnum: the URL's place among the command's URLs, from 0.
    /// - Parameter filename: the file the body went to (`%{filename_effective}`), if any.
    /// Writes the format for `r`; `exit` is the transfer's exit status and message (curl's
    /// `%{exitcode}` and `%{errormsg}`).
    func write(_ r: PekitResponse, urlnum: Int = 0, filename: String? = nil, exit: (code: Int32, message: String) = (0, "")) {
        var stream = Output.stdout
        for piece in pieces {
            if case .stream(let fd) = piece { stream = fd == STDERR_FILENO ? Output.stderr : Output.stdout; continue }
            if case .onError = piece { if exit.code == 0 { return } else { continue } }
            switch piece {
            case .variable("url"): stream.write(inputURL)
            case .variable("exitcode"): stream.write(String(exit.code))
            case .variable("errormsg"): stream.write(exit.message)
            default: stream.write(text(of: piece, r, urlnum: urlnum, filename: filename))
            }
        }
    }

    /// What one piece of the format writes for `r` (a `%{stderr}` or `%{stdout}`: nothing).
    private func text(of piece: Piece, _ r: PekitResponse, urlnum: Int, filename: String?) -> String {
        switch piece {
        case .stream, .onError: return ""
        case .text(let text): return text
        case .header(let name): return r.headers.first { PekitHeaders.sameName($0.name, name) }?.value.description ?? ""
        case .variable("json"):
            // curl's object: every variable by name, sorted; numbers bare, text quoted.
            let numeric: Set<String> = ["http_code", "response_code", "num_redirects", "size_download", "size_header", "remote_port", "urlnum",
                                        "num_headers", "speed_download", "num_connects", "local_port", "size_upload", "size_request", "speed_upload", "ssl_verify_result"]
            // (%{url}, %{exitcode} and %{errormsg} are the transfer's, written by `write` alone.)
            let members = Self.variables.filter { !["json", "header_json", "url", "exitcode", "errormsg"].contains($0) }.sorted().map { name -> String in
                let value = value(name, r, urlnum: urlnum, filename: filename)
                let bare = numeric.contains(name) || name.hasPrefix("time_")
                // No file: null, as curl writes it.
                if (name == "filename_effective" && value.isEmpty) || (name == "referer" && r.referer == nil) { return quoted(name) + ":null" }
                return quoted(name) + ":" + (!bare ? quoted(value) : name.hasPrefix("time_") ? value : String(Int(value) ?? 0))
            }
            return "{" + members.joined(separator: ",") + "}"
        case .variable("header_json"):
            // curl's layout: a member a line, names lower-cased in the order first seen.
            var names: [String] = [], values: [String: [String]] = [:]
            for field in r.headers {
                let name = field.name.lowercased()
                if values[name] == nil { names.append(name) }
                values[name, default: []].append(field.value.description)
            }
            return "{" + names.map { quoted($0) + ":[" + (values[$0] ?? []).map { quoted($0) }.joined(separator: ",") + "]" }.joined(separator: ",\n") + "\n}"
        case .variable(let name): return value(name, r, urlnum: urlnum, filename: filename)
        }
    }

    func value(_ name: String, _ r: PekitResponse, urlnum: Int, filename: String? = nil) -> String {
        func seconds(_ t: Double) -> String { String(format: "%.6f", t) }
                switch name {
                case "http_code", "response_code": return String(format: "%03d", r.status)
                case "http_version": return r.httpVersion
                case "method": return r.method.rawValue
                case "url_effective": return Self.shownAsGiven(r.url, input: inputURL)
                case "num_redirects": return String(r.redirects.count)
                case "content_type": return r.headers.last { $0.name.lowercased() == "content-type" }?.value.description ?? ""
                case "size_download": return String(r.bodyLength)
                case "size_header":
                    let statusLine: Int = "HTTP/\(r.httpVersion) \(r.status) \(r.reason)\r\n".utf8.count
                    var fields = 0
                    for field in r.headers { fields += field.name.utf8.count + field.value.count + 4 }
                    return String(statusLine + fields + 2)
                case "remote_ip": return r.remoteAddress
                case "remote_port": return String(r.remotePort)
                case "local_ip": return r.localAddress
                case "local_port": return String(r.localPort)
                case "num_connects": return String(r.connections)
                case "referer": return r.referer ?? ""
                case "time_pretransfer": return seconds(r.timing.pretransfer)
                case "time_redirect": return seconds(r.timing.redirect)
                case "size_upload": return String(r.uploadedBytes)
                case "size_request": return String(r.requestHeadBytes)
                case "speed_upload": return String(r.timing.total > 0 ? Int(Double(r.uploadedBytes) / r.timing.total) : 0)
                case "ssl_verify_result": return String(r.tlsVerifyResult)
                case "time_namelookup": return seconds(r.timing.dns)
                case "time_connect": return seconds(r.timing.connect)
                case "time_appconnect": return seconds(r.timing.tls)
                case "time_starttransfer": return seconds(r.timing.firstByte)
                case "urlnum": return String(urlnum)
                case "filename_effective": return filename ?? ""
                case "scheme": return String(r.url.prefix { $0 != ":" }).uppercased()
                case "num_headers": return String(r.headers.count)
                case "redirect_url":
                    guard (300..<400).contains(r.status), let location = r.headers.last(where: { PekitHeaders.sameName($0.name, "Location") }) else { return "" }
                    // As curl's URL API writes it (an empty path is "/").
                    let resolved = URLResolution.resolve(location.value.description, against: r.url)
                    guard var url = try? RequestURL(resolved, readingHostAsCurl: true) else { return resolved }
                    if url.path.isEmpty { url.path = "/" }
                    return url.description
                case "speed_download": return String(r.timing.total > 0 ? Int(Double(r.bodyLength) / r.timing.total) : 0)
                default: return seconds(r.timing.total)
                }
    }
}
