/// The parts of an absolute http(s) URL that cookies and requests need, parsed per RFC 3986
/// without re-encoding anything: scheme, host (lower-cased; IPv6 without brackets), port, path,
/// query. Userinfo and fragment are kept apart.
public struct RequestURL: Equatable, Sendable, CustomStringConvertible {
    /// The scheme, lower case (`http`, `https`).
    public var scheme: String
    /// `user:password` before the `@`, as written.
    public var userinfo: String?
    /// The host, canonical (lower case, IDNA, IPv4 numbers in dotted decimal, IPv6 without brackets).
    public var host: String
    /// The port as written; nil: the scheme's default.
    public var port: Int?
    /// The path as written ("" when absent).
    public var path: String
    /// The query without its `?`; nil when the URL has no `?`.
    public var query: String?
    /// The fragment without its `#` (never sent).
    public var fragment: String?
    /// The host as written when it differs from `host` only by case and the URL was read as
    /// curl reads it (`init(_:readingHostAsCurl:)`): curl sends it so in `Host:`.
    public var writtenHost: String?

    /// Why a URL could not be used.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// The URL as given.
        public let url: String
        /// Why it cannot be sent.
        public let reason: String
        /// The URL is shown escaped (`\r`, `\x0D`, non-ASCII as `\xE2`…): a message must not
        /// carry a raw CR or escape sequence to the terminal.
        public var description: String { "invalid URL \"\(PercentDecodingError.printable(Array(url.utf8)))\": \(reason)" }
    }

    /// Parses an absolute URL (`scheme://host[:port][/path][?query][#fragment]`).
    /// Delimiters are found in the UTF-8 bytes (all are ASCII), not by Character, which is what
    /// a URL means and many times faster (URLs are parsed per request and per cookie lookup).
    public init(_ text: String) throws {
        try self.init(text, readingHostAsCurl: false)
    }

    /// Parses an absolute URL; `readingHostAsCurl`, a host the URL Standard refuses but curl
    /// takes as a name (`CurlURL.isName`: `example.com.1150`) is that name, lower-cased, and
    /// `writtenHost` keeps the host as it was written.
    public init(_ text: String, readingHostAsCurl: Bool) throws {
        var source = text
        self = try source.withUTF8 { try Self(bytes: $0, text: text, curlHosts: readingHostAsCurl) }
    }

    /// The parse over `text`'s contiguous UTF-8 (`bytes`): offsets, not String indices, and a
    /// String made only for each part kept.
    private init(bytes: UnsafeBufferPointer<UInt8>, text: String, curlHosts: Bool) throws {
        func fail(_ reason: String) -> ParseError { ParseError(url: text, reason: reason) }
        func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        func first(_ byte: UInt8, in range: Range<Int>) -> Int? { bytes[range].firstIndex(of: byte) }
        let count = bytes.count
        // A control byte would end the request line or a header early (CR LF smuggles a header
        // or a whole request): never part of a URL pekit sends.
        var i = 0
        while i < count, bytes[i] >= 0x20, bytes[i] != 0x7F { i += 1 }
        if i < count {
            let byte = bytes[i]
            let name = [0x00: "NUL", 0x09: "tab", 0x0A: "LF", 0x0D: "CR", 0x7F: "DEL"][Int(byte)].map { " (\($0))" } ?? ""
            let hex = String(byte, radix: 16, uppercase: true)
            throw fail("control byte 0x\(hex.count == 1 ? "0" + hex : hex)\(name) at byte \(i + 1); encode it (%\(hex.count == 1 ? "0" + hex : hex)) if it is data")
        }
        guard let colon = first(0x3A, in: 0..<count), colon + 2 < count, bytes[colon + 1] == 0x2F, bytes[colon + 2] == 0x2F else {
            throw fail("expected scheme://host")
        }
        func isAlpha(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        guard colon > 0, isAlpha(bytes[0]),
              bytes[..<colon].allSatisfy({ isAlpha($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }) else {
            throw fail("invalid scheme")
        }
        // ASCII (checked above), so lower-casing bytes is what `lowercased()` does.
        scheme = String(unsafeUninitializedCapacity: colon) { out in
            for j in 0..<colon { out[j] = bytes[j] >= 0x41 && bytes[j] <= 0x5A ? bytes[j] | 0x20 : bytes[j] }
            return colon
        }
        let start = colon + 3
        var end = count
        if let hash = first(0x23, in: start..<end) { fragment = string(hash + 1..<count); end = hash } else { fragment = nil }
        if let q = first(0x3F, in: start..<end) { query = string(q + 1..<end); end = q } else { query = nil }
        let authorityEnd = first(0x2F, in: start..<end) ?? end
        path = string(authorityEnd..<end)
        var authorityStart = start
        var at = authorityEnd
        while at > start, bytes[at - 1] != 0x40 { at -= 1 }
        if at > start {
            userinfo = string(start..<at - 1)
            authorityStart = at
        } else {
            userinfo = nil
        }
        let (hostRange, portRange) = try Self.splitHostPort(bytes, authorityStart..<authorityEnd, fail)
        guard !hostRange.isEmpty else { throw fail("no host") }
        let special = scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss"
        let hostBytes = UnsafeBufferPointer(rebasing: bytes[hostRange])
        do { host = try Self.checkedCanonicalHost(hostBytes, special: special) } catch let error as IDNA.Failure {
            guard curlHosts, CurlURL.isName(hostBytes) else { throw fail(error.description) }
            host = String(decoding: hostBytes, as: UTF8.self).lowercased()
        }
        if curlHosts, !hostBytes.elementsEqual(host.utf8) {
            // Only a difference of case: curl sends the name as it was written.
            let written = String(decoding: hostBytes, as: UTF8.self)
            if written.lowercased() == host { writtenHost = written }
        }
        if let portRange, !portRange.isEmpty {
            let portText = string(portRange)
            guard let port = Int(portText), (0...65535).contains(port) else { throw fail("invalid port \"\(portText)\"") }
            self.port = port
        } else {
            port = nil
        }
    }

    /// `host[:port]` or `[IPv6][:port]` split at the port's colon (brackets removed); the port
    /// text is nil when there is no colon. `fail` makes the error for a bracket left open or
    /// text after the closing one.
    static func splitHostPort<E: Error>(_ text: Substring, _ fail: (String) -> E) throws -> (host: Substring, port: Substring?) {
        var source = text
        let (host, port) = try source.withUTF8 { try splitHostPort($0, 0..<$0.count, fail) }
        let utf8 = text.utf8
        func slice(_ range: Range<Int>) -> Substring {
            text[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]
        }
        return (slice(host), port.map(slice))
    }

    /// `splitHostPort` over the bytes of `range`: the offsets of the host and of the port text.
    static func splitHostPort<E: Error>(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                        _ fail: (String) -> E) throws -> (host: Range<Int>, port: Range<Int>?) {
        if !range.isEmpty, bytes[range.lowerBound] == 0x5B {
            guard let close = bytes[range].firstIndex(of: 0x5D) else { throw fail("unclosed '[' in the host") }
            let after = close + 1
            guard after == range.upperBound || bytes[after] == 0x3A else { throw fail("unexpected text after the IPv6 address") }
            return (range.lowerBound + 1..<close, after == range.upperBound ? nil : after + 1..<range.upperBound)
        }
        guard let colon = bytes[range].lastIndex(of: 0x3A) else { return (range, nil) }
        return (range.lowerBound..<colon, colon + 1..<range.upperBound)
    }

    /// The host as the URL Standard writes it (what browsers send and compare): an IPv4 address
    /// in dotted decimal whatever form it was given in (`0xC0A80001`, `3232235521`), an IPv6
    /// address compressed (`2001:db8::1`, kept without brackets here), a name lower-cased and in
    /// its ASCII (IDNA) form (`例子.中国` is `xn--fsqu00a.xn--fiqs8s`). A host the Standard's
    /// parser refuses is only lower-cased.
    public static func canonicalHost(_ host: String, special: Bool = true) -> String {
        (try? checkedCanonicalHost(host, special: special)) ?? host.lowercased()
    }

    /// `canonicalHost`, failing for a name that is not a host (IDNA's rules, forbidden code
    /// points, a bad IPv4 address). A non-special scheme's host is only lower-cased.
    /// - Throws: `IDNA.Failure` saying why.
    public static func checkedCanonicalHost(_ host: String, special: Bool = true) throws -> String {
        var source = host
        return try source.withUTF8 { try checkedCanonicalHost($0, special: special, original: host) }
    }

    /// `checkedCanonicalHost` over a host's UTF-8 bytes (a URL's host, read in place);
    /// `original`, the string the bytes are from, is given back when it is already canonical.
    static func checkedCanonicalHost(_ bytes: UnsafeBufferPointer<UInt8>, special: Bool, original: String? = nil) throws -> String {
        let text = { original ?? String(decoding: bytes, as: UTF8.self) }
        guard special else { return text().lowercased() }
        if let simple = simpleCanonicalHost(bytes, original: original) { return simple }
        return try parsedCanonicalHost(text())
    }

    /// The Standard's host parser's answer (what `simpleCanonicalHost` must agree with).
    static func parsedCanonicalHost(_ host: String) throws -> String {
        var failure = ""
        let text = host.utf8.contains(0x3A) && !host.hasPrefix("[") ? "[" + host + "]" : host
        guard let parsed = URLHost.parse(Array(text.unicodeScalars), special: true, failure: &failure) else {
            throw IDNA.Failure(description: failure)
        }
        if case .ipv6 = parsed { return String(parsed.description.dropFirst().dropLast()) }
        return parsed.description
    }

    /// The canonical form of the hosts most URLs have, without the Standard's full parser (which
    /// is much slower, and runs several times per request): an IPv4 address already in dotted
    /// decimal (no leading zeros), or a name of ASCII letters, digits, hyphens and dots that is
    /// not Punycode (no label starts "xn--") and whose last label is not a number (which the
    /// Standard would read as IPv4). Those map to themselves, lower-cased. Nil for anything else.
    static func simpleCanonicalHost(_ host: String) -> String? {
        var source = host
        return source.withUTF8 { simpleCanonicalHost($0) }
    }

    /// `simpleCanonicalHost` over a host's UTF-8 bytes (no copy made unless it has upper case);
    /// `original`, the string the bytes are from, is what a host already canonical gives back.
    static func simpleCanonicalHost(_ bytes: UnsafeBufferPointer<UInt8>, original: String? = nil) -> String? {
        if bytes.isEmpty { return nil }
        var labelStart = 0, upper = false
        // Dotted decimal: four parts of 1 to 3 digits, 0 to 255, none with a leading zero.
        var parts = 0, value = 0, digits = 0, leadingZero = false, dotted = true
        for (i, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if byte < UInt8(ascii: "a") { upper = true }
                dotted = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if digits == 0 { leadingZero = byte == UInt8(ascii: "0") } else if leadingZero { dotted = false }
                digits += 1
                // Capped: a long run of digits must not overflow (it is no address part anyway).
                if value <= 255 { value = value * 10 + Int(byte - UInt8(ascii: "0")) }
                if value > 255 { dotted = false }
            case UInt8(ascii: "-"):
                dotted = false
            case UInt8(ascii: "."):
                if digits == 0 { dotted = false }
                parts += 1; digits = 0; value = 0
                labelStart = i + 1
            default:
                return nil
            }
            // Punycode needs decoding and validation ("xn--" in any case: `| 0x20` lower-cases
            // letters and leaves '-' as it is).
            if i - labelStart == 3, bytes[labelStart] | 0x20 == UInt8(ascii: "x"), bytes[labelStart + 1] | 0x20 == UInt8(ascii: "n"),
               bytes[labelStart + 2] == UInt8(ascii: "-"), byte == UInt8(ascii: "-") { return nil }
        }
        func same() -> String {
            guard upper else { return original ?? String(decoding: bytes, as: UTF8.self) }
            return ASCII.lowercased(bytes)
        }
        if dotted && parts == 3 && digits > 0 { return same() }
        // The last label (before a final dot) decides whether the Standard reads an IPv4 address.
        var last = bytes[...]
        if last.last == UInt8(ascii: ".") { last = last.dropLast() }
        if let dot = last.lastIndex(of: UInt8(ascii: ".")) { last = last[(dot + 1)...] }
        if last.isEmpty || last.allSatisfy({ (0x30...0x39).contains($0) }) { return nil }
        if last.count >= 2, last[last.startIndex] == UInt8(ascii: "0"), last[last.startIndex + 1] | 0x20 == UInt8(ascii: "x"),
           last.dropFirst(2).allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) { return nil }
        return same()
    }

    /// Whether the host is an IPv4 or IPv6 address (never domain-matched by suffix).
    public var hostIsIPAddress: Bool { Self.isIPAddress(host) }

    /// Whether `host` is an IPv4 or IPv6 address (no public suffix, no domain matching).
    public static func isIPAddress(_ host: String) -> Bool {
        var host = host
        return host.withUTF8 { isIPAddress($0) }
    }

    /// `isIPAddress` over a host's bytes (a walk of String's UTF-8 view cost 40 instructions a
    /// byte, and this runs for every cookie stored).
    static func isIPAddress(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var parts = 0, digits = 0, value = 0, dotted = true
        // One pass over the bytes: a colon anywhere is IPv6 (brackets already removed), so a
        // byte that rules out dotted decimal does not end the scan.
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                if digits > 3 || value > 255 { dotted = false; digits = 0; value = 0 }
            case UInt8(ascii: "."):
                if digits == 0 { dotted = false }
                parts += 1; digits = 0; value = 0
            case UInt8(ascii: ":"):
                return true
            default:
                dotted = false
            }
        }
        return dotted && parts == 3 && digits > 0
    }

    /// https, wss, or a loopback host, which browsers treat as potentially trustworthy: an IPv4
    /// address in 127.0.0.0/8, the IPv6 loopback `::1`, `localhost` and names under `.localhost`.
    /// A name that merely starts with "127." (`127.0.0.1.example.com`) is not one.
    public var isSecureContext: Bool {
        scheme == "https" || scheme == "wss" || isLoopback
    }

    /// Whether the host is the machine itself (see `isSecureContext`).
    public var isLoopback: Bool {
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        if host.utf8.contains(0x3A) {  // IPv6: ::1 however it is written
            guard let bytes = CLibrary.ipv6(host) else { return false }
            return bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
        }
        return Self.isIPAddress(host) && host.hasPrefix("127.")
    }

    /// The path for cookie matching: "/" when empty.
    public var cookiePath: String { path.isEmpty ? "/" : path }

    /// The port to connect to (the scheme's default when none is given).
    public var effectivePort: Int { port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0) }

    /// `host` or `host:port`, as a Host header writes it (IPv6 in brackets).
    public var authority: String {
        let h = host.utf8.contains(0x3A) ? "[" + host + "]" : host
        return port.map { h + ":" + String($0) } ?? h
    }

    /// The user and password of a URL's `user:password` (each percent-decoded; no colon: an
    /// empty password), as curl and browsers send them as Basic authentication.
    public static func credentials(fromUserinfo userinfo: String) -> (user: String, password: String) {
        let decode = { (s: Substring) in String(decoding: (try? PercentDecoder().decode(bytes: Array(s.utf8))) ?? Array(s.utf8), as: UTF8.self) }
        let colon = userinfo.firstIndex(of: ":")
        return (decode(userinfo[..<(colon ?? userinfo.endIndex)]), colon.map { decode(userinfo[userinfo.index(after: $0)...]) } ?? "")
    }

    /// `authority` with `writtenHost` when there is one (what curl writes in `Host:`).
    public var writtenAuthority: String {
        guard let writtenHost else { return authority }
        return port.map { writtenHost + ":" + String($0) } ?? writtenHost
    }

    public var description: String {
        var s = "\(scheme)://"
        if let userinfo { s += userinfo + "@" }
        s += authority + path
        if let query { s += "?" + query }
        if let fragment { s += "#" + fragment }
        return s
    }
}
