/// The URL Standard's basic URL parser (§4.4), state by state.
struct URLParser {
    enum State {
        case schemeStart, scheme, noScheme, specialRelativeOrAuthority, pathOrAuthority, relative, relativeSlash
        case specialAuthoritySlashes, specialAuthorityIgnoreSlashes, authority, host, port, file, fileSlash, fileHost
        case pathStart, path, opaquePath, query, fragment
    }

    /// For the setters (§4.4 "state override"): the state parsing starts in and the one it
    /// stops after; `.host` with `hostnameOnly` is the hostname setter's.
    struct Override {
        let state: State
        var hostnameOnly = false
    }

    let input: [Unicode.Scalar]
    let base: WHATWGURL?
    var url = WHATWGURL(scheme: "")
    var state = State.schemeStart
    let override: Override?
    var buffer: [Unicode.Scalar] = []
    var atSignSeen = false, insideBrackets = false, passwordTokenSeen = false
    var pointer = 0
    var segments: [String] = []

    init(input: String, base: WHATWGURL?) {
        // Leading and trailing C0 controls and spaces go, and every tab and newline.
        var scalars = Array(input.unicodeScalars)
        let start = scalars.firstIndex(where: { $0.value > 0x20 }) ?? scalars.count
        let end = scalars.lastIndex(where: { $0.value > 0x20 }).map { $0 + 1 } ?? start
        scalars = Array(scalars[start..<max(start, end)])
        self.input = scalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        self.base = base
        self.override = nil
    }

    /// A setter's parse of `input` into `url` (tabs and newlines removed, nothing trimmed).
    init(input: String, url: WHATWGURL, override: Override) {
        self.input = input.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        self.base = nil
        self.url = url
        self.override = override
        self.state = override.state
    }

    func fail(_ reason: String) -> WHATWGURL.ParseError { WHATWGURL.ParseError(reason: reason, offset: min(pointer, input.count) + 1) }

    var c: Unicode.Scalar? { pointer < input.count && pointer >= 0 ? input[pointer] : nil }
    func at(_ i: Int) -> Unicode.Scalar? { i >= 0 && i < input.count ? input[i] : nil }
    var remaining: ArraySlice<Unicode.Scalar> { pointer + 1 < input.count ? input[(pointer + 1)...] : [] }

    static func isAlpha(_ c: Unicode.Scalar?) -> Bool { guard let c else { return false }; return (c.value | 0x20) >= 0x61 && (c.value | 0x20) <= 0x7A }
    static func isDigit(_ c: Unicode.Scalar?) -> Bool { guard let c else { return false }; return c.value >= 0x30 && c.value <= 0x39 }

    /// A Windows drive letter: a letter then `:` or `|` (normalized: `:` only).
    static func isWindowsDriveLetter(_ s: [Unicode.Scalar], normalized: Bool = false) -> Bool {
        s.count == 2 && isAlpha(s[0]) && (s[1] == ":" || (!normalized && s[1] == "|"))
    }
    func startsWithWindowsDriveLetter(_ i: Int) -> Bool {
        guard i + 1 < input.count, Self.isAlpha(input[i]), input[i + 1] == ":" || input[i + 1] == "|" else { return false }
        guard i + 2 < input.count else { return true }
        return ["/", "\\", "?", "#"].contains(input[i + 2])
    }

    var pathSegments: [String] {
        get { if case .segments(let s) = url.path { return s }; return [] }
        set { url.path = .segments(newValue) }
    }

    mutating func shortenPath() {
        var s = pathSegments
        if url.scheme == "file", s.count == 1, Self.isWindowsDriveLetter(Array(s[0].unicodeScalars), normalized: true) { return }
        if !s.isEmpty { s.removeLast() }
        pathSegments = s
    }

    static func isSingleDot(_ s: String) -> Bool { s == "." || s.lowercased() == "%2e" }
    static func isDoubleDot(_ s: String) -> Bool { ["..", ".%2e", "%2e.", "%2e%2e"].contains(s.lowercased()) }

    mutating func run() throws -> WHATWGURL {
        while true {
            let ch = c
            switch state {
            case .schemeStart:
                if Self.isAlpha(ch) { buffer.append(Unicode.Scalar(ch!.value | 0x20) ?? ch!); state = .scheme }
                else if override == nil { state = .noScheme; pointer -= 1 }
                else { throw fail("a scheme starts with a letter") }
            case .scheme:
                if let ch, Self.isAlpha(ch) || Self.isDigit(ch) || ch == "+" || ch == "-" || ch == "." {
                    buffer.append(Unicode.Scalar(Self.isAlpha(ch) ? ch.value | 0x20 : ch.value) ?? ch)
                } else if ch == ":" {
                    let scheme = String(String.UnicodeScalarView(buffer))
                    if override != nil {
                        // A setter may not turn special into non-special or back, nor make a
                        // file URL of one with credentials or a port, nor change a file URL
                        // with an empty host.
                        if url.isSpecial != (WHATWGURL.specialPorts[scheme] != nil) { return url }
                        if (url.includesCredentials || url.port != nil) && scheme == "file" { return url }
                        if url.scheme == "file" && url.host == .empty { return url }
                    }
                    url.scheme = scheme
                    if override != nil {
                        if let port = url.port, WHATWGURL.specialPorts[scheme] == .some(port) { url.port = nil }
                        return url
                    }
                    buffer = []
                    if url.scheme == "file" {
                        state = .file
                    } else if url.isSpecial, let base, base.scheme == url.scheme {
                        state = .specialRelativeOrAuthority
                    } else if url.isSpecial {
                        state = .specialAuthoritySlashes
                    } else if at(pointer + 1) == "/" {
                        state = .pathOrAuthority; pointer += 1
                    } else {
                        url.path = .opaque(""); state = .opaquePath
                    }
                } else if override == nil {
                    buffer = []; state = .noScheme; pointer = -1
                } else {
                    throw fail("a scheme is letters, digits, \"+\", \"-\" and \".\"")
                }
            case .noScheme:
                guard let base else { throw fail("not an absolute URL (no scheme) and no base to resolve it against") }
                if case .opaque = base.path {
                    guard ch == "#" else { throw fail("the base URL cannot have a relative URL resolved against it") }
                    url.scheme = base.scheme; url.path = base.path; url.query = base.query; url.fragment = ""; state = .fragment
                } else if base.scheme != "file" {
                    state = .relative; pointer -= 1
                } else {
                    state = .file; pointer -= 1
                }
            case .specialRelativeOrAuthority:
                if ch == "/", at(pointer + 1) == "/" { state = .specialAuthorityIgnoreSlashes; pointer += 1 }
                else { state = .relative; pointer -= 1 }
            case .pathOrAuthority:
                if ch == "/" { state = .authority } else { state = .path; pointer -= 1 }
            case .relative:
                guard let base else { throw fail("no base URL") }
                url.scheme = base.scheme
                if ch == "/" { state = .relativeSlash }
                else if url.isSpecial, ch == "\\" { state = .relativeSlash }
                else {
                    url.username = base.username; url.password = base.password; url.host = base.host; url.port = base.port
                    url.path = base.path; url.query = base.query
                    if ch == "?" { url.query = ""; state = .query }
                    else if ch == "#" { url.fragment = ""; state = .fragment }
                    else if ch != nil {
                        url.query = nil; shortenPath(); state = .path; pointer -= 1
                    }
                }
            case .relativeSlash:
                if url.isSpecial, ch == "/" || ch == "\\" { state = .specialAuthorityIgnoreSlashes }
                else if ch == "/" { state = .authority }
                else {
                    url.username = base?.username ?? ""; url.password = base?.password ?? ""; url.host = base?.host; url.port = base?.port
                    state = .path; pointer -= 1
                }
            case .specialAuthoritySlashes:
                if ch == "/", at(pointer + 1) == "/" { state = .specialAuthorityIgnoreSlashes; pointer += 1 }
                else { state = .specialAuthorityIgnoreSlashes; pointer -= 1 }
            case .specialAuthorityIgnoreSlashes:
                if ch != "/" && ch != "\\" { state = .authority; pointer -= 1 }
            case .authority:
                if ch == "@" {
                    if atSignSeen { buffer.insert(contentsOf: ["%", "4", "0"], at: 0) }
                    atSignSeen = true
                    for b in buffer {
                        if b == ":" && !passwordTokenSeen { passwordTokenSeen = true; continue }
                        if passwordTokenSeen { PercentEncodeSet.userinfo.append(b, to: &url.password) }
                        else { PercentEncodeSet.userinfo.append(b, to: &url.username) }
                    }
                    buffer = []
                } else if ch == nil || ch == "/" || ch == "?" || ch == "#" || (url.isSpecial && ch == "\\") {
                    if atSignSeen && buffer.isEmpty { throw fail("credentials without a host") }
                    pointer -= buffer.count + 1
                    buffer = []
                    state = .host
                } else {
                    buffer.append(ch!)
                }
            case .host:
                if override != nil && url.scheme == "file" {
                    pointer -= 1; state = .fileHost
                } else if ch == ":" && !insideBrackets {
                    if buffer.isEmpty { throw fail("a port without a host") }
                    if override?.hostnameOnly == true { throw fail("a host name has no port") }
                    try parseHost()
                    state = .port
                } else if ch == nil || ch == "/" || ch == "?" || ch == "#" || (url.isSpecial && ch == "\\") {
                    pointer -= 1
                    if url.isSpecial && buffer.isEmpty { throw fail("a \(url.scheme) URL needs a host") }
                    if override != nil && buffer.isEmpty && (url.includesCredentials || url.port != nil) {
                        throw fail("a URL with credentials or a port needs a host")
                    }
                    try parseHost()
                    state = .pathStart
                    if override != nil { return url }
                } else {
                    if ch == "[" { insideBrackets = true }
                    if ch == "]" { insideBrackets = false }
                    buffer.append(ch!)
                }
            case .port:
                if Self.isDigit(ch) {
                    buffer.append(ch!)
                } else if ch == nil || ch == "/" || ch == "?" || ch == "#" || (url.isSpecial && ch == "\\") || override != nil {
                    if !buffer.isEmpty {
                        let digits = buffer.drop(while: { $0 == "0" })
                        guard digits.count <= 5, let port = Int(String(String.UnicodeScalarView(digits.isEmpty ? ["0"] : Array(digits)))), port <= 65535 else {
                            throw fail("the port is over 65535")
                        }
                        url.port = WHATWGURL.specialPorts[url.scheme] == .some(port) ? nil : port
                        buffer = []
                        if override != nil { return url }
                    }
                    if override != nil { throw fail("a port is digits") }
                    state = .pathStart; pointer -= 1
                } else {
                    throw fail("the port holds \"\(ch!)\"; a port is digits")
                }
            case .file:
                url.scheme = "file"
                url.host = .empty
                if ch == "/" || ch == "\\" {
                    state = .fileSlash
                } else if let base, base.scheme == "file" {
                    url.host = base.host; url.path = base.path; url.query = base.query
                    if ch == "?" { url.query = ""; state = .query }
                    else if ch == "#" { url.fragment = ""; state = .fragment }
                    else if ch != nil {
                        url.query = nil
                        if !startsWithWindowsDriveLetter(pointer) { shortenPath() } else { url.path = .segments([]) }
                        state = .path; pointer -= 1
                    }
                } else {
                    state = .path; pointer -= 1
                }
            case .fileSlash:
                if ch == "/" || ch == "\\" {
                    state = .fileHost
                } else {
                    if let base, base.scheme == "file" {
                        url.host = base.host
                        if !startsWithWindowsDriveLetter(pointer), case .segments(let s) = base.path, let first = s.first,
                           Self.isWindowsDriveLetter(Array(first.unicodeScalars), normalized: true) {
                            pathSegments = [first]
                        }
                    }
                    state = .path; pointer -= 1
                }
            case .fileHost:
                if ch == nil || ch == "/" || ch == "\\" || ch == "?" || ch == "#" {
                    pointer -= 1
                    if override == nil && Self.isWindowsDriveLetter(buffer) {
                        state = .path
                    } else if buffer.isEmpty {
                        url.host = .empty
                        if override != nil { return url }
                        state = .pathStart
                    } else {
                        try parseHost()
                        if url.host == .domain("localhost") { url.host = .empty }
                        if override != nil { return url }
                        buffer = []
                        state = .pathStart
                    }
                } else {
                    buffer.append(ch!)
                }
            case .pathStart:
                if url.isSpecial {
                    state = .path
                    if ch != "/" && ch != "\\" { pointer -= 1 }
                } else if override == nil && ch == "?" {
                    url.query = ""; state = .query
                } else if override == nil && ch == "#" {
                    url.fragment = ""; state = .fragment
                } else if ch != nil {
                    state = .path
                    if ch != "/" { pointer -= 1 }
                } else if override != nil && url.host == nil {
                    pathSegments.append("")
                }
            case .path:
                if ch == nil || ch == "/" || (url.isSpecial && ch == "\\") || (override == nil && (ch == "?" || ch == "#")) {
                    let segment = String(String.UnicodeScalarView(buffer))
                    if Self.isDoubleDot(segment) {
                        shortenPath()
                        if ch != "/" && !(url.isSpecial && ch == "\\") { pathSegments.append("") }
                    } else if Self.isSingleDot(segment) && ch != "/" && !(url.isSpecial && ch == "\\") {
                        pathSegments.append("")
                    } else if !Self.isSingleDot(segment) {
                        var segment = segment
                        if url.scheme == "file", pathSegments.isEmpty, Self.isWindowsDriveLetter(buffer) {
                            segment = String(buffer[0]) + ":"
                        }
                        pathSegments.append(segment)
                    }
                    buffer = []
                    if ch == "?" { url.query = ""; state = .query }
                    if ch == "#" { url.fragment = ""; state = .fragment }
                } else {
                    var encoded = ""
                    PercentEncodeSet.path.append(ch!, to: &encoded)
                    buffer.append(contentsOf: encoded.unicodeScalars)
                }
            case .opaquePath:
                if ch == "?" { url.query = ""; state = .query }
                else if ch == "#" { url.fragment = ""; state = .fragment }
                else if let ch {
                    if case .opaque(var p) = url.path { PercentEncodeSet.c0Control.append(ch, to: &p); url.path = .opaque(p) }
                }
            case .query:
                if (override == nil && ch == "#") || ch == nil {
                    let set = url.isSpecial ? PercentEncodeSet.specialQuery : PercentEncodeSet.query
                    url.query = (url.query ?? "") + set.encode(buffer)
                    buffer = []
                    if ch == "#" { url.fragment = ""; state = .fragment }
                } else {
                    buffer.append(ch!)
                }
            case .fragment:
                if let ch { var f = url.fragment ?? ""; PercentEncodeSet.fragment.append(ch, to: &f); url.fragment = f }
            }
            if pointer >= input.count { break }
            pointer += 1
        }
        return url
    }

    mutating func parseHost() throws {
        var failure = ""
        guard let host = URLHost.parse(buffer, special: url.isSpecial, failure: &failure) else { throw fail(failure) }
        url.host = host
        buffer = []
    }
}
