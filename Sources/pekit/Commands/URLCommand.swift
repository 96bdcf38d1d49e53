import PekitCore

let urlCommand = Command(
    name: "url",
    summary: "parse and resolve URLs as browsers do (WHATWG URL Standard); host names to and from IDNA",
    synopsis: """
    usage: pekit url parse [--base URL] URL...
           pekit url resolve BASE REF...
           pekit url host NAME...

    The URL Standard's parser (what browsers, node and ada use): spaces and non-ASCII
    percent-encoded by component, hosts in their IDNA ASCII form (UTS #46, as browsers), IPv4
    in any form written dotted, IPv6 compressed, dot segments removed.

      parse     prints each URL's fields as one line of JSON: href, origin, protocol, username,
                password, host, hostname, port, pathname, search, hash
      resolve   prints each REF resolved against BASE (an href a line)
      host      prints each NAME's ASCII and Unicode forms, tab-separated (url.domainToASCII and
                url.domainToUnicode in node)
    """,
    sections: { [HelpSection("options:", URLOptions.all)] },
    epilogue: """
    examples:
      pekit url parse 'HTTP://user@例子.中国:80/a b/../c?q=汉#top'
      pekit url resolve https://example.com/a/b ../c '//cdn.example/x' '?page=2'
      pekit url host www.例子.中国 xn--fa-hia.de 0x7F.1

    exit status: 0 when every argument is a URL (or host), 1 otherwise (each failure is named on
    standard error, the rest still printed), 2 on a usage error.
    """,
    run: runURL
)

/// `pekit url`'s options, in the order its help shows them.
enum URLOptions {
    static let base = Option("base", value: "URL", "resolve relative URLs against URL (parse)")
    static let json = Option("json", "host: one line of JSON each ({\"input\", \"ascii\", \"unicode\"})")
    static let color = Option.color("""
        auto (on a terminal, JSON indented and coloured unless NO_COLOR is
        set; one line in a pipe), always or never
        """)
    static let all: [Option] = [base, json, color, .help]
}

private func runURL(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try urlCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(urlCommand.help); return 0 }
    // On a terminal, JSON indented and coloured (--color); in a pipe, one line each.
    let style = try Style(parsed, command: "url")
    guard let action = parsed.positionals.first else { throw UsageError(command: "url", message: "give an action: parse, resolve or host") }
    let operands = Array(parsed.positionals.dropFirst())
    if parsed.value(URLOptions.base) != nil && action != "parse" { throw UsageError(command: "url", message: "--base is for 'url parse'") }
    if parsed.has(URLOptions.json) && action != "host" { throw UsageError(command: "url", message: "--json is for 'url host' ('url parse' always prints JSON)") }
    var failed = false
    func fail(_ place: String, _ error: Any) {
        Output.stderr.line("pekit url \(action): \(place): \(printable(String(describing: error)))")
        failed = true
    }
    switch action {
    case "parse":
        guard !operands.isEmpty else { throw UsageError(command: "url", message: "give a URL to parse") }
        var base: WHATWGURL?
        if let text = parsed.value(URLOptions.base) {
            do { base = try WHATWGURL(text) } catch { throw CommandFailure(message: "pekit url parse: --base \(printable(text)): \(error)") }
        }
        for (i, text) in operands.enumerated() {
            do { Output.stdout.line(String(decoding: style.json(fields(try WHATWGURL(text, base: base))), as: UTF8.self)) }
            catch { fail("argument \(i + 1) (\(printable(text)))", error) }
        }
    case "resolve":
        guard operands.count >= 2 else { throw UsageError(command: "url", message: "give a base URL and at least one reference") }
        let base: WHATWGURL
        do { base = try WHATWGURL(operands[0]) } catch { throw CommandFailure(message: "pekit url resolve: base \(printable(operands[0])): \(error)") }
        for (i, text) in operands.dropFirst().enumerated() {
            do { Output.stdout.line(try WHATWGURL(text, base: base).href) } catch { fail("reference \(i + 1) (\(printable(text)))", error) }
        }
    case "host":
        guard !operands.isEmpty else { throw UsageError(command: "url", message: "give a host name") }
        for (i, name) in operands.enumerated() {
            do {
                let ascii = try IDNA.domainToASCII(name), unicode = try IDNA.domainToUnicode(name)
                if parsed.has(URLOptions.json) {
                    let value = PekitValue.map(PekitMap(ordered: [.init(key: "input", value: .text(name)), .init(key: "ascii", value: .text(ascii)),
                                                                  .init(key: "unicode", value: .text(unicode))]))
                    Output.stdout.line(String(decoding: style.json(value), as: UTF8.self))
                } else {
                    Output.stdout.line(ascii + "\t" + unicode)
                }
            } catch { fail("argument \(i + 1)", error) }
        }
    default:
        throw UsageError(command: "url", message: "unknown action '\(action)': parse, resolve or host")
    }
    return failed ? 1 : 0
}

/// The URL's fields in the URL class's order, as JSON.
private func fields(_ url: WHATWGURL) -> PekitValue {
    let pairs: [(String, String)] = [("href", url.href), ("origin", url.origin), ("protocol", url.protocolName), ("username", url.username),
                                     ("password", url.password), ("host", url.hostWithPort), ("hostname", url.hostname), ("port", url.portString),
                                     ("pathname", url.pathname), ("search", url.search), ("hash", url.hash)]
    return .map(PekitMap(ordered: pairs.map { .init(key: ByteString($0.0), value: .text($0.1)) }))
}
