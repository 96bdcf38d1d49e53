import PekitCore

/// AWS Signature Version 4, computed as botocore computes it (`SigV4Auth`, `S3SigV4Auth`,
/// `SigV4QueryAuth`, `S3SigV4QueryAuth` of botocore 1.x): the same headers signed (all but
/// botocore's list of hop-by-hop ones, `User-Agent` and `X-Amzn-Trace-Id`), the same canonical
/// path (dot segments and double slashes removed, then encoded again, except for S3), the same
/// canonical query (the URL's pairs sorted as they are), the same payload hash rules.
public struct AWSSigV4: Sendable {
    /// Where the signature goes.
    public enum Placement: String, Sendable, CaseIterable {
        /// The `Authorization` header (with `X-Amz-Date`).
        case header
        /// A presigned URL (`X-Amz-Signature` and the other `X-Amz-*` parameters in the query).
        case query
    }
    /// Whether the body is hashed into the signature.
    public enum Payload: String, Sendable, CaseIterable {
        /// The body's SHA-256 (`X-Amz-Content-SHA256` for S3).
        case hash
        /// `UNSIGNED-PAYLOAD` (botocore still hashes the body of a plain-http request).
        case unsigned
    }

    /// The access key ID (`AKIDEXAMPLE`).
    public var accessKey: String
    /// The secret access key.
    public var secretKey: String
    /// A temporary credential's session token, sent as `X-Amz-Security-Token`.
    public var sessionToken: String?
    /// The region signed for (`us-east-1`).
    public var region: String
    /// The service signed for (`iam`, `s3`).
    public var service: String
    /// Whether the body is hashed into the signature.
    public var payload = Payload.hash
    /// Where the signature goes: the Authorization field, or the query (a presigned URL).
    public var placement = Placement.header
    /// Seconds a presigned URL stays valid (`X-Amz-Expires`).
    public var expires = 3600

    /// A signer with these credentials, for `region` and `service`.
    public init(accessKey: String, secretKey: String, sessionToken: String? = nil, region: String, service: String) {
        self.accessKey = accessKey; self.secretKey = secretKey; self.sessionToken = sessionToken
        self.region = region; self.service = service
    }

    /// What was signed, for debugging a rejected signature.
    public struct Explanation: Sendable, Equatable {
        /// The canonical request (SigV4 task 1).
        public let canonicalRequest: String
        /// The string to sign (task 2).
        public let stringToSign: String
        /// The signature, hex (task 3).
        public let signature: String
    }

    /// What an unsigned payload is hashed as.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    static let blacklist: Set<String> = ["connection", "expect", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
                                         "trailer", "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id"]

    var isS3: Bool { service == "s3" }

    /// Signs `request` at `time` (Unix seconds): adds the headers, or rewrites the URL for a
    /// presigned one. O(body) for the payload hash.
    /// - Throws: `CryptoError` (libcrypto), `RequestURL.ParseError`, `RequestError` for a body
    ///   that cannot be read, or a query signature asked of a request with a body.
    @discardableResult
    public func sign(_ request: inout PekitRequest, at time: Double) throws -> Explanation {
        guard let stamp = UnixTime.format(time, .iso8601Basic) else { throw CryptoError("cannot sign at time \(time)") }
        let date = String(stamp.prefix(8))
        let scope = "\(date)/\(region)/\(service)/aws4_request"
        let url = try request.requestURL()
        var payloadHash: String?
        switch placement {
        case .header:
            request.headers.remove("Authorization")
            if request.headers["Date"] != nil {
                request.headers.remove("Date")
                try request.headers.add("Date", Self.rfc2822(time))
                request.headers.remove("X-Amz-Date")
            } else {
                request.headers.remove("X-Amz-Date")
                try request.headers.add("X-Amz-Date", stamp)
            }
            if let sessionToken, !sessionToken.isEmpty {
                request.headers.remove("X-Amz-Security-Token")
                try request.headers.add("X-Amz-Security-Token", sessionToken)
            }
            if payload == .unsigned {
                request.headers.remove("X-Amz-Content-SHA256")
                try request.headers.add("X-Amz-Content-SHA256", Self.unsignedPayload)
            }
            if isS3 {
                let hash = try payloadDigest(request, url)
                request.headers.remove("X-Amz-Content-SHA256")
                try request.headers.add("X-Amz-Content-SHA256", hash)
            }
        case .query:
            if request.headers["content-type"] == "application/x-www-form-urlencoded; charset=utf-8" { request.headers.remove("content-type") }
            guard try request.bodyBytes().isEmpty else {
                throw CryptoError("a presigned URL (sign_in = \"query\") cannot carry a request body")
            }
            var params: [(String, String)] = [
                ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"), ("X-Amz-Credential", "\(accessKey)/\(scope)"), ("X-Amz-Date", stamp),
                ("X-Amz-Expires", String(expires)), ("X-Amz-SignedHeaders", signedHeaders(headersToSign(request, url))),
            ]
            if let sessionToken { params.append(("X-Amz-Security-Token", sessionToken)) }
            // botocore reads the query as a dict (the first value of each name) and writes it again.
            var first: [(String, String)] = []
            if let query = url.query, !query.isEmpty {
                let read = try PythonParser.keepBlank.parse(ByteString(query))
                if case .map(let map) = read {
                    for entry in map.entries { if case .array(let values) = entry.value, case .string(let v)? = values.first { first.append((entry.key.description, v.description)) } }
                }
            }
            let encode = { (s: String) in PercentEncoder.rfc3986.encode(s) }
            let operation = first.map { "\(encode($0.0))=\(encode($0.1))" }
            let auth = params.map { "\(encode($0.0))=\(encode($0.1))" }
            var rebuilt = url
            rebuilt.query = (operation + auth).joined(separator: "&")
            request.url = rebuilt.description
            request.parsedURL = rebuilt
            if isS3 { payloadHash = Self.unsignedPayload }
        }
        let signedURL = placement == .header ? url : try request.requestURL()
        let headers = headersToSign(request, signedURL)
        let bodyHash: String
        if let given = request.headers["X-Amz-Content-SHA256"] { bodyHash = given }
        else if let payloadHash { bodyHash = payloadHash }
        else { bodyHash = try payloadDigest(request, signedURL) }
        let canonical = [
            request.method.rawValue.uppercased(),
            isS3 ? signedURL.path : Self.canonicalPath(signedURL.path),
            Self.canonicalQuery(signedURL.query ?? ""),
            canonicalHeaders(headers) + "\n",
            signedHeaders(headers),
            bodyHash,
        ].joined(separator: "\n")
        let stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, hexDigest(Array(canonical.utf8))].joined(separator: "\n")
        let key = try signingKey(date: date)
        let signature = String(decoding: Hex.encode(try Digest.hmac(.sha256, key: key, Array(stringToSign.utf8))), as: UTF8.self)
        switch placement {
        case .header:
            try request.headers.add("Authorization", "AWS4-HMAC-SHA256 Credential=\(accessKey)/\(scope), SignedHeaders=\(signedHeaders(headers)), Signature=\(signature)")
        case .query:
            request.url = signedURLWithSignature(request.url, signature)
        }
        return Explanation(canonicalRequest: canonical, stringToSign: stringToSign, signature: signature)
    }

    private func signedURLWithSignature(_ url: String, _ signature: String) -> String {
        // Before a fragment, if the URL has one (urlunsplit keeps it at the end).
        if let hash = url.firstIndex(of: "#") { return url[..<hash] + "&X-Amz-Signature=\(signature)" + url[hash...] }
        return url + "&X-Amz-Signature=\(signature)"
    }

    /// The signing key of a day, region and service (four HMACs), kept for the next request as
    /// AWS's SDKs keep it.
    func signingKey(date: String) throws -> [UInt8] {
        let id = [secretKey, date, region, service].joined(separator: "\u{0}")
        if let key = Self.keyCache.withLock({ $0[id] }) { return key }
        var key = try Digest.hmac(.sha256, key: Array("AWS4\(secretKey)".utf8), Array(date.utf8))
        for part in [region, service, "aws4_request"] { key = try Digest.hmac(.sha256, key: key, Array(part.utf8)) }
        Self.keyCache.withLock { cache in
            if cache.count > 64 { cache.removeAll() }
            cache[id] = key
        }
        return key
    }

    static let keyCache = Locked<[String: [UInt8]]>([:])
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    func hexDigest(_ bytes: [UInt8]) -> String {
        (try? Digest.hash(.sha256, bytes)).map { String(decoding: Hex.encode($0), as: UTF8.self) } ?? ""
    }

    /// The payload hash (or `UNSIGNED-PAYLOAD`) as botocore decides it.
    func payloadDigest(_ request: PekitRequest, _ url: RequestURL) throws -> String {
        let plainHTTP = !request.url.hasPrefix("https")
        if payload == .unsigned && !plainHTTP { return Self.unsignedPayload }
        if case .empty = request.body { return Self.emptyHash }
        let stream = try HashStream(.sha256)
        try request.writeBody { try stream.update($0) }
        return String(decoding: Hex.encode(try stream.finish()), as: UTF8.self)
    }

    /// The headers signed: lower-case names (all but the blacklist) with their values in order, and
    /// the host from the URL when there is no Host header.
    func headersToSign(_ request: PekitRequest, _ url: RequestURL) -> [(name: String, values: [String])] {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for field in request.headers.fields {
            let name = field.name.lowercased()
            guard !Self.blacklist.contains(name) else { continue }
            // botocore signs before the length exists: pekit's own framing is not signed.
            if request.framingLength && name == "content-length" { continue }
            if values[name] == nil { names.append(name); values[name] = [] }
            values[name]?.append(field.value)
        }
        if values["host"] == nil {
            names.append("host")
            let defaultPort = url.scheme == "https" ? 443 : url.scheme == "http" ? 80 : -1
            var host = url.host.contains(":") ? "[\(url.host.lowercased())]" : url.host.lowercased()
            if let port = url.port, port != defaultPort { host += ":\(port)" }
            values["host"] = [host]
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { ($0, values[$0] ?? []) }
    }

    func canonicalHeaders(_ headers: [(name: String, values: [String])]) -> String {
        headers.map { "\($0.name):" + $0.values.map(Self.trimAll).joined(separator: ",") }.joined(separator: "\n")
    }

    func signedHeaders(_ headers: [(name: String, values: [String])]) -> String {
        headers.map(\.name).joined(separator: ";")
    }

    /// Python's `' '.join(value.split())`: whitespace runs to one space, none at the ends.
    static func trimAll(_ value: String) -> String {
        let isSpace = { (b: UInt8) in b == 0x20 || (b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x1F) }
        // Most values have no space to trim: only single spaces between words.
        var previousSpace = true, clean = true
        for b in value.utf8 {
            let space = isSpace(b)
            if space && (previousSpace || b != 0x20) { clean = false; break }
            previousSpace = space
        }
        if clean && !previousSpace { return value }
        return value.utf8.split(whereSeparator: isSpace).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    }

    /// botocore's `_normalize_url_path`: remove dot segments and empty segments, then
    /// `quote(path, safe='/~')` (a `%` already there is encoded again).
    static func canonicalPath(_ path: String) -> String {
        guard !path.isEmpty else { return "/" }
        let bytes = Array(path.utf8)
        var output: [ArraySlice<UInt8>] = []
        for segment in bytes.split(separator: 0x2F, omittingEmptySubsequences: true) where !segment.elementsEqual([0x2E]) {
            if segment.elementsEqual([0x2E, 0x2E]) { if !output.isEmpty { output.removeLast() } } else { output.append(segment) }
        }
        var normalized: [UInt8] = bytes.first == 0x2F ? [0x2F] : []
        normalized += output.joined(separator: [0x2F])
        if bytes.last == 0x2F && !output.isEmpty { normalized.append(0x2F) }
        return String(decoding: pathEncoder.encode(bytes: normalized), as: UTF8.self)
    }

    static let pathEncoder: PercentEncoder = {
        var allowed = AllowedSet.unreserved
        allowed.insert(0x2F)
        return PercentEncoder(allowed: allowed, space: .percent)
    }()

    /// The URL's query pairs, split at the first `=`, sorted as strings (code-point order, which is
    /// UTF-8 byte order), joined again.
    static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        let pairs = Array(query.utf8).split(separator: 0x26, omittingEmptySubsequences: false).map { pair -> (ArraySlice<UInt8>, ArraySlice<UInt8>) in
            guard let eq = pair.firstIndex(of: 0x3D) else { return (pair, []) }
            return (pair[..<eq], pair[(eq + 1)...])
        }
        var out: [UInt8] = []
        out.reserveCapacity(query.utf8.count)
        for (i, pair) in pairs.sorted(by: { a, b in a.0.elementsEqual(b.0) ? a.1.lexicographicallyPrecedes(b.1) : a.0.lexicographicallyPrecedes(b.0) }).enumerated() {
            if i > 0 { out.append(0x26) }
            out += pair.0; out.append(0x3D); out += pair.1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// email.utils.formatdate: `Sun, 06 Nov 1994 08:49:37 -0000`.
    static func rfc2822(_ time: Double) -> String {
        let http = UnixTime.format(time, .http) ?? ""
        return http.hasSuffix(" GMT") ? http.dropLast(4) + " -0000" : http
    }
}

extension PythonParser {
    /// `parse_qs(..., keep_blank_values=True)`.
    static var keepBlank: PythonParser {
        var p = PythonParser()
        p.keepBlankValues = true
        return p
    }
}

/// A value behind a mutex (the signing-key cache is shared by every runtime and thread).
/// (The core's lock: a mutex that does not move, where a `pthread_mutex_t` stored in a class
/// property may.)
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = RecursiveLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
