/// The URL Standard's basic URL parser (§4.4), state by state, over the input's UTF-8 bytes: every
/// delimiter is ASCII and every percent-encode set holds all non-ASCII, so encoding a byte at a
/// time writes what encoding each code point's UTF-8 would. Code points matter only in hosts
/// (IDNA), which are decoded there.
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

    let input: [UInt8]
    let base: URLParts?
    var url = URLParts(scheme: "")
    var state = State.schemeStart
    let override: Override?
    var buffer: [UInt8] = []
    var atSignSeen = false, insideBrackets = false, passwordTokenSeen = false
    var pointer = 0
    /// Where the input began before its leading C0 controls and spaces went, and where the tabs
    /// and newlines it lost were (in the original's bytes): an error's offset is the original's.
    var trimmedLead = 0
    var removed: [Int] = []

    static let eof = -1
    // ASCII code points the states test, by name.
    static let slash = 0x2F, backslash = 0x5C, question = 0x3F, hash = 0x23, colon = 0x3A, at = 0x40, percent = 0x25

    init(input: UnsafeBufferPointer<UInt8>, base: URLParts?) {
        // Leading and trailing C0 controls and spaces go, and every tab and newline.
        let trimmed = URLFastParser.trimmed(input)
        self.input = Self.withoutTabsAndNewlines(Array(input[trimmed]))
        self.base = base
        self.override = nil
        trimmedLead = trimmed.lowerBound
        original = Array(input)
        if self.input.count != trimmed.count {
            removed = trimmed.filter { input[$0] == 0x09 || input[$0] == 0x0A || input[$0] == 0x0D }
        }
    }

    /// The input as given (before trimming), for error offsets.
    var original: [UInt8] = []

    /// A setter's parse of `input` into `url` (tabs and newlines removed, nothing trimmed).
    init(input: String, url: URLParts, override: Override) {
        self.input = Self.withoutTabsAndNewlines(Array(input.utf8))
        self.base = nil
        self.url = url
        self.override = override
        self.state = override.state
    }

    static func withoutTabsAndNewlines(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return bytes }
        return bytes.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    }

    /// The error at the current place, its offset counted in code points (1-based).
    func fail(_ reason: String) -> WHATWGURL.ParseError {
        let end = min(max(pointer, 0), input.count)
        // Back to the original's bytes: past the trimmed lead and every tab or newline removed
        // before this place.
        var at = end + trimmedLead
        for r in removed where r <= at { at += 1 }
        let source = original.isEmpty ? input : original
        let offset = source[..<min(at, source.count)].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return WHATWGURL.ParseError(reason: reason, offset: offset + 1)
    }

    /// The code point starting at byte `i`, as text (for messages).
    func characterText(at i: Int) -> String {
        var end = i + 1
        while end < input.count && input[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: input[i..<min(end, input.count)], as: UTF8.self)
    }

    /// The byte at `i`, or `eof`.
    @inline(__always) func at(_ i: Int) -> Int { i >= 0 && i < input.count ? Int(input[i]) : Self.eof }

    @inline(__always) static func isAlpha(_ c: Int) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    @inline(__always) static func isDigit(_ c: Int) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isAlpha(_ c: Unicode.Scalar) -> Bool { isAlpha(Int(c.value)) }
    static func isDigit(_ c: Unicode.Scalar) -> Bool { isDigit(Int(c.value)) }

    /// A Windows drive letter: a letter then `:` or `|` (normalized: `:` only).
    static func isWindowsDriveLetter<C: Collection>(_ s: C, normalized: Bool = false) -> Bool where C.Element == UInt8 {
        guard s.count == 2, let first = s.first, let second = s.dropFirst().first else { return false }
        return isAlpha(Int(first)) && (second == 0x3A || (!normalized && second == 0x7C))
    }
    func startsWithWindowsDriveLetter(_ i: Int) -> Bool {
        guard i + 1 < input.count, Self.isAlpha(Int(input[i])), input[i + 1] == 0x3A || input[i + 1] == 0x7C else { return false }
        guard i + 2 < input.count else { return true }
        return [0x2F, 0x5C, 0x3F, 0x23].contains(input[i + 2])
    }

    var pathSegments: [String] {
        get { if case .segments(let s) = url.path { return s }; return [] }
        set { url.path = .segments(newValue) }
    }

    /// Appends a segment in place (the enum's array is taken out first, so it is not copied).
    mutating func appendSegment(_ segment: String) {
        guard case .segments(var s) = url.path else { url.path = .segments([segment]); return }
        url.path = .segments([])
        if s.capacity == 0 { s.reserveCapacity(6) }  // one allocation for most paths
        s.append(segment)
        url.path = .segments(s)
    }

    mutating func shortenPath() {
        guard case .segments(var s) = url.path else { return }
        if url.scheme == "file", s.count == 1, Self.isWindowsDriveLetter(Array(s[0].utf8), normalized: true) { return }
        url.path = .segments([])
        if !s.isEmpty { s.removeLast() }
        url.path = .segments(s)
    }

    /// "." or "%2e" (any case).
    static func isSingleDot<C: RandomAccessCollection>(_ s: C) -> Bool where C.Element == UInt8, C.Index == Int {
        let i = s.startIndex
        switch s.count {
        case 1: return s[i] == 0x2E
        case 3: return s[i] == 0x25 && s[i + 1] == 0x32 && s[i + 2] | 0x20 == 0x65
        default: return false
        }
    }

    /// ".." with either dot written "%2e".
    static func isDoubleDot<C: RandomAccessCollection>(_ s: C) -> Bool where C.Element == UInt8, C.Index == Int {
        let i = s.startIndex
        switch s.count {
        case 2: return s[i] == 0x2E && s[i + 1] == 0x2E
        case 4: return (s[i] == 0x2E && isSingleDot(s[(i + 1)...])) || (s[i + 3] == 0x2E && isSingleDot(s[..<(i + 3)]))
        case 6: return isSingleDot(s[..<(i + 3)]) && isSingleDot(s[(i + 3)...])
        default: return false
        }
    }

    @inline(__always) func isSpecialDelimiter(_ c: Int) -> Bool { c == Self.eof || c == Self.slash || c == Self.question || c == Self.hash || (url.isSpecial && c == Self.backslash) }

    mutating func run() throws -> URLParts {
        let count = input.count
        // The sets as locals: a static is checked for initialization at every use.
        let pathSet = PercentEncodeSet.path, c0Set = PercentEncodeSet.c0Control
        let querySet = PercentEncodeSet.query, specialQuerySet = PercentEncodeSet.specialQuery, fragmentSet = PercentEncodeSet.fragment
        while true {
            let c = at(pointer)
            switch state {
            case .schemeStart:
                if Self.isAlpha(c) { buffer.append(UInt8(c | 0x20)); state = .scheme }
                else if override == nil { state = .noScheme; pointer -= 1 }
                else { throw fail("a scheme starts with a letter") }
            case .scheme:
                if Self.isAlpha(c) || Self.isDigit(c) || c == 0x2B || c == 0x2D || c == 0x2E {
                    buffer.append(UInt8(Self.isAlpha(c) ? c | 0x20 : c))
                } else if c == Self.colon {
                    let scheme = String(decoding: buffer, as: UTF8.self)
                    if override != nil {
                        // A setter may not turn special into non-special or back, nor make a
                        // file URL of one with credentials or a port, nor change a file URL
                        // with an empty host.
                        if url.isSpecial != (WHATWGURL.defaultPort(of: scheme) != nil) { return url }
                        if (url.includesCredentials || url.port != nil) && scheme == "file" { return url }
                        if url.scheme == "file" && url.host == .empty { return url }
                    }
                    url.scheme = scheme
                    if override != nil {
                        if let port = url.port, WHATWGURL.defaultPort(of: scheme) == .some(port) { url.port = nil }
                        return url
                    }
                    buffer.removeAll(keepingCapacity: true)
                    if url.scheme == "file" {
                        state = .file
                    } else if url.isSpecial, let base, base.scheme == url.scheme {
                        state = .specialRelativeOrAuthority
                    } else if url.isSpecial {
                        state = .specialAuthoritySlashes
                    } else if at(pointer + 1) == Self.slash {
                        state = .pathOrAuthority; pointer += 1
                    } else {
                        url.path = .opaque(""); state = .opaquePath
                    }
                } else if override == nil {
                    buffer.removeAll(keepingCapacity: true); state = .noScheme; pointer = -1
                } else {
                    throw fail("a scheme is letters, digits, \"+\", \"-\" and \".\"")
                }
            case .noScheme:
                guard let base else { throw fail("not an absolute URL (no scheme) and no base to resolve it against") }
                if case .opaque = base.path {
                    guard c == Self.hash else { throw fail("the base URL cannot have a relative URL resolved against it") }
                    url.scheme = base.scheme; url.path = base.path; url.query = base.query; url.fragment = ""; state = .fragment
                } else if base.scheme != "file" {
                    state = .relative; pointer -= 1
                } else {
                    state = .file; pointer -= 1
                }
            case .specialRelativeOrAuthority:
                if c == Self.slash, at(pointer + 1) == Self.slash { state = .specialAuthorityIgnoreSlashes; pointer += 1 }
                else { state = .relative; pointer -= 1 }
            case .pathOrAuthority:
                if c == Self.slash { state = .authority } else { state = .path; pointer -= 1 }
            case .relative:
                guard let base else { throw fail("no base URL") }
                url.scheme = base.scheme
                if c == Self.slash { state = .relativeSlash }
                else if url.isSpecial, c == Self.backslash { state = .relativeSlash }
                else {
                    url.username = base.username; url.password = base.password; url.host = base.host; url.port = base.port
                    url.path = base.path; url.query = base.query
                    if c == Self.question { url.query = ""; state = .query }
                    else if c == Self.hash { url.fragment = ""; state = .fragment }
                    else if c != Self.eof {
                        url.query = nil; shortenPath(); state = .path; pointer -= 1
                    }
                }
            case .relativeSlash:
                if url.isSpecial, c == Self.slash || c == Self.backslash { state = .specialAuthorityIgnoreSlashes }
                else if c == Self.slash { state = .authority }
                else {
                    url.username = base?.username ?? ""; url.password = base?.password ?? ""; url.host = base?.host; url.port = base?.port
                    state = .path; pointer -= 1
                }
            case .specialAuthoritySlashes:
                if c == Self.slash, at(pointer + 1) == Self.slash { state = .specialAuthorityIgnoreSlashes; pointer += 1 }
                else { state = .specialAuthorityIgnoreSlashes; pointer -= 1 }
            case .specialAuthorityIgnoreSlashes:
                if c != Self.slash && c != Self.backslash { state = .authority; pointer -= 1 }
            case .authority:
                if c == Self.at {
                    if atSignSeen { buffer.insert(contentsOf: [0x25, 0x34, 0x30], at: 0) }
                    atSignSeen = true
                    var username: [UInt8] = url.username.isEmpty ? [] : Array(url.username.utf8)
                    var password: [UInt8] = url.password.isEmpty ? [] : Array(url.password.utf8)
                    for b in buffer {
                        if b == 0x3A && !passwordTokenSeen { passwordTokenSeen = true; continue }
                        if passwordTokenSeen { PercentEncodeSet.userinfo.append(b, to: &password) }
                        else { PercentEncodeSet.userinfo.append(b, to: &username) }
                    }
                    url.username = String(decoding: username, as: UTF8.self)
                    url.password = String(decoding: password, as: UTF8.self)
                    buffer.removeAll(keepingCapacity: true)
                } else if isSpecialDelimiter(c) {
                    if atSignSeen && buffer.isEmpty { throw fail("credentials without a host") }
                    pointer -= buffer.count + 1
                    buffer.removeAll(keepingCapacity: true)
                    state = .host
                } else {
                    // The bytes up to the next delimiter in one go.
                    var j = pointer
                    while j < count, input[j] != 0x40, input[j] != 0x2F, input[j] != 0x3F, input[j] != 0x23, !(url.isSpecial && input[j] == 0x5C) { j += 1 }
                    buffer.append(contentsOf: input[pointer..<j])
                    pointer = j - 1
                }
            case .host:
                if override != nil && url.scheme == "file" {
                    pointer -= 1; state = .fileHost
                } else if c == Self.colon && !insideBrackets {
                    if buffer.isEmpty { throw fail("a port without a host") }
                    if override?.hostnameOnly == true { throw fail("a host name has no port") }
                    try parseHost(end: pointer)
                    state = .port
                } else if isSpecialDelimiter(c) {
                    pointer -= 1
                    if url.isSpecial && buffer.isEmpty { throw fail("a \(url.scheme) URL needs a host") }
                    if override != nil && buffer.isEmpty && (url.includesCredentials || url.port != nil) {
                        throw fail("a URL with credentials or a port needs a host")
                    }
                    try parseHost(end: pointer + 1)
                    state = .pathStart
                    if override != nil { return url }
                } else {
                    if c == 0x5B { insideBrackets = true }
                    if c == 0x5D { insideBrackets = false }
                    buffer.append(UInt8(c))
                }
            case .port:
                if Self.isDigit(c) {
                    buffer.append(UInt8(c))
                } else if isSpecialDelimiter(c) || override != nil {
                    if !buffer.isEmpty {
                        var port = 0
                        for d in buffer {
                            port = port * 10 + Int(d - 0x30)
                            if port > 65535 { throw fail("the port is over 65535") }
                        }
                        url.port = WHATWGURL.defaultPort(of: url.scheme) == .some(port) ? nil : port
                        buffer.removeAll(keepingCapacity: true)
                        if override != nil { return url }
                    }
                    if override != nil { throw fail("a port is digits") }
                    state = .pathStart; pointer -= 1
                } else {
                    throw fail("the port holds \"\(characterText(at: pointer))\"; a port is digits")
                }
            case .file:
                url.scheme = "file"
                url.host = .empty
                if c == Self.slash || c == Self.backslash {
                    state = .fileSlash
                } else if let base, base.scheme == "file" {
                    url.host = base.host; url.path = base.path; url.query = base.query
                    if c == Self.question { url.query = ""; state = .query }
                    else if c == Self.hash { url.fragment = ""; state = .fragment }
                    else if c != Self.eof {
                        url.query = nil
                        if !startsWithWindowsDriveLetter(pointer) { shortenPath() } else { url.path = .segments([]) }
                        state = .path; pointer -= 1
                    }
                } else {
                    state = .path; pointer -= 1
                }
            case .fileSlash:
                if c == Self.slash || c == Self.backslash {
                    state = .fileHost
                } else {
                    if let base, base.scheme == "file" {
                        url.host = base.host
                        if !startsWithWindowsDriveLetter(pointer), case .segments(let s) = base.path, let first = s.first,
                           Self.isWindowsDriveLetter(Array(first.utf8), normalized: true) {
                            pathSegments = [first]
                        }
                    }
                    state = .path; pointer -= 1
                }
            case .fileHost:
                if c == Self.eof || c == Self.slash || c == Self.backslash || c == Self.question || c == Self.hash {
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
                        buffer.removeAll(keepingCapacity: true)
                        state = .pathStart
                    }
                } else {
                    buffer.append(UInt8(c))
                }
            case .pathStart:
                if url.isSpecial {
                    state = .path
                    if c != Self.slash && c != Self.backslash { pointer -= 1 }
                } else if override == nil && c == Self.question {
                    url.query = ""; state = .query
                } else if override == nil && c == Self.hash {
                    url.fragment = ""; state = .fragment
                } else if c != Self.eof {
                    state = .path
                    if c != Self.slash { pointer -= 1 }
                } else if override != nil && url.host == nil {
                    appendSegment("")
                }
            case .path:
                if c == Self.eof || c == Self.slash || (url.isSpecial && c == Self.backslash) || (override == nil && (c == Self.question || c == Self.hash)) {
                    let endsSegmentOnly = c == Self.slash || (url.isSpecial && c == Self.backslash)
                    if Self.isDoubleDot(buffer) {
                        shortenPath()
                        if !endsSegmentOnly { appendSegment("") }
                    } else if Self.isSingleDot(buffer) {
                        if !endsSegmentOnly { appendSegment("") }
                    } else {
                        if url.scheme == "file", pathSegments.isEmpty, Self.isWindowsDriveLetter(buffer) { buffer[1] = 0x3A }
                        appendSegment(String(decoding: buffer, as: UTF8.self))
                    }
                    buffer.removeAll(keepingCapacity: true)
                    if c == Self.question { url.query = ""; state = .query }
                    if c == Self.hash { url.fragment = ""; state = .fragment }
                } else {
                    var j = pointer
                    let special = url.isSpecial, stops = override == nil
                    while j < count {
                        let b = input[j]
                        if b == 0x2F || (special && b == 0x5C) || (stops && (b == 0x3F || b == 0x23)) { break }
                        pathSet.append(b, to: &buffer)
                        j += 1
                    }
                    pointer = j - 1
                }
            case .opaquePath:
                if c == Self.question || c == Self.hash || c == Self.eof {
                    if case .opaque(let p) = url.path, !buffer.isEmpty { url.path = .opaque(p + String(decoding: buffer, as: UTF8.self)) }
                    buffer.removeAll(keepingCapacity: true)
                    if c == Self.question { url.query = ""; state = .query }
                    else if c == Self.hash { url.fragment = ""; state = .fragment }
                } else {
                    var j = pointer
                    while j < count, input[j] != 0x3F, input[j] != 0x23 {
                        // A space just before ? or # is written %20 (whatwg/url 2025), so the path
                        // never ends in a space a later parse would strip once the query goes.
                        if input[j] == 0x20, j + 1 < count, input[j + 1] == 0x3F || input[j + 1] == 0x23 {
                            buffer.append(contentsOf: [0x25, 0x32, 0x30])
                        } else {
                            c0Set.append(input[j], to: &buffer)
                        }
                        j += 1
                    }
                    pointer = j - 1
                }
            case .query:
                if (override == nil && c == Self.hash) || c == Self.eof {
                    let set = url.isSpecial ? specialQuerySet : querySet
                    url.query = Self.encoded(buffer, set, after: url.query)
                    buffer.removeAll(keepingCapacity: true)
                    if c == Self.hash { url.fragment = ""; state = .fragment }
                } else {
                    var j = pointer
                    if override == nil { while j < count, input[j] != 0x23 { j += 1 } } else { j = count }
                    buffer.append(contentsOf: input[pointer..<j])
                    pointer = j - 1
                }
            case .fragment:
                if c == Self.eof {
                    url.fragment = Self.encoded(buffer, fragmentSet, after: url.fragment)
                    buffer.removeAll(keepingCapacity: true)
                } else {
                    buffer.append(contentsOf: input[pointer...])
                    pointer = count - 1
                }
            }
            if pointer >= count { break }
            pointer += 1
        }
        return url
    }

    /// `prefix` then `bytes` percent-encoded with `set`; with nothing to encode, no copy is made
    /// before the string.
    static func encoded(_ bytes: [UInt8], _ set: PercentEncodeSet, after prefix: String?) -> String {
        let plain = !bytes.contains(where: set.contains)
        if plain && (prefix ?? "").isEmpty { return String(decoding: bytes, as: UTF8.self) }
        var out = Array((prefix ?? "").utf8)
        out.reserveCapacity(out.count + bytes.count + (plain ? 0 : 16))
        for b in bytes { set.append(b, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Where `scalar`'s first byte is written percent-encoded (`%20`, either hex case) in `bytes`.
    static func percentEncoded(_ scalar: Unicode.Scalar, in bytes: [UInt8]) -> Int? {
        guard let first = String(scalar).utf8.first, bytes.count >= 3 else { return nil }
        for i in 0..<(bytes.count - 2) where bytes[i] == 0x25 {
            if let high = ASCII.hexValue(bytes[i + 1]), let low = ASCII.hexValue(bytes[i + 2]), high << 4 | low == Int(first) { return i }
        }
        return nil
    }

    /// - Parameter end: where the host's bytes end in the input (nil: unknown, as for a file host).
    mutating func parseHost(end: Int? = nil) throws {
        var failure = ""
        var forbidden: Unicode.Scalar?
        guard let host = URLHost.parse(bytes: buffer, special: url.isSpecial, failure: &failure, forbidden: &forbidden) else {
            // A code point the host may not hold is pointed at where it was written, when it
            // was written as itself (not percent-encoded).
            if let forbidden, let end, case let start = end - buffer.count, start >= 0,
               let at = ByteSearch.first(Array(String(forbidden).utf8), in: buffer) ?? Self.percentEncoded(forbidden, in: buffer) {
                let saved = pointer
                pointer = start + at
                defer { pointer = saved }
                throw fail(failure)
            }
            throw fail(failure)
        }
        url.host = host
        buffer.removeAll(keepingCapacity: true)
    }
}
