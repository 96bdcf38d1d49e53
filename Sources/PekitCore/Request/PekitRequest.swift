/// A built request: what will be sent, exactly.
public struct PekitRequest: Sendable {
    /// What goes after the header.
    public enum Body: Sendable, Equatable {
        /// No body.
        case empty
        /// These bytes.
        case bytes([UInt8])
        /// A multipart/form-data body, its files read while sending.
        case multipart(MultipartBody)
        /// The bytes of a file, read while sending (an upload of any size in bounded memory).
        case file(String)

        /// The body as segments of bytes and files, for streaming.
        public var segments: [BodySegment] {
            switch self {
            case .empty: return []
            case .bytes(let bytes): return [.bytes(bytes)]
            case .multipart(let multipart): return multipart.segments
            case .file(let path): return [.file(path)]
            }
        }
    }

    /// The method, as sent (`GET`).
    public var method: Method { didSet { madeHead = nil } }
    /// The final URL, as text (the policy's output untouched).
    public var url: String { didSet { parsedURL = nil; madeHead = nil } }
    /// `url`'s parts, where the builder (or a redirect) parsed it: carried to the wire so that the
    /// target, the connection's route, the jar, the limiter and the signer read one parse. Any
    /// change to `url` clears it.
    package var parsedURL: RequestURL? { didSet { madeHead = nil } }
    /// The head `head()` writes, where it was made with the request (`RequestTemplate`): any
    /// change to what the head is written from (method, URL, its parse, fields, target) clears it.
    package internal(set) var madeHead: [UInt8]?
    /// Redirects keep the `.` and `..` segments of a `Location`'s path (curl's `--path-as-is`).
    package var keepsDotSegments = false
    /// The URL was read as curl reads one (`RequestBuilder.readsURLAsCurl`), and so are the
    /// `Location`s of its redirects.
    package var readsURLAsCurl = false
    /// The user and password the builder wrote `Authorization: Basic …` from (`-u`, the URL's
    /// own), for a sender that writes that field itself in its own place (libcurl through a proxy).
    package var basicCredentials: [String]?
    /// Where `basicCredentials` came from: the caller's own option (`-u`, `auth`), which a
    /// `.netrc` never replaces (curl's `CREDS_OPTION`).
    package var credentialsFromOption = false
    /// The user and password the URL named (decoded; the password nil when the userinfo has no
    /// colon), which a `.netrc` lookup starts from as curl's does.
    package var urlCredentials: URLCredentials?
    /// A URL's user and password.
    package struct URLCredentials: Equatable, Sendable {
        package let user: String
        package let password: String?
        package init(user: String, password: String?) { self.user = user; self.password = password }
        /// `user[:password]` of a URL, decoded.
        package init(userinfo: String) {
            let (user, password) = RequestURL.credentials(fromUserinfo: userinfo)
            self.init(user: user, password: userinfo.contains(":") ? password : nil)
        }
    }
    /// The builder wrote `Expect: 100-continue` itself, as libcurl asks for it on an HTTP/1.1
    /// upload: a send in HTTP/1.0 leaves it out, as libcurl does.
    package var continueExpected = false

    /// `url`'s parts: the one parse it carries, or a parse now (a request made by hand).
    /// - Throws: `RequestURL.ParseError` for a URL that cannot be sent.
    public func requestURL() throws -> RequestURL {
        if let parsedURL { return parsedURL }
        return try RequestURL(url)
    }
    /// The header fields, in the order they are sent.
    public var headers: PekitHeaders { didSet { madeHead = nil } }
    /// The body.
    public var body: Body
    /// Logical hosts sent to other addresses (curl's `--connect-to`).
    public var connect: [HostMapping]
    /// A request target sent exactly as given instead of the URL's path and query (curl's
    /// `--request-target`), for testing how servers read what browsers would never send.
    public var requestTarget: String? { didSet { madeHead = nil } }
    /// Whether the response body is decoded (curl's `--compressed`; the request's
    /// `Accept-Encoding` says what may come).
    public var decodesBody = false
    /// Whether the `Content-Length` field is pekit's framing (the builder wrote it from the body's
    /// length) rather than one the user gave: a signer that signs before framing, as botocore
    /// does, leaves it out. Any field added later is the caller's.
    public var framingLength = false

    /// The cookies a `RequestBuilder` set the request up with: the jar its Cookie field came
    /// from, where a send then stores each hop's Set-Cookie fields and reads each redirect's
    /// Cookie field, with no second step (a send's own `jar` option, when given, wins). Nil for a
    /// request made by hand or built without a jar.
    public var cookieSetup: CookieSetup?
    /// The signer the builder signed the request with (`RequestBuilder.signer`), which a send
    /// asks again for each redirect to the request's own origin.
    public var signer: (@Sendable (inout PekitRequest) throws -> Void)?

    /// How a built request's cookies are kept: the jar, and a Cookie header written by hand.
    public struct CookieSetup: Sendable {
        /// The jar the Cookie field came from and a send stores into.
        public var jar: CookieJar
        /// Whether each hop's Cookie field comes from the jar (false: the caller wrote or removed
        /// the Cookie header by hand, and it is left alone).
        public var headerFromJar: Bool
        /// The caller's own cookie pairs (`RequestBuilder.cookie`), sent after the jar's.
        public var own: String?
        /// The context the jar's cookies are sent and received in.
        public var context: CookieJar.RequestContext

        /// A setup: the jar, whether it writes the Cookie field, the caller's own pairs, the context.
        public init(jar: CookieJar, headerFromJar: Bool = true, own: String? = nil, context: CookieJar.RequestContext = .init()) {
            self.jar = jar; self.headerFromJar = headerFromJar; self.own = own; self.context = context
        }
    }

    /// A request made by hand (`RequestBuilder.build()` makes one with pekit's rules).
    public init(method: Method, url: String, headers: PekitHeaders, body: Body, connect: [HostMapping] = []) {
        self.method = method; self.url = url; self.headers = headers; self.body = body; self.connect = connect
    }

    /// The request target: `requestTarget` when given, else the origin form — the path ("/" when
    /// empty) and the query; never the fragment.
    public var target: String {
        if let requestTarget { return requestTarget }
        if let parsedURL {
            let path = parsedURL.path.isEmpty ? "/" : parsedURL.path
            return parsedURL.query.map { path + "?" + $0 } ?? path
        }
        var url = url
        return url.withUTF8 { bytes in
            guard let (range, slash) = Self.targetBounds(in: bytes) else { return "/" }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            return slash ? "/" + text : text
        }
    }

    /// Where the origin-form target lies in a URL's bytes (the delimiters are ASCII, so the
    /// bounds fall between characters): the range from the path's "/" or the query's "?" to the
    /// fragment, and whether a "/" goes before it (a query with no path); nil when the target is "/".
    package static func targetBounds(in url: UnsafeBufferPointer<UInt8>) -> (range: Range<Int>, slash: Bool)? {
        let end = url.firstIndex(of: 0x23) ?? url.count  // '#'
        var start = 0
        if let colon = url[..<end].firstIndex(of: 0x3A), end - colon >= 3, url[colon + 1] == 0x2F, url[colon + 2] == 0x2F { start = colon + 3 }
        guard let first = url[start..<end].firstIndex(where: { $0 == 0x2F || $0 == 0x3F }) else { return nil }
        return (first..<end, url[first] == 0x3F)
    }

    /// The body as segments of bytes and files, for streaming.
    public var segments: [BodySegment] { body.segments }

    /// The body bytes (file parts are read in full: use `writeBody` to stream).
    public func bodyBytes() throws -> [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        var out: [UInt8] = []
        try writeBody { out += $0 }
        return out
    }

    /// Streams the body through `sink` with bounded memory.
    public func writeBody(to sink: ([UInt8]) throws -> Void) throws {
        try BodyStream(segments).write(to: sink)
    }

    /// Whether the body goes in chunks: a `chunked` coding in `Transfer-Encoding` (libcurl's
    /// test), then framed by `chunked(_:)` whatever its length, an empty body included.
    public var isChunked: Bool {
        headers.values("Transfer-Encoding").contains { value in
            value.split(separator: ",").contains { $0.trimmingOWS.lowercased() == "chunked" }
        }
    }

    /// The exact HTTP/1.1 message: the head (`head()`, as it goes on the wire), then the body
    /// (in chunks when `isChunked`, as they go on the wire).
    public func raw() throws -> [UInt8] {
        let body = try bodyBytes()
        return head() + (isChunked ? Self.chunked(body) : body)
    }

    /// The size of the chunks libcurl sends: its upload buffer (64 KiB) less room for the chunk's
    /// size line and CR LF (12 bytes), when each read fills the buffer as pekit's does.
    public static let chunkSize = 65_536 - 12

    /// `body` in chunks of `chunkSize` as libcurl frames it (size in lower-case hex), ended by
    /// the last chunk `0` and an empty trailer.
    public static func chunked(_ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 16 * (body.count / chunkSize + 2))
        var start = 0
        while start < body.count {
            let end = min(start + chunkSize, body.count)
            out += Array(String(end - start, radix: 16).utf8) + [0x0D, 0x0A]
            out += body[start..<end]
            out += [0x0D, 0x0A]
            start = end
        }
        return out + Array("0\r\n\r\n".utf8)
    }
}

extension String {
    /// `self` as one POSIX shell word: single-quoted, with `'` written as `'\''`.
    package var shellQuoted: String {
        if !isEmpty && allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=@,+%".contains($0)) }) { return self }
        var out = "'"
        for c in self { if c == "'" { out += "'\\''" } else { out.append(c) } }
        return out + "'"
    }
}

extension PekitRequest {
    /// One POSIX shell command that sends the same request with curl: every field given with -H
    /// in order (which replaces curl's own field of that name; Content-Length included, so it
    /// keeps its place), curl's own fields the request lacks removed (`-H 'Accept:'`), the body
    /// piped from printf (octal escapes, so any byte survives) and file parts from cat.
    public func curl() throws -> String {
        var words = ["curl", "--http1.1"]
        for mapping in connect { words += ["--connect-to", mapping.curlArgument.shellQuoted] }
        let sendsBody = body != .empty || isChunked
        if method == "HEAD" { words.append("--head") } else if !(method == "GET" && !sendsBody) { words += ["--request", method.rawValue.shellQuoted] }
        if let requestTarget { words += ["--request-target", requestTarget.shellQuoted] }
        if decodesBody { words.append("--compressed") }
        // pekit sends a path as it is (libcurl's PATH_AS_IS); curl's own command line would
        // remove its dot segments (`/a/../b`, `/a/%2e%2e/b`) unless told.
        if requestTarget == nil, Self.hasDotSegments(url) { words.append("--path-as-is") }
        // Brackets and braces after the host are curl's URL globs unless it is told otherwise
        // (a query such as `a[b]=1` would stop curl with exit 3); an IPv6 host's are not.
        if Self.afterAuthority(url).contains(where: { "[]{}".contains($0) }) { words.append("--globoff") }
        words.append(url.shellQuoted)
        for field in headers.fields {
            // "Name:" alone would tell curl to remove the header; "Name;" sends it empty. Bytes
            // that are not UTF-8 are made by printf, as the body's are (any byte survives).
            if field.rawValue != nil { words += ["-H", "\"$(printf " + Self.printfFormat(field.lineBytes) + ")\""]; continue }
            words += ["-H", (field.value.isEmpty ? "\(field.name);" : field.line).shellQuoted]
        }
        // curl's own fields that this request does not have are removed ("Name:").
        for name in ["Host", "User-Agent", "Accept"] where !headers.contains(name) { words += ["-H", "\(name):"] }
        if sendsBody && !headers.contains("Content-Type") { words += ["-H", "Content-Type:"] }
        if sendsBody, !headers.contains("Expect"), try BodyStream.length(of: segments) > RequestBuilder.expectThreshold { words += ["-H", "Expect:"] }
        switch body {
        case .empty:
            if isChunked { words += ["--data-binary", "''"] }
            return words.joined(separator: " ")
        case .bytes(let bytes):
            words += ["--data-binary", "@-"]
            return "printf " + Self.printfFormat(bytes) + " | " + words.joined(separator: " ")
        case .file(let path):
            words += ["--data-binary", ("@" + Self.operand(path)).shellQuoted]
            return words.joined(separator: " ")
        case .multipart:
            words += ["--data-binary", "@-"]
            let producers = segments.map { segment -> String in
                switch segment {
                case .bytes(let bytes): return "printf " + Self.printfFormat(bytes)
                case .file(let path): return "cat " + Self.operand(path).shellQuoted
                }
            }
            return "{ " + producers.joined(separator: "; ") + "; } | " + words.joined(separator: " ")
        }
    }

    /// The URL from its path on (all of it when it has no `scheme://`).
    static func afterAuthority(_ url: String) -> Substring {
        guard let scheme = url.firstRange(of: "://") else { return url[...] }
        let rest = url[scheme.upperBound...]
        return rest[(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)...]
    }

    /// Whether the URL's path has a `.` or `..` segment, written as dots or as `%2e` (either case).
    static func hasDotSegments(_ url: String) -> Bool {
        guard let scheme = url.firstRange(of: "://") else { return false }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return false }
        let path = rest[slash...].prefix { $0 != "?" && $0 != "#" }
        return path.split(separator: "/", omittingEmptySubsequences: false).contains { segment in
            let lower = segment.lowercased()
            return [".", "%2e", "..", ".%2e", "%2e.", "%2e%2e"].contains(lower)
        }
    }

    /// A file path as a command's operand: `cat -A` would be an option and `@-` curl's standard
    /// input, so a path starting with "-" is written `./-…` (the same file).
    static func operand(_ path: String) -> String { path.hasPrefix("-") ? "./" + path : path }

    /// A printf format that prints exactly `bytes`: printable ASCII as is, `%` as `%%`, the rest
    /// as octal escapes, all single-quoted.
    static func printfFormat(_ bytes: [UInt8]) -> String {
        var out = "'"
        for (i, b) in bytes.enumerated() {
            switch b {
            case 0x2D where i == 0: out += "\\055"  // a format starting with '-' would read as an option
            case 0x25: out += "%%"
            case 0x27: out += "\\047"
            case 0x5C: out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(b))
            default: out += "\\" + String(b, radix: 8).leftPadded(to: 3)
            }
        }
        return out + "'"
    }
}
