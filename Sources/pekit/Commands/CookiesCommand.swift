import Foundation
import PekitCore
import PekitLua

let cookiesCommand = Command(
    name: "cookies",
    summary: "a cookie jar file: receive Set-Cookie headers, get the Cookie header, list, explain, delete",
    synopsis: """
    usage: pekit cookies receive JAR URL SET-COOKIE...
           pekit cookies header  JAR URL
           pekit cookies list    JAR [URL]
           pekit cookies explain JAR URL
           pekit cookies delete  JAR URL [NAME]
       options: [--filter NAME[:OPTIONS]]... [--now SECONDS] [--site CONTEXT | --same-site | --cross-site | --site-for-cookies URL] [--navigation] [--top-level URL] [--force] [--plugins DIR]

    JAR is a cookie file: Netscape cookies.txt (as curl -c writes it), or JSON when it ends in
    .json. It is created when missing and rewritten atomically (session cookies included, so a
    jar carries a session across commands), under a lock held from loading to saving, so that
    commands updating one jar at once all keep their cookies. Cookies follow RFC 6265 with the public suffix list.

      receive   store each Set-Cookie value as received from URL; prints what was stored or why not
      header    print the Cookie header to send to URL (nothing when no cookie matches)
      list      print the cookies (those sent to URL, when given)
      explain   for each cookie, whether it is sent to URL and why
      delete    delete the cookies sent to URL (only NAME, when given); prints how many
    """,
    sections: { [HelpSection("options:", CookiesOptions.all)] },
    epilogue: """
    examples:
      pekit cookies receive jar.txt https://www.example.com/a 'sid=1; Domain=example.com; Secure'
      pekit cookies header jar.txt https://shop.example.com/cart
      pekit cookies explain jar.txt http://example.com/
    """,
    run: runCookies
)

/// `pekit cookies`'s options, in the order its help shows them.
enum CookiesOptions {
    static let filter = Option("filter", value: "NAME[:OPTIONS]", """
        a cookie-filter plugin (rfc6265, host-contains, deny, httpdns,
        or your own); repeat to stack them. OPTIONS are the plugin's options, as
        a JSON object or as KEY=VALUE,… (KEY=A=B adds A = B to the map KEY; a key
        given twice is a list):
          --filter 'httpdns:hosts=203.0.113.7=api.example.com'
          --filter 'deny:{"names": ["^_ga", "^_gid$"]}'
        """)
    static let now = Option("now", value: "SECONDS", "the clock, in seconds since 1970, to replay old traffic")
    static let force = Option("force", "save even over a file that did not load as a jar (otherwise refused)")
    static let all: [Option] = [filter, now] + CookieContextOptions.rows + [force, .plugins, .help]
}

private func runCookies(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try cookiesCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(cookiesCommand.help); return 0 }
    let words = parsed.positionals
    let context = try CookieContextOptions.context(parsed, command: "cookies")
    guard let action = words.first else { throw UsageError(command: "cookies", message: "give an action: receive, header, list, explain or delete") }
    let limits: [String: (least: Int, most: Int)] = ["receive": (4, Int.max), "header": (3, 3), "list": (2, 3), "explain": (3, 3), "delete": (3, 4)]
    guard let (least, most) = limits[action] else {
        throw UsageError(command: "cookies", message: "unknown action '\(action)' (receive, header, list, explain, delete)")
    }
    guard words.count >= least else {
        let what = ["receive": "JAR URL SET-COOKIE...", "list": "JAR [URL]", "delete": "JAR URL [NAME]"][action] ?? "JAR URL"
        throw UsageError(command: "cookies", message: "\(action) needs \(what)")
    }
    guard words.count <= most else { throw UsageError(command: "cookies", message: "too many arguments for \(action)") }
    var now: Double?
    if let text = parsed.value(CookiesOptions.now) {
        guard let value = Double(text), value.isFinite, abs(value) <= 1e11 else {
            throw UsageError(command: "cookies", message: "--now takes seconds since 1970, not '\(text)'")
        }
        now = value
    }
    try parsed.requireTextPaths(command: "cookies", positionals: [1])
    let jarPath = words[1]
    let url: RequestURL? = try words.count >= 3 ? cookieURL(words[2]) : nil
    let jar: CookieJar
    do {
        // Storing checks Domain attributes against the public suffix list; the other actions read
        // it only when the file has a domain cookie to check (it is most of a cookie command's
        // start-up).
        let suffixes = action == "receive" ? try PublicSuffixList.loadFromProcessEnvironment() : nil
        let fixedNow = now
        jar = CookieJar(publicSuffixes: suffixes,
                        clock: { fixedNow ?? Date().timeIntervalSince1970 })
        // A file with a domain cookie is checked against it as it loads (no cookie for a public suffix).
        jar.suffixLoader = { try? PublicSuffixList.loadFromProcessEnvironment() }
    } catch { throw CommandFailure(message: "pekit cookies: \(error)") }
    // Filters are Lua plugins: a runtime only when one is asked for, kept while the jar is used.
    var runtime: LuaRuntime?
    let filters = parsed.all(CookiesOptions.filter)
    if !filters.isEmpty {
        let host = try commandHost(extraPluginDirectories: parsed.all(.plugins))
        do { jar.filters = try filters.map { try host.cookieFilter(spec: $0) } } catch {
            throw CommandFailure(message: "pekit cookies: --filter: \(error)")
        }
        runtime = host
    }
    let force = parsed.has(CookiesOptions.force)
    return try withExtendedLifetime(runtime) {
        let run = { try runCookieAction(action, jar: jar, jarPath: jarPath, url: url, rest: Array(words.dropFirst(3)),
                                             restBytes: Array(parsed.rawPositionals.dropFirst(3)), force: force, context: context) }
        guard action == "receive" || action == "delete" else { return try run() }
        // A read-change-write of the jar: under its lock, so that processes updating one jar at
        // once merge (each loads what the one before saved) instead of overwriting each other.
        do { return try Files.withLock(jarPath, run) } catch let error as CookieError { throw CommandFailure(message: "pekit cookies: \(error)") }
    }
}

private func cookieURL(_ text: String) throws -> RequestURL {
    do { return try RequestURL(text) } catch { throw CommandFailure(message: "pekit cookies: \(error)") }
}

private func runCookieAction(_ action: String, jar: CookieJar, jarPath: String, url: RequestURL?, rest: [String], restBytes: [[UInt8]], force: Bool,
                             context: CookieJar.RequestContext) throws -> Int32 {
    func fail(_ error: Error) -> CommandFailure { CommandFailure(message: "pekit cookies: \(error)") }
    if access(jarPath, F_OK) == 0 {
        let loaded: (loaded: Int, warnings: [String])
        do { loaded = try jar.load(from: jarPath) } catch { throw fail(error) }
        for warning in loaded.warnings { Output.stderr.line("pekit cookies: warning: \(printable(warning))") }
        if (action == "receive" || action == "delete") && !force {
            try refuseToReplace(jarPath, loaded: loaded.loaded, skipped: loaded.warnings.count, command: "cookies")
        }
    }
    func save() throws {
        // Checked when it was loaded (refuseToReplace).
        do { try jar.save(to: jarPath, format: nil, sessions: true, force: true) } catch { throw fail(error) }
    }
    do {
        switch action {
        case "receive":
            guard let url else { return 2 }
            let evictedBefore = jar.evicted
            var lines: [String] = [], rejected: [String] = []
            for (given, bytes) in zip(rest, restBytes) {
                // As the bytes the shell passed: a value that is not UTF-8 is kept as it came.
                var header = bytes[...]
                // A line pasted from a response or a browser's tools: the field's name is not part
                // of the value (it would make a cookie named "Set-Cookie: a").
                if given.lowercased().hasPrefix("set-cookie:") {
                    header = header.dropFirst("set-cookie:".count).drop { $0 == 0x20 || $0 == 0x09 }
                    Output.stderr.line(printable("pekit cookies: note: \"\(String(given.prefix(40)))\" starts with the field name Set-Cookie:; the value after it is used"))
                }
                let outcome = try Array(header).withUnsafeBufferPointer { try jar.receive(bytes: $0, from: url, context: context) }
                switch outcome {
                case .stored(let cookie, let warnings):
                    lines.append("stored   " + describe(cookie))
                    for warning in warnings { lines.append("warning  \(cookie.name): \(warning.rule.rawValue): \(warning.reason)") }
                case .rejected(let name, let reason, let rule):
                    rejected.append(printable("rejected \(name): \(reason)"))
                    if rule == .ipAddressDomain, let hint = addressHint(url: url, header: Array(header)) { rejected.append(printable(hint)) }
                case .removed(let name, let count):
                    // Max-Age=0 or a past Expires: how a server deletes a cookie.
                    lines.append(printable("expired  \(name) (\(count > 0 ? "deleted the stored one" : "no stored cookie to delete"))"))
                }
            }
            for line in lines + rejected { Output.stdout.line(line) }
            if jar.evicted > evictedBefore { Output.stdout.line("evicted  \(jar.evicted - evictedBefore) (over the jar's limits)") }
            try save()
        case "header":
            if let url, let header = try jar.headerBytes(for: url, context: context) {
                // As its bytes go on the wire: a value that is not UTF-8 as it came.
                if let text = String(validating: header, as: UTF8.self) { Output.stdout.line(printable(text)) } else { Output.stdout.write(header + [0x0A]) }
            }
        case "list":
            for cookie in try url.map({ try jar.cookies(for: $0) }) ?? jar.all { Output.stdout.line(describe(cookie)) }
        case "explain":
            guard let url else { return 2 }
            for verdict in try jar.explain(url, context: context) {
                let sent = (verdict.sent ? "sent" : "not sent").padding(toLength: 8, withPad: " ", startingAt: 0)
                Output.stdout.line(printable("\(sent) \(verdict.cookie.pair)  \(verdict.reason)"))
            }
        default:  // delete
            guard let url else { return 2 }
            Output.stdout.line(String(try jar.delete(for: url, name: rest.first)))
            try save()
        }
    } catch let error as CommandFailure {
        throw error
    } catch {
        throw fail(error)
    }
    return 0
}

/// One cookie as the command prints it: `sid=1  domain=example.com path=/  Secure HttpOnly session`.
private func describe(_ c: Cookie) -> String {
    // One string grown in place (this runs for every cookie `pekit cookies list` prints).
    var line = c.name
    line.reserveCapacity(c.name.utf8.count + c.value.utf8.count + c.domain.utf8.count + c.path.utf8.count + 80)
    // A cookie with no name is shown as it is sent: its value alone.
    if !c.name.isEmpty { line += "=" }
    line += c.value; line += "  domain="; line += c.domain; line += " path="; line += c.path; line += " "
    if c.hostOnly { line += " host-only" }
    if c.secure { line += " Secure" }
    if c.httpOnly { line += " HttpOnly" }
    if let site = c.sameSite { line += " SameSite="; line += site.rawValue }
    if c.partitioned { line += " Partitioned"; if let key = c.partitionKey { line += "(" + key + ")" } }
    if let expires = c.expires, expires.isFinite, abs(expires) < 1e15 {
        line += " expires "; line += CookieDate.iso8601(Int64(expires.rounded(.down)))
    } else if let expires = c.expires, expires > 0 {
        line += " expires never"
    } else if c.expires != nil {
        // Past any date there is (-1e308, -inf): long expired, and never sent.
        line += " expired"
    } else {
        line += " session"
    }
    return printable(line)
}

/// What to do when a cookie from an address names a domain (an app that resolves its API's name
/// itself, HTTPDNS, and asks the address): the cookie belongs to the name, so the URL must carry
/// the name and the address be given apart, as `pekit request --connect` does, or the httpdns
/// filter must map the address to the name. Nil when the Domain attribute is not a name.
private func addressHint(url: RequestURL?, header: [UInt8]) -> String? {
    guard let url, RequestURL.isIPAddress(url.host), !url.host.contains(":"),
          let domain = SetCookie(String(decoding: header, as: UTF8.self))?.domain, !RequestURL.isIPAddress(domain) else { return nil }
    let port = url.port ?? (url.scheme == "https" ? 443 : 80)
    return "hint     the response came from the address \(url.host): to keep the cookie as \(domain)'s, put the name in the URL "
        + "and the address apart (pekit request --connect \(domain):\(port)=\(url.host):\(port) \(url.scheme)://\(domain)/…), "
        + "or map the address with the httpdns filter: --filter 'httpdns:hosts=\(url.host)=\(domain)'"
}
