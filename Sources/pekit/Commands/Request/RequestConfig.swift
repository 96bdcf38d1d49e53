import Foundation
import PekitCore
import PekitCrypto
import PekitHTTP
import PekitLua

/// Builds the request a command line describes, then hands it to `handler` (import), sends it,
/// or shows it (`--raw`, `--curl`, `--describe`).
/// `sharedJar`: the cookie engine of an earlier URL of the same command, which this one uses
/// (curl shares its cookies across a command's URLs).
func buildAndRun(_ parsed: Arguments, url: String, urlIndex: Int = 0, output: OutputChoice, sharedJar: CookieJar? = nil, _ handler: BuiltRequestHandler?) throws -> Int32 {
    do {
        let sending = try isSending(parsed)
        var builder = try requestBuilder(parsed, url: url, urlIndex: urlIndex, sending: sending, sharedJar: sharedJar)
        // -C on a download: the rest, from the offset or the -o file's size.
        if builder.body.isNone, builder.contentRange == nil, builder.range == nil, let offset = try ContinueAt.offset(parsed) {
            var path: String?
            if case .file(let name) = output { path = parsed.value(RequestOptions.outputDir).map { $0 + "/" + name } ?? name }
            let n = ContinueAt.downloadOffset(offset, outputPath: path)
            if n > 0 { builder.range = "\(n)-" }
        }
        var request = try builder.build()
        if let spec = parsed.value(RequestOptions.awsSigv4) {
            try signAWS(&request, spec: spec, user: parsed.value(RequestOptions.user))
        }
        if let handler { return try handler(request, builder, parsed) }
        if sending {
            return try send(request, builder: builder, parsed, output: output)
        }
        if parsed.has(RequestOptions.curl) {
            Output.stdout.line(try request.curl())
        } else if parsed.has(RequestOptions.describe) {
            Output.stdout.write(JSONText.write(request.summary))
            Output.stdout.line("")
        } else if let list = parsed.value(RequestOptions.readBy) {
            for line in try readings(of: request, by: ServerReadings.models(list, command: "request")) { Output.stdout.line(line) }
        } else {
            Output.stdout.write(try request.raw())
            // Someone at a terminal who typed a URL may have expected it sent, as curl would.
            if !parsed.has(RequestOptions.raw), isatty(STDOUT_FILENO) != 0, isatty(STDERR_FILENO) != 0 {
                Output.stderr.line("pekit request: shown, not sent: --send (or any sending option, -i, -o FILE…) sends it")
            }
        }
        return 0
    } catch let error as UsageError {
        throw error
    } catch let error as CommandFailure {
        throw error
    } catch let error as HTTPError {
        throw CommandFailure(message: "pekit request: \(error.message(.commandLine))", status: error.curlExitStatus, isTransfer: true)
    } catch let error as RequestError {
        // curl's CURLE_URL_MALFORMAT, for a URL its parser (or its IDN library) refuses.
        if case .invalidURL = error { throw CommandFailure(message: "pekit request: \(error)", status: 3) }
        throw CommandFailure(message: "pekit request: \(error)")
    } catch {
        throw CommandFailure(message: "pekit request: \(error)")
    }
}

/// `--read-by`: how each server reads the request's query, then its body where it is a form
/// (application/x-www-form-urlencoded) or multipart/form-data (each server's own multipart
/// parser), then its Cookie field (each server's cookie parser); what another body is, in words.
private func readings(of request: PekitRequest, by models: [QueryServer]) throws -> [String] {
    var lines: [String] = []
    let target = Array(request.target.utf8)
    if let mark = target.firstIndex(of: 0x3F) {
        let query = Array(target[(mark + 1)...].prefix { $0 != 0x23 })
        lines.append("query: " + printable(String(decoding: query, as: UTF8.self)))
        lines += ServerReadings.lines(query, models: models)
    } else {
        lines.append("query: none")
    }
    let type = request.headers["Content-Type"] ?? ""
    let form = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } == "application/x-www-form-urlencoded"
    switch request.body {
    case .empty: lines.append("body: none")
    case .bytes(let bytes) where form:
        lines.append("body (\(type)): " + printable(String(decoding: bytes, as: UTF8.self)))
        lines += ServerReadings.lines(bytes, models: models)
    case .bytes(let bytes): lines.append("body: \(bytes.count) bytes of \(type.isEmpty ? "no Content-Type" : type), not a form: not read as parameters")
    case .multipart(let parts):
        lines.append("body (\(type)): \(parts.parts.count) part\(parts.parts.count == 1 ? "" : "s")")
        let body = try request.bodyBytes()
        lines += ServerReadings.lines(of: models) { model in
            guard let reader = MultipartServer.reading(for: model.name) else { return nil }
            return try reader.read(contentType: Array(type.utf8), body: body)
        }
    case .file(let path): lines.append("body: the file \(printable(path)), not read as parameters")
    }
    if let cookie = request.headers["Cookie"] {
        lines.append("cookies: " + printable(cookie))
        lines += ServerReadings.lines(of: models) { model in
            try model.model.cookieServer.map { try $0.read(Array(cookie.utf8)) }
        }
    }
    return lines
}

/// The builder a `pekit request` command line describes: curl's flags with curl's meaning (the
/// fields curl writes, in its order: see `RequestBuilder+Fields.swift`), and pekit's own
/// (`--param`, `--policy`, `--jar`, `--connect`). A Lua host is started only for a policy.
/// `sharedJar`, when given, is the jar (loaded from --jar and -b files, with --filter's
/// plugins, before an earlier URL of the command) this URL uses as it is.
func requestBuilder(_ parsed: Arguments, url: String, urlIndex: Int = 0, sending: Bool, sharedJar: CookieJar? = nil) throws -> RequestBuilder {
    // A URL with no scheme gets the one curl guesses; one relative to --base is not guessed at.
    let base = parsed.value(RequestOptions.base)
    let url = base == nil ? curlGuessedScheme(url) : url
    var builder = RequestBuilder(url: parsed.has(RequestOptions.globoff) ? url : try curlGlobbed(url))
    builder.base = base
    builder.target = parsed.value(RequestOptions.requestTarget)
    // The jar's context: a cross-site request or response, and the top-level page (CHIPS).
    builder.cookieContext = try CookieContextOptions.context(parsed, command: "request")
    if let name = parsed.value(RequestOptions.policy) {
        builder.policy = try commandHost(extraPluginDirectories: parsed.all(.plugins)).policy(named: name)
        if builder.policy.acceptLanguage != nil { builder.environment = ProcessInfo.processInfo.environment }
    }
    // --param keys nest as a Lua table's would (u[name]=x, tags[]=a; u.name=x under a policy that
    // writes objects with dots), so the policy writes them its own way; --param-json values are typed.
    let items = parsed.values.compactMap { option -> (text: String, typed: Bool)? in
        guard let value = option.value, option.name == RequestOptions.param.name || option.name == RequestOptions.paramJson.name else { return nil }
        return (value, option.name == RequestOptions.paramJson.name)
    }
    if !items.isEmpty {
        do { builder.params = try CommandLineParameters.read(items, dots: { if case .dots = builder.policy.objects { return true }; return false }()) } catch let failure as CommandLineParameters.Failure {
            // "takes key=value, …" or "'item': why", under the option the item came with.
            throw UsageError(command: "request", message: "--\(failure.typed ? RequestOptions.paramJson.name : RequestOptions.param.name) \(failure)")
        }
    }
    if let placement = parsed.value(RequestOptions.paramsIn) {
        guard let value = RequestBuilder.ParameterPlacement(rawValue: placement) else {
            throw UsageError(command: "request", message: "--params-in must be query or body")
        }
        builder.placement = value
    }
    builder.headers = try curlHeaders(parsed)

    // --url-query: added to the query, but for -G with data, where curl 7.88 sends -G's alone.
    if let query = try curlURLQuery(parsed) {
        if parsed.has(RequestOptions.get) && curlDataParts(parsed) != nil {
            Output.stderr.line("pekit request: warning: --url-query is not sent with -G and -d, as curl 7.88 sends neither of its pieces: put them in -d")
        } else {
            builder.url = URLResolution.appendQuery(query, to: builder.url)
        }
    }
    // The body: one of -d/--data…, --json, -F/--file, --body-file.
    var bodies: [(RequestBody, String)] = []
    if let (data, file) = try curlData(parsed) {
        if parsed.has(RequestOptions.get) {
            // -G: the data goes into the query, as curl puts it there.
            builder.url = URLResolution.appendQuery(String(decoding: data, as: UTF8.self), to: builder.url)
        } else {
            let type = "application/x-www-form-urlencoded"
            bodies.append((file.map { .file($0, contentType: type) } ?? .bytes(data, contentType: type), "-d"))
        }
    }
    if let json = try curlJSON(parsed) {
        bodies.append((.bytes(json, contentType: nil), "--json"))
        // As curl's tool: after the -H fields, unless one of them names it.
        for (name, value) in [("Content-Type", "application/json"), ("Accept", "application/json")]
        where !builder.headers.contains(where: { PekitHeaders.sameName($0.name, name) }) {
            builder.headers.append(RequestBuilder.Header(name, value))
        }
    }
    var parts: [MultipartBody.Part] = []
    for spec in parsed.all(RequestOptions.file) {
        guard let eq = spec.firstIndex(of: "="), spec[spec.index(after: eq)...].hasPrefix("@") else {
            throw UsageError(command: "request", message: "--file takes field=@path, not '\(spec)'")
        }
        let path = String(spec[spec.index(eq, offsetBy: 2)...])
        parts.append(MultipartBody.Part(name: String(spec[..<eq]), filename: String(path.split(separator: "/").last ?? ""), source: .file(path)))
    }
    for (option, spec) in parsed.all([RequestOptions.form, RequestOptions.formString]) {
        parts.append(option.name == RequestOptions.formString.name ? try curlFormStringPart(spec) : try curlFormPart(spec))
    }
    if !parts.isEmpty { bodies.append((.multipart(parts), "-F")) }
    if let path = parsed.value(RequestOptions.bodyFile) { bodies.append((.file(path, contentType: nil), "--body-file")) }
    // Each -T goes with one URL, in order, as curl pairs them; a URL past the last has none.
    let uploads = parsed.all(RequestOptions.uploadFile)
    if urlIndex < uploads.count {
        let upload = parsed.has(RequestOptions.globoff) ? uploads[urlIndex] : try curlGlobbed(uploads[urlIndex], subject: "the -T file name")
        // curl 7.88 refuses -T beside -d, -F or --json: both a PUT and a POST (exit 2).
        if let other = bodies.first {
            throw UsageError(command: "request", message: "You can only select one HTTP request method! You asked for both PUT (-T, --upload-file) and POST (\(other.1)), as curl says")
        }
        try curlUpload(upload, into: &builder)
        bodies.append((builder.body, "-T"))
    }
    if bodies.count > 1 {
        throw UsageError(command: "request", message: "give one body: \(bodies.map(\.1).joined(separator: " and ")) cannot go together")
    }
    builder.body = bodies.first?.0 ?? .none
    if let offset = try ContinueAt.offset(parsed) { try ContinueAt.upload(&builder, offset) }
    builder.timeCondition = try TimeCondition(parsed)?.field
    if let field = try ETagFiles.compareField(parsed) { builder.headers.append(field) }

    builder.bearerToken = parsed.value(RequestOptions.oauth2Bearer)
    if let user = parsed.value(RequestOptions.user), !parsed.has(RequestOptions.awsSigv4) {
        let parts = user.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        builder.basicAuth = (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
    }
    if let agent = parsed.value(RequestOptions.userAgent) { builder.userAgent = agent.isEmpty ? nil : agent }
    if let range = parsed.value(RequestOptions.range) {
        // curl's tool_getparam.c: a lone number gets its dash.
        if range.first?.isASCII == true, range.first?.isNumber == true, !range.contains("-") {
            Output.stderr.line("pekit request: warning: a range must include a dash (-): sending \(range)-, as curl does")
            builder.range = range + "-"
        } else {
            builder.range = range
        }
    }
    if let referer = parsed.value(RequestOptions.referer) {
        // curl's "URL;auto" also sets the Referer of redirects; the URL part is what goes out.
        let url = referer.hasSuffix(";auto") ? String(referer.dropLast(5)) : referer
        builder.referer = url.isEmpty ? nil : url
    }
    if parsed.has(RequestOptions.compressed) { builder.acceptEncoding = PekitClient.acceptEncoding }
    if let sharedJar {
        builder.jar = sharedJar
        for cookie in parsed.all(RequestOptions.cookie) where cookie.contains("=") {
            builder.cookie = builder.cookie.map { $0 + ";" + cookie } ?? cookie
        }
    } else {
        try setUpCookies(&builder, parsed, sending: sending)
    }
    builder.connect = try parsed.all(RequestOptions.connect).map { try connectMapping($0, command: "request") }
    builder.connect += try curlMappings(parsed)
    builder.method = .init(parsed.value(RequestOptions.method) ?? (parsed.has(RequestOptions.head) ? "HEAD" : builder.uploadsAsCurl ? "PUT" : builder.body.isNone ? "GET" : "POST"))
    // -X as curl sends it: methods are case-sensitive (`-X wHat` is `wHat`); the URL as curl
    // reads its command line (slashes, dot segments, the host's case, escapes).
    builder.keepsMethodCase = true
    builder.readsURLAsCurl = true
    builder.keepsDotSegments = parsed.has(RequestOptions.pathAsIs)
    // curl's engine (-b, -c), not pekit's --jar, whose cookies stay the address's (and a
    // warning says how to reach the name).
    if let jar = builder.jar, jar.headerRule == .curl { mapHandWrittenHost(builder, url: url, jar: jar) }
    return builder
}

/// curl 7.88 keeps and sends cookies under the name a hand-written `-H 'Host: NAME[:PORT]'`
/// gives, not under the URL's host (its tests 62, 329, 1258): a filter maps the URL's host to
/// that name, as an IP-to-host filter does (once a host, for a jar several URLs share).
private func mapHandWrittenHost(_ builder: RequestBuilder, url: String, jar: CookieJar) {
    guard let field = builder.headers.first(where: { PekitHeaders.sameName($0.name, "Host") }), var name = field.value?.trimmingCharacters(in: .whitespaces),
          !name.isEmpty, let target = try? RequestURL(curlGuessedScheme(url), readingHostAsCurl: true) else { return }
    if name.hasPrefix("[") {
        if let close = name.firstIndex(of: "]") { name = String(name[name.index(after: name.startIndex)..<close]) }
    } else if let colon = name.firstIndex(of: ":") {
        name = String(name[..<colon])
    }
    let filterName = "-H 'Host: \(name)' for \(target.host)"
    guard !name.isEmpty, !jar.filters.contains(where: { $0.name == filterName }) else { return }
    let host = target.host, logical = name.lowercased()
    jar.filters.append(CookieFilter(name: filterName, host: { $0.host == host ? logical : nil }))
}

/// An empty jar on the wall clock, checking Domain attributes against the public suffix list.
/// `asCurl` (the engine curl's -b and -c turn on): its Cookie header is curl's (curl's order, at
/// most 150 cookies and 8,190 bytes), and as curl it keeps more than a browser's 50 cookies for
/// a domain (the jar's total still caps them). pekit's own --jar sends as `pekit cookies header`.
private func newJar(asCurl: Bool = true) throws -> CookieJar {
    let jar = CookieJar(publicSuffixes: try PublicSuffixList.loadFromProcessEnvironment(), clock: { Date().timeIntervalSince1970 })
    if asCurl { jar.keepAsCurl() }
    return jar
}

/// `--aws-sigv4 aws:amz:REGION:SERVICE` with `-u KEY:SECRET`, as curl takes them.
func signAWS(_ request: inout PekitRequest, spec: String, user: String?) throws {
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
        let labels = (try request.requestURL()).host.split(separator: ".").map(String.init)
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

/// The cookie engine a command line asks for: --jar's file, -b's strings and files (a file not
/// there yet turns the engine on, as curl), -c's jar, --filter's plugins on it.
private func setUpCookies(_ builder: inout RequestBuilder, _ parsed: Arguments, sending: Bool) throws {
    if let jarPath = parsed.value(RequestOptions.jar) {
        let jar = try newJar(asCurl: false)
        // A jar file that does not exist yet is where --send will save the first cookies.
        if !(sending && !FileManager.default.fileExists(atPath: jarPath)) {
            let (loaded, warnings) = try jar.load(from: jarPath)
            for warning in warnings { Output.stderr.line("pekit request: warning: \(printable(warning))") }
            if sending && !parsed.has(RequestOptions.force) { try refuseToReplace(jarPath, loaded: loaded, skipped: warnings.count, command: "request") }
        }
        builder.jar = jar
    }
    // curl's -b: a cookie string (it has '=') goes after the jar's cookies; otherwise a cookie file
    // to read. -c FILE: the cookies, session ones too, are written there after sending.
    for cookie in parsed.all(RequestOptions.cookie) {
        if cookie.contains("=") {
            // Several -b strings are joined as curl joins them: with ";" alone.
            builder.cookie = builder.cookie.map { $0 + ";" + cookie } ?? cookie
        } else if cookie.isEmpty || !FilePaths.exists(cookie) || FilePaths.isDirectory(cookie) {
            // As curl: a file that is not there (yet), or -b "", turns the cookie engine on with
            // no cookies, so the first login's `-b jar -c jar` works (curl tests 7, 31, 329, …);
            // so does a folder, from which curl reads nothing (its test 46).
            if !cookie.isEmpty, FilePaths.isDirectory(cookie) {
                Output.stderr.line("pekit request: warning: -b \(printable(cookie)) is a folder: no cookies are read from it")
            }
            builder.jar = try builder.jar ?? newJar()
        } else {
            let jar = try builder.jar ?? newJar()
            let (_, warnings) = try jar.load(from: cookie)
            for warning in warnings { Output.stderr.line("pekit request: warning: \(printable(warning))") }
            builder.jar = jar
        }
    }
    // -c FILE is written after sending: a file there that is not a jar is refused now, before
    // anything is sent (--force replaces it).
    if let path = parsed.value(RequestOptions.cookieJar), sending, !parsed.has(RequestOptions.force) {
        do { try CookieJar.checkReplaceable(path) } catch { throw CommandFailure(message: "pekit request: -c: \(error) (--force replaces it)") }
    }
    if parsed.value(RequestOptions.cookieJar) != nil, builder.jar == nil {
        builder.jar = try newJar()
    }
    // --filter: cookie-filter plugins on the jar, as `pekit cookies --filter` and Lua's
    // jar{filter =} take them (a jar in memory when no file is given).
    let filters = parsed.all(RequestOptions.filter)
    if !filters.isEmpty {
        let host = try commandHost(extraPluginDirectories: parsed.all(.plugins))
        let jar = try builder.jar ?? newJar()
        do { jar.filters += try filters.map { try host.cookieFilter(spec: $0) } } catch {
            throw CommandFailure(message: "pekit request: --filter: \(error)")
        }
        builder.jar = jar
    }
}

/// `--connect NAME:PORT=ADDRESS:PORT` (pekit request's, pekit test's) as a host mapping.
/// - Throws: `UsageError` for a spec without `=`; HostMapping's error for a bad side.
func connectMapping(_ spec: String, command: String) throws -> HostMapping {
    guard let eq = spec.firstIndex(of: "=") else {
        throw UsageError(command: command, message: "--connect takes NAME:PORT=ADDRESS:PORT, not '\(spec)'")
    }
    return try HostMapping(String(spec[..<eq]), String(spec[spec.index(after: eq)...]), written: "--connect \(spec)")
}

/// curl's `-T FILE`: the file streamed as the body with no `Content-Type` and `Expect:
/// 100-continue` (as libcurl uploads), a URL whose path is empty or ends in `/` given the file's
/// name (escaped as `curl_easy_escape` escapes it: curl's `add_file_name_to_url`), and `-T -`
/// (or `.`) standard input, sent chunked as curl sends a body of unknown size.
/// - Throws: `CommandFailure` (exit 26) for a file that cannot be read, as curl's "Can't open".
private func curlUpload(_ path: String, into builder: inout RequestBuilder) throws {
    builder.uploadsAsCurl = true
    if path == "-" || path == "." {
        builder.body = .bytes(try readAllInput(), contentType: nil)
        if !builder.headers.contains(where: { PekitHeaders.sameName($0.name, "Transfer-Encoding") }) {
            builder.headers.append(RequestBuilder.Header("Transfer-Encoding", "chunked"))
        }
        return
    }
    guard FilePaths.isReadable(path) else {
        throw CommandFailure(message: "pekit request: -T: cannot read \(PercentDecodingError.printable(Array(path.utf8)))", status: 26)
    }
    builder.body = .file(path, contentType: nil)
    // The name goes after a path that is empty or ends in /, before any query.
    let url = builder.url
    let schemeEnd = url.range(of: "://").map { $0.upperBound } ?? url.startIndex
    let queryStart = url[schemeEnd...].firstIndex(where: { $0 == "?" || $0 == "#" }) ?? url.endIndex
    let beforeQuery = url[..<queryStart]
    let pathStart = beforeQuery[schemeEnd...].firstIndex(of: "/")
    guard pathStart == nil || beforeQuery.hasSuffix("/") else { return }
    let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
    // Escaped as curl 7.88 escapes it (its URL API): unreserved bytes kept, hex in lower case.
    let escaped = name.utf8.map { AllowedSet.unreserved.contains($0) ? String(UnicodeScalar($0)) : "%" + ASCII.hex($0, uppercase: false) }.joined()
    builder.url = String(beforeQuery) + (pathStart == nil ? "/" : "") + escaped + url[queryStart...]
}
