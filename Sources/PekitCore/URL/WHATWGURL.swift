/// A URL as the WHATWG URL Standard parses and serializes it (what browsers, node and ada do):
/// `WHATWGURL("http://h/a b/汉?q=汉 字")` is `http://h/a%20b/%E6%B1%89?q=%E6%B1%89%20%E5%AD%97`.
///
/// A URL is kept as ada keeps it: its serialization (`href`) and the offsets of its components
/// in it (`spans`), so parsing makes one string and reading a component is slicing it. Changing a
/// component goes through the components (`URLParts`) and serializes again.
public struct WHATWGURL: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A URL's path: segments, or one opaque string.
    public enum Path: Equatable, Sendable {
        /// A hierarchical path's segments, each percent-encoded (`/a/b` is `["a", "b"]`).
        case segments([String])
        /// A URL like `mailto:a@b` or `data:…` has one opaque path.
        case opaque(String)
    }

    /// The URL serializer's output (§4.5).
    public private(set) var href: String
    /// Where each component is in `href`.
    public private(set) var spans: Spans

    /// Which kind of host a URL has (`URLHost`'s cases, and none).
    public enum HostKind: UInt8, Sendable {
        /// No host (`mailto:a@b`).
        case none
        /// An empty host (`file:///`).
        case empty
        /// A domain.
        case domain
        /// An IPv4 address.
        case ipv4
        /// An IPv6 address.
        case ipv6
        /// An opaque host (a scheme that is not special).
        case opaque
    }

    /// The offsets (in UTF-8 bytes) of a URL's components in its href:
    /// `scheme:` `//` `username` `:password` `@` `host` `:port` `path` `?query` `#fragment`.
    /// Without a host, the user name, password and host are empty ranges after the `:`.
    public struct Spans: Equatable, Hashable, Sendable {
        /// The `:` after the scheme.
        public var schemeEnd: UInt32 = 0
        /// The first byte of the user name.
        public var usernameStart: UInt32 = 0
        /// The end of the user name.
        public var usernameEnd: UInt32 = 0
        /// The end of `:password` (`usernameEnd` when there is no password).
        public var passwordEnd: UInt32 = 0
        /// The first byte of the host.
        public var hostStart: UInt32 = 0
        /// The end of the host.
        public var hostEnd: UInt32 = 0
        /// The first byte of the path.
        public var pathStart: UInt32 = 0
        /// The `?`, or `UInt32.max` when there is no query.
        public var queryStart: UInt32 = .max
        /// The `#`, or `UInt32.max` when there is no fragment.
        public var fragmentStart: UInt32 = .max
        /// The port, or -1 when there is none (or it is the scheme's default).
        public var port: Int32 = -1
        /// Which kind of host the URL has.
        public var hostKind = HostKind.none
        /// Whether the path is opaque.
        public var hasOpaquePath = false
        /// http(s), ws(s) or ftp: the origin is the scheme, host and port.
        public var hasTupleOrigin = false

        /// Offsets of an empty string.
        public init() {}

        /// Whether these offsets can describe a string of `count` bytes (each in order, within it).
        public func fit(_ count: Int) -> Bool {
            let end = UInt32(clamping: count)
            guard schemeEnd < end, schemeEnd <= usernameStart, usernameStart <= usernameEnd, usernameEnd <= passwordEnd,
                  passwordEnd <= hostStart, hostStart <= hostEnd, hostEnd <= pathStart, pathStart <= end else { return false }
            if queryStart != .max && (queryStart < pathStart || queryStart >= end) { return false }
            if fragmentStart != .max && (fragmentStart < max(pathStart, queryStart == .max ? 0 : queryStart) || fragmentStart >= end) { return false }
            return port >= -1 && port <= 65535
        }
    }

    /// The components a Lua host (or any other) reads by name, each a range of `href` (`origin`
    /// is one only when it is written out in the href).
    public enum Component: String, CaseIterable, Sendable {
        /// The components of the URL Standard's API, under its names.
        case href, origin, `protocol`, username, password, host, hostname, port, pathname, search, hash
    }

    /// Why an input is not a URL: what, and where (1-based code point offset).
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What is wrong (`the host holds the forbidden code point U+0020`).
        public let reason: String
        /// The 1-based code point where it is wrong.
        public let offset: Int
        public var description: String { "\(reason) (at code point \(offset))" }
    }

    /// The special schemes' default ports (`.some(nil)` for file, which has none); nil for the
    /// schemes that are not special.
    static func defaultPort(of scheme: String) -> Int?? { defaultPort(ofScheme: scheme.utf8) }

    /// `defaultPort(of:)` for the scheme's lower-case bytes (what the fast path has in hand: no
    /// string made, no string comparisons).
    static func defaultPort<C: Collection>(ofScheme bytes: C) -> Int?? where C.Element == UInt8 {
        func `is`(_ name: StaticString) -> Bool {
            guard bytes.count == name.utf8CodeUnitCount else { return false }
            var i = 0
            for b in bytes {
                if b != name.utf8Start[i] { return false }
                i += 1
            }
            return true
        }
        if `is`("http") || `is`("ws") { return .some(80) }
        if `is`("https") || `is`("wss") { return .some(443) }
        if `is`("ftp") { return .some(21) }
        if `is`("file") { return .some(nil) }
        return nil
    }

    /// Parses `input`, resolving it against `base` when it is relative.
    /// - Throws: `ParseError` with the reason and offset.
    /// - Complexity: O(n) in the input's length.
    public init(_ input: String, base: borrowing WHATWGURL? = nil) throws {
        var input = input, made: String?, spans = Spans()
        try input.withUTF8 { bytes in
            try Self.parse(validUTF8: bytes, base: base) { href, hrefSpans in
                spans = hrefSpans
                // Text already in its serialized form (as a browser or server wrote it, a
                // quarter of the benchmark's URLs) is its own href: no String is made.
                if href.count == bytes.count, let a = href.baseAddress, let b = bytes.baseAddress, CLibrary.equal(a, b, count: bytes.count) { return }
                made = String(decoding: href, as: UTF8.self)
            }
        }
        self.init(href: made ?? input, checkedSpans: spans)
    }

    /// Parses the UTF-8 `bytes` (ill-formed sequences read as U+FFFD) and hands `body` the href
    /// and its spans, valid during the call: how a host that keeps URLs its own way (the Lua
    /// bridge) makes one without a `String`.
    /// - Throws: `ParseError`, or what `body` throws.
    /// - Complexity: O(n) in the input's length.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>, base: WHATWGURL?, _ body: (UnsafeBufferPointer<UInt8>, Spans) throws -> Void) throws {
        // The fast path checks UTF-8 itself, and only when there is a byte past ASCII.
        if try parseFast(bytes, base: base, wellFormed: false, body) { return }
        if UTF8Validation.firstInvalidIndex(bytes) != nil {
            try UTF8Decoding.repaired(bytes).withUnsafeBufferPointer { try parseByStateMachine(validUTF8: $0, base: base, body) }
        } else {
            try parseByStateMachine(validUTF8: bytes, base: base, body)
        }
    }

    static func parse(validUTF8 bytes: UnsafeBufferPointer<UInt8>, base: WHATWGURL?, _ body: (UnsafeBufferPointer<UInt8>, Spans) throws -> Void) throws {
        if try parseFast(bytes, base: base, wellFormed: true, body) { return }
        try parseByStateMachine(validUTF8: bytes, base: base, body)
    }

    /// The fast path, if it takes `bytes`: then `body` has had the href and spans.
    private static func parseFast(_ bytes: UnsafeBufferPointer<UInt8>, base: WHATWGURL?, wellFormed: Bool, _ body: (UnsafeBufferPointer<UInt8>, Spans) throws -> Void) throws -> Bool {
        var spans = Spans()
        // On the stack for most URLs (the writer moves to the heap past it).
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { memory -> Bool in
            var fast = ByteWriter(lent: memory)
            guard URLFastParser.parse(bytes, base: base, wellFormed: wellFormed, into: &fast, &spans) else { return false }
            try body(fast.written, spans)
            return true
        }
    }

    private static func parseByStateMachine(validUTF8 bytes: UnsafeBufferPointer<UInt8>, base: WHATWGURL?, _ body: (UnsafeBufferPointer<UInt8>, Spans) throws -> Void) throws {
        var parser = URLParser(input: bytes, base: base?.parts)
        let parts = try parser.run()
        var out: [UInt8] = []
        var spans = Spans()
        parts.serialize(into: &out, &spans)
        try out.withUnsafeBufferPointer { try body($0, spans) }
    }

    /// `input` parsed by the state machine alone, never the fast path (which must agree with it).
    static func parsedByStateMachine(_ input: String, base: WHATWGURL? = nil) throws -> WHATWGURL {
        var input = input
        return try input.withUTF8 { bytes in
            var parser = URLParser(input: bytes, base: base?.parts)
            return WHATWGURL(parts: try parser.run())
        }
    }

    /// Whether the fast path takes `input` (with `base`).
    static func fastPathTakes(_ input: String, base: WHATWGURL? = nil) -> Bool {
        var input = input, spans = Spans()
        var out = ByteWriter()
        return input.withUTF8 { URLFastParser.parse($0, base: base, wellFormed: true, into: &out, &spans) }
    }

    /// A URL from an href and its spans as `parse(bytes:base:_:)` gave them. Spans that do not
    /// fit the href (not as given) are made again by parsing it.
    /// - Throws: `ParseError` when they had to be made again and `href` is not a URL.
    public init(href: String, spans: Spans) throws {
        if spans.fit(href.utf8.count) { self.init(href: href, checkedSpans: spans) } else { try self.init(href) }
    }

    init(href: String, checkedSpans: Spans) { self.href = href; self.spans = checkedSpans }

    init(parts: URLParts) {
        var out: [UInt8] = []
        var spans = Spans()
        parts.serialize(into: &out, &spans)
        self.init(href: String(decoding: out, as: UTF8.self), checkedSpans: spans)
    }

    public static func == (a: WHATWGURL, b: WHATWGURL) -> Bool { a.href == b.href }
    public func hash(into hasher: inout Hasher) { hasher.combine(href) }

    public var description: String { href }

    // MARK: reading components

    /// Where `component` is in `href`, in UTF-8 bytes; nil for an `origin` that is not a part of
    /// it (with credentials, or "null"), which `origin` makes.
    public func range(of component: Component) -> Range<Int>? { spans.range(of: component, count: href.utf8.count) }

    /// The text of `component` (empty for an `origin` that is not in the href).
    private func text(_ component: Component) -> String {
        guard let range = range(of: component), !range.isEmpty else { return "" }
        let utf8 = href.utf8
        return String(Substring(utf8[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]))
    }

    /// The scheme, lower case (`https`).
    public var scheme: String {
        get { text(.protocol).dropLast().description }
        set { change { $0.scheme = newValue } }
    }
    /// The user name, percent-encoded (`username`); setting it follows the setter's rules.
    public var username: String {
        get { text(.username) }
        set { change { $0.username = newValue } }
    }
    /// The password, percent-encoded (`password`).
    public var password: String {
        get { text(.password) }
        set { change { $0.password = newValue } }
    }
    /// The host; nil for a URL without one.
    public var host: URLHost? {
        get {
            let hostname = self.hostname
            var failure = ""
            switch spans.hostKind {
            case .none: return nil
            case .empty: return .empty
            case .domain: return .domain(hostname)
            case .opaque: return .opaque(hostname)
            case .ipv4: return URLHost.parseIPv4(Array(hostname.utf8), &failure).map(URLHost.ipv4)
            case .ipv6: return URLHost.parseIPv6(Array(hostname.utf8.dropFirst().dropLast()), &failure).map(URLHost.ipv6)
            }
        }
        set { change { $0.host = newValue } }
    }
    /// The port; nil when there is none or it is the scheme's default.
    public var port: Int? {
        get { spans.port < 0 ? nil : Int(spans.port) }
        set { change { $0.port = newValue } }
    }
    /// The path.
    public var path: Path {
        get { parts.path }
        set { change { $0.path = newValue } }
    }
    /// The query without its `?`; nil when there is no `?`.
    public var query: String? {
        get { spans.queryStart == .max ? nil : String(text(.search).dropFirst()) }
        set { change { $0.query = newValue } }
    }
    /// The fragment without its `#`; nil when there is no `#`.
    public var fragment: String? {
        get { spans.fragmentStart == .max ? nil : String(text(.hash).dropFirst()) }
        set { change { $0.fragment = newValue } }
    }

    /// http, https, ws, wss, ftp or file: the schemes with their own parsing rules.
    public var isSpecial: Bool { Self.defaultPort(of: scheme) != nil }

    /// `pathname`: the path as the URL writes it.
    public var pathname: String { text(.pathname) }
    /// `search`: `?` and the query, or "" when it is empty or absent.
    public var search: String { text(.search) }
    /// `hash`: `#` and the fragment, or "" when it is empty or absent.
    public var hash: String { text(.hash) }
    /// `hostname`: the host as the URL writes it (an IPv6 address in brackets).
    public var hostname: String { text(.hostname) }
    /// `host`: the host and `:port` when there is a port.
    public var hostWithPort: String { text(.host) }
    /// `port`: the port as text, "" when there is none.
    public var portString: String { text(.port) }
    /// `protocol`: the scheme and its `:`.
    public var protocolName: String { text(.protocol) }

    /// The origin (§4.8 of HTML as the URL Standard defines it): `scheme://host[:port]` for
    /// http(s), ws(s) and ftp, the inner URL's for blob:, else "null".
    public var origin: String {
        if spans.hasTupleOrigin { return range(of: .origin) != nil ? text(.origin) : "\(scheme)://\(hostWithPort)" }
        if scheme == "blob", let inner = try? WHATWGURL(pathname), inner.spans.hasTupleOrigin, inner.scheme.hasPrefix("http") { return inner.origin }
        return "null"
    }

    // MARK: changing components

    /// The URL as separate components (what the setters change).
    var parts: URLParts {
        var parts = URLParts(scheme: scheme)
        parts.username = username
        parts.password = password
        parts.host = host
        parts.port = port
        let pathname = self.pathname
        if spans.hasOpaquePath {
            parts.path = .opaque(pathname)
        } else {
            parts.path = .segments(pathname.isEmpty ? [] : pathname.utf8.dropFirst().split(separator: 0x2F, omittingEmptySubsequences: false).map { String(Substring($0)) })
        }
        parts.query = query
        parts.fragment = fragment
        return parts
    }

    /// Changes the components with `body`, then serializes them again.
    mutating func change(_ body: (inout URLParts) -> Void) {
        var parts = self.parts
        body(&parts)
        self = WHATWGURL(parts: parts)
    }
}

extension WHATWGURL.Spans {
    /// Where `component` is in an href of `count` bytes these spans describe (see
    /// `WHATWGURL.range(of:)`). Inlinable: the Lua bridge calls it with each component in turn for
    /// every URL value it makes, and the switch folds away.
    @inlinable
    public func range(of component: WHATWGURL.Component, count: Int) -> Range<Int>? {
        let pathEnd = Int(min(queryStart, fragmentStart, UInt32(count))), queryEnd = Int(min(fragmentStart, UInt32(count)))
        switch component {
        case .href: return 0..<count
        case .origin: return hasTupleOrigin && usernameStart == hostStart ? 0..<Int(pathStart) : nil
        case .protocol: return 0..<Int(schemeEnd) + 1
        case .username: return Int(usernameStart)..<Int(usernameEnd)
        case .password: return passwordEnd > usernameEnd ? Int(usernameEnd) + 1..<Int(passwordEnd) : Int(passwordEnd)..<Int(passwordEnd)
        case .hostname: return Int(hostStart)..<Int(hostEnd)
        case .host: return Int(hostStart)..<Int(hostKind == .none ? hostEnd : pathStart)
        case .port: return port < 0 ? Int(hostEnd)..<Int(hostEnd) : Int(hostEnd) + 1..<Int(pathStart)
        case .pathname: return Int(pathStart)..<pathEnd
        case .search: return queryStart == .max || queryEnd - Int(queryStart) < 2 ? pathEnd..<pathEnd : Int(queryStart)..<queryEnd
        case .hash: return fragmentStart == .max || count - Int(fragmentStart) < 2 ? count..<count : Int(fragmentStart)..<count
        }
    }
}
