/// Builds requests the way AFHTTPRequestSerializer does, done right: parameters into the query
/// or a form body by method, JSON, raw and multipart bodies, Basic auth, the cookie jar's Cookie
/// header, and validation that rules out header injection. The fields are curl's, in curl's
/// order (`RequestBuilder+Fields.swift`), so a request leaves pekit as the same curl command
/// leaves curl.
public struct RequestBuilder: Sendable {
    /// Where parameters go.
    public enum ParameterPlacement: String, Sendable {
        /// By the method: the query for `methodsInQuery` (GET, HEAD, DELETE), the body otherwise.
        case auto
        /// Always the query.
        case query
        /// Always the body.
        case body
    }

    /// A header field given by the caller, in order; repeats are kept.
    public struct Header: Sendable {
        /// The field's name.
        public var name: String
        /// nil removes pekit's (or the policy's) default field of that name.
        public var value: String?
        /// The value's own bytes where they are not UTF-8 (given as bytes: curl's
        /// `-H $'X-A: caf\xe9'` sends the byte E9): sent as they are; `value` shows them repaired.
        public var rawValue: [UInt8]?
        /// Between the colon and the value: `-H 'X-A:1'` has none (see `PekitHeaders.Field.spacing`).
        public var spacing: String
        /// The name is sent as written though it is not an HTTP token (a line read as curl's
        /// `-H` reads it: curl sends any line with a colon, a name with blanks or bytes past
        /// ASCII included). It still holds no CR, LF, NUL or colon, so no field can be injected.
        public var nameAsWritten = false

        /// Checks the field as a build checks every caller's field before placing any: its name
        /// (a token, unless `nameAsWritten`), and its value's bytes (no control byte but tab).
        /// - Throws: `RequestError.invalidHeaderName` or `invalidHeaderValue`.
        func validate() throws {
            if let rawValue { try PekitHeaders.validate(name: name, bytes: rawValue, nameAsWritten: nameAsWritten) }
            else { try PekitHeaders.validate(name: name, value: value ?? "", nameAsWritten: nameAsWritten) }
        }

        /// A field; a nil `value` removes pekit's default of that name.
        public init(_ name: String, _ value: String?, spacing: String = " ") {
            self.name = name; self.value = value; self.spacing = spacing
        }

        /// A field whose value is bytes (a Lua string, a command line's argument), sent as given.
        public init(_ name: String, bytes: [UInt8], spacing: String = " ") {
            self.init(name, String(decoding: bytes, as: UTF8.self), spacing: spacing)
            if ValidUTF8.string(bytes) == nil { rawValue = bytes }
        }

        /// A field written as one line, as curl's `-H` reads it: `Name: value` sent as written
        /// (the whitespace after the colon and at the end kept), `Name:` with nothing after it
        /// removes the default field, `Name;` sends it empty. A name that is not an HTTP token
        /// (blanks, bytes past ASCII) is sent as written, as curl sends it (`nameAsWritten`).
        /// - Throws: `RequestError.invalid` for a line with neither.
        public init(line: String) throws { try self.init(lineBytes: Array(line.utf8)) }

        /// `init(line:)` over the line's bytes (the value's are kept as they are).
        public init(lineBytes line: [UInt8]) throws {
            let text = { (bytes: ArraySlice<UInt8>) in String(decoding: bytes, as: UTF8.self) }
            guard let colon = line.firstIndex(of: 0x3A) else {
                if line.last == 0x3B {
                    self.init(text(line.dropLast()), "")
                    return
                }
                throw RequestError.invalid("a header line is 'Name: value' (or 'Name;' for an empty one), not '\(PercentDecodingError.printable(line))'")
            }
            var value = line[(colon + 1)...]
            var spacing = ""
            while let c = value.first, c == 0x20 || c == 0x09 { spacing.append(Character(Unicode.Scalar(c))); value = value.dropFirst() }
            if value.isEmpty {
                self.init(text(line[..<colon]), nil, spacing: spacing)
            } else {
                self.init(text(line[..<colon]), bytes: Array(value), spacing: spacing)
            }
            nameAsWritten = !PekitHeaders.isToken(name)
        }

        /// The line `init(line:)` reads back to this header.
        public var line: String {
            guard let value else { return name + ":" }
            return value.isEmpty ? name + ";" : name + ":" + spacing + value
        }

        /// The line `init(lineBytes:)` reads back to this header, its value's bytes as given.
        public var lineBytes: [UInt8] {
            guard let rawValue else { return Array(line.utf8) }
            return Array((name + ":" + spacing).utf8) + rawValue
        }
    }

    /// The method (`GET`; any token), upper-cased as Python's requests and node's http do, unless
    /// `keepsMethodCase`.
    public var method: PekitRequest.Method = .get
    /// Sends `method` as given (`wHat` stays `wHat`), as curl's `-X` does: methods are
    /// case-sensitive (RFC 9110 §9.1).
    public var keepsMethodCase = false
    /// The body is an upload as curl's `-T` sends one: no `Content-Type`, and `Expect:
    /// 100-continue` whatever its size (libcurl asks for it on every HTTP/1.1 upload).
    public var uploadsAsCurl = false
    /// Reads `url` as curl reads one from its command line (`CurlURL`): one to three slashes
    /// after the scheme, dot segments removed (unless `keepsDotSegments`), the host's case kept
    /// for `Host`, a name ending in a number taken as a name, and the path and query escaped as
    /// curl escapes them. `pekit request` and `pekit import curl` set it; the URL Standard's
    /// reading (browsers', `pekit.url`'s) is the default.
    public var readsURLAsCurl = false
    /// Keeps `.` and `..` segments of redirects' paths (curl's `--path-as-is`), and of the URL's
    /// own with `readsURLAsCurl` (without it nothing is removed from the URL given).
    public var keepsDotSegments = false
    /// The URL, absolute or relative to `base`.
    public var url: String
    /// Resolved against when `url` is relative (RFC 3986 §5, with AFNetworking's trailing '/':
    /// a base URL is a directory).
    public var base: String?
    /// The parameters, put in the query or the body by the method and `placement`.
    public var params: PekitValue?
    /// How the parameters are encoded, and the request defaults the policy carries.
    public var policy = Policy.rfc3986
    /// nil: the policy's `params_in`, else auto.
    public var placement: ParameterPlacement?
    /// Methods whose parameters go into the query (AFNetworking's HTTPMethodsEncodingParametersInURI);
    /// nil: the policy's list, else GET, HEAD, DELETE.
    public var methodsInQuery: Set<String>?
    /// Header fields in order: each replaces pekit's default of its name (Host keeps the first
    /// place; the others go where curl puts a `-H` header), a nil value only removes the default.
    public var headers: [Header] = []
    /// The body, when the parameters are not it.
    public var body: RequestBody = .none
    /// `User-Agent` (curl's `-A`; nil: none).
    public var userAgent: String? = RequestBuilder.userAgent
    /// `Accept` (nil: none).
    public var accept: String? = "*/*"
    /// `Referer` (curl's `-e`).
    public var referer: String?
    /// The byte ranges asked for (curl's `-r`: `100-200`, `-101`, `0-10,12-15`), sent as
    /// `Range: bytes=…` where curl writes it, after the credentials.
    public var range: String?
    /// A time condition (curl's `-z`): `If-Modified-Since` or `If-Unmodified-Since` and its date,
    /// sent where curl writes it, after the Cookie field and before the caller's own fields.
    public var timeCondition: (name: String, value: String)?
    /// The part of the whole a resumed upload's body is (curl's `-C` with `-T` or `-d`: `50-99/100`),
    /// sent as `Content-Range: bytes …` where curl writes it, after the credentials.
    public var contentRange: String?
    /// Cookies written by hand (curl's `-b 'a=1; b=2'`), after the jar's in one Cookie field.
    public var cookie: String?
    /// `Accept-Encoding`, and the response decoded (curl's `--compressed`).
    public var acceptEncoding: String?
    /// Logical hosts sent to other addresses (curl's `--connect-to`).
    public var connect: [HostMapping] = []
    /// Sent as the request target exactly as given (`/raw path`, `*`, an absolute URL), instead of
    /// the URL's path and query; refused only for CR, LF and NUL, which would end the request line.
    public var target: String?
    /// A fixed boundary (tests); a random one otherwise.
    public var boundary: String?
    /// `Authorization: Basic …` (curl's `-u`).
    public var basicAuth: (user: String, password: String)?
    /// An OAuth 2.0 bearer token, sent as `Authorization: Bearer TOKEN` (RFC 6750 §2.1) in the
    /// place Basic's field takes; it wins over `basicAuth`, as curl's --oauth2-bearer wins over -u.
    public var bearerToken: String?
    /// The jar whose cookies go in the Cookie field, and where a send stores the responses' cookies.
    public var jar: CookieJar?
    /// The context the jar's cookies are sent in (a cross-site request, the top-level page for
    /// CHIPS partitions); the send receives in it too.
    public var cookieContext = CookieJar.RequestContext()
    /// Signs the built request (AWS SigV4, OAuth 1.0a…); the sender calls it again for each
    /// redirect hop to the same origin, so every hop carries a fresh signature.
    public var signer: (@Sendable (inout PekitRequest) throws -> Void)?
    /// The environment a policy's `Accept-Language` rule reads (`LANGUAGE`, `LANG`).
    public var environment: [String: String] = [:]

    /// A builder for `url` with pekit's defaults (curl's, where they matter).
    public init(url: String) { self.url = url }

    /// Whether the caller set or removed the Cookie header by hand: then a jar's Cookie header
    /// must not replace it when the request is sent.
    public var overridesCookie: Bool { headers.contains { PekitHeaders.sameName($0.name, "Cookie") } }

    /// The Cookie field of a request: the jar's pairs (as bytes: a value that is not UTF-8 goes
    /// as it came), then the caller's own (`cookie`), or nil when neither has any. The builder
    /// and every hop of a send make it so.
    public static func cookieField(jar: [UInt8]?, own: String?) -> [UInt8]? {
        switch (jar, own) {
        case (let jar?, let own?): return jar + Array("; \(own)".utf8)
        case (let jar?, nil): return jar
        case (nil, let own?): return Array(own.utf8)
        case (nil, nil): return nil
        }
    }

    /// The `Authorization` value of Basic authentication for `user` and `password`.
    package static func basicAuthorization(user: String, password: String) -> String {
        "Basic " + Base64.encode(Array("\(user):\(password)".utf8))
    }

    /// `pekit/VERSION (Linux; ARCH)`, ASCII only.
    public static let userAgent: String = {
        #if arch(x86_64)
        let arch = "x86_64"
        #elseif arch(arm64)
        let arch = "aarch64"
        #else
        let arch = "unknown"
        #endif
        #if os(Linux)
        let os = "Linux"
        #else
        let os = "Darwin"
        #endif
        return "pekit/\(Pekit.version) (\(os); \(arch))"
    }()

    /// Where parameters go in the query unless the builder or its policy says otherwise. Three
    /// methods, compared in place: a Set<String> here was the first of the process for every
    /// `pekit request`, and the first costs start-up a search of the binary's conformances.
    static func isDefaultMethodInQuery(_ method: String) -> Bool { method == "GET" || method == "HEAD" || method == "DELETE" }

    /// Builds the request.
    /// - Throws: `RequestError` naming the field: a method that is not a token, a header name or
    ///   value that could inject, a URL that cannot be used, a file that cannot be read, two
    ///   framings (`Content-Length` and `Transfer-Encoding`); or an error of the policy's custom
    ///   functions.
    public func build() throws -> PekitRequest {
        let method = keepsMethodCase ? self.method.rawValue : Self.uppercased(self.method.rawValue)
        guard PekitHeaders.isToken(method) else { throw RequestError.invalidMethod(self.method.rawValue) }
        // A base URL is a directory, as AFNetworking's relativeToURL: reads it ("users" against
        // ".../v1" is ".../v1/users").
        var urlText = base.map { URLResolution.resolve(url, against: $0, baseIsDirectory: true) } ?? url
        var parsed: RequestURL
        if readsURLAsCurl {
            do { urlText = try CurlURL.read(urlText, keepingDotSegments: keepsDotSegments) } catch { throw RequestError.invalidURL("\(error)") }
        }
        do { parsed = try RequestURL(urlText, readingHostAsCurl: readsURLAsCurl) } catch { throw RequestError.invalidURL("\(error)") }
        // Credentials in the URL are sent as Basic authentication (as curl and browsers do), so the
        // preview shows the header that goes on the wire; the URL keeps none.
        var credentials = basicAuth
        let urlCredentials = parsed.userinfo.map(PekitRequest.URLCredentials.init(userinfo:))
        if let userinfo = parsed.userinfo {
            if credentials == nil {
                credentials = RequestURL.credentials(fromUserinfo: userinfo)
            }
            parsed.userinfo = nil
            urlText = parsed.description
        }

        var requestBody = PekitRequest.Body.empty
        var bodyType: String?
        var ownTypeReplaced = false
        let placement = self.placement ?? policy.paramsIn.flatMap(ParameterPlacement.init(rawValue:)) ?? .auto
        let methodsInQuery = self.methodsInQuery ?? policy.methodsInQuery
        if let params {
            let inQuery: Bool
            switch placement {
            case .query: inQuery = true
            case .body: inQuery = false
            case .auto: inQuery = (methodsInQuery?.contains(method) ?? Self.isDefaultMethodInQuery(method)) || (!body.isNone && !body.isMultipart)
            }
            if inQuery {
                urlText = URLResolution.appendQuery(policy.prefix.isEmpty ? try policy.queryString(params).description
                                                    : String(try policy.queryString(params).description.dropFirst(policy.prefix.count)), to: urlText)
            } else if !body.isMultipart {
                requestBody = .bytes(try policy.queryString(params).bytes)
                bodyType = "application/x-www-form-urlencoded; charset=utf-8"
            }
        }
        switch body {
        case .none: break
        case .form(let form):
            requestBody = .bytes(try policy.queryString(form).bytes)
            bodyType = "application/x-www-form-urlencoded; charset=utf-8"
        case .json(let json):
            requestBody = .bytes(try JSONText.encode(ordered(json), root: "json"))
            bodyType = "application/json"
        case .bytes(let bytes, let type):
            requestBody = .bytes(bytes)
            bodyType = type ?? (uploadsAsCurl ? nil : "application/octet-stream")
        case .file(let path, let type):
            requestBody = .file(path)
            bodyType = type ?? (uploadsAsCurl ? nil : "application/octet-stream")
        case .multipart(var parts):
            if let params, placement != .query {
                // Parameters become text fields, named by the policy's key rules.
                parts = try policy.pairs(params).map { MultipartBody.Part(name: $0.key.description, source: .data($0.value?.bytes ?? [])) } + parts
            }
            var multipartBody = try boundary.map { try MultipartBody(checking: parts, boundary: $0) } ?? MultipartBody(parts: parts)
            try multipartBody.checkPartTypes()
            bodyType = multipartBody.contentType
            if let own = headers.last(where: { PekitHeaders.sameName($0.name, "Content-Type") })?.value, !own.isEmpty {
                // The caller's type, with the boundary the body needs appended, in the place of
                // pekit's own field; parts are attachments unless the type is form-data (as curl
                // does with -F and -H 'Content-Type: …': its tests 277 and 669).
                bodyType = own + "; boundary=" + multipartBody.boundary
                let base = own.split(separator: ";", maxSplits: 1).first.map { $0.trimmingOWS.lowercased() } ?? ""
                if base != "multipart/form-data" { multipartBody.disposition = "attachment" }
                ownTypeReplaced = true
            }
            requestBody = .multipart(multipartBody)
        }

        // curl writes the host in Host: (and a proxy's request line) as it was given.
        let authority = readsURLAsCurl ? parsed.writtenAuthority : parsed.authority
        var context = cookieContext
        context.method = method
        let cookies = try jar?.headerBytes(for: parsed, context: context)
        var written = self
        if ownTypeReplaced { written.headers.removeAll { PekitHeaders.sameName($0.name, "Content-Type") } }
        let headers = try written.fields(authority: authority, credentials: credentials, jarCookies: cookies, body: requestBody, bodyType: bodyType)
        let (wireText, wireURL) = Self.wire(urlText, parsed: parsed, authority: authority, asCurl: readsURLAsCurl)
        var request = PekitRequest(method: .init(method), url: wireText, headers: headers, body: requestBody, connect: connect)
        request.keepsDotSegments = keepsDotSegments
        if let (user, password) = credentials, !self.headers.contains(where: { PekitHeaders.sameName($0.name, "Authorization") }) {
            request.basicCredentials = [user, password]
        }
        request.readsURLAsCurl = readsURLAsCurl
        request.credentialsFromOption = basicAuth != nil
        request.urlCredentials = urlCredentials
        request.continueExpected = headers["Expect"] != nil && !self.headers.contains { PekitHeaders.sameName($0.name, "Expect") }
        // Decoded when pekit asked for codings (curl's --compressed, or a backend's default
        // Accept-Encoding, which its client library decodes); not for a hand-written one.
        // pekit's own length (not one the caller wrote: `Content-Length = false` removes no
        // framing, and the length then re-added is still pekit's, which signers leave out).
        request.framingLength = !self.headers.contains { PekitHeaders.sameName($0.name, "Content-Length") && $0.value != nil } && headers["Content-Length"] != nil
        request.decodesBody = !self.headers.contains { PekitHeaders.sameName($0.name, "Accept-Encoding") }
            && (acceptEncoding != nil || policy.requestHeaders.contains { PekitHeaders.sameName($0.name, "Accept-Encoding") })
        // What was parsed above, with the query appended and the bytes a URI cannot hold encoded:
        // the one parse the request carries to the wire.
        request.parsedURL = wireURL
        if let target {
            if let bad = target.utf8.firstIndex(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
                let name = [0x0D: "CR", 0x0A: "LF", 0x00: "NUL"][Int(target.utf8[bad])] ?? ""
                throw RequestError.invalid("the request target holds \(name) at byte \(target.utf8.distance(from: target.utf8.startIndex, to: bad) + 1): it would end the request line")
            }
            guard !target.isEmpty else { throw RequestError.invalid("the request target is empty") }
            request.requestTarget = target
        }
        try signer?(&request)
        request.signer = signer
        if let jar { request.cookieSetup = .init(jar: jar, headerFromJar: !overridesCookie, own: cookie, context: cookieContext) }
        return request
    }

    /// The URL as it can go on the wire: the scheme lower-cased and the authority canonical
    /// (`authority`: the host in its IDNA ASCII form, IPv4 dotted, IPv6 compressed); in the path,
    /// query and fragment, the bytes a URI cannot hold (space, non-ASCII, `"<>\^`{|}`)
    /// percent-encoded as UTF-8, as browsers send them; everything the policy wrote stays as it is.
    public static func wireURL(_ url: String, authority: String) -> String { wire(url, authority: authority).text }

    /// `wireURL`, with the wire URL's parts taken from `parsed` (a parse of `url`, whose scheme,
    /// user info, host and port the rewrite keeps) and its path, query and fragment as written
    /// out: the one parse a request carries to the wire, never made again.
    package static func wire(_ url: String, parsed: RequestURL) -> (text: String, url: RequestURL) {
        wire(url, parsed: parsed, authority: parsed.authority, asCurl: false)
    }

    /// `wire(_:parsed:)` with the authority to write, and, `asCurl`, the path and query escaped
    /// as curl escapes a command-line URL (`CurlURL`) instead of as browsers do.
    static func wire(_ url: String, parsed: RequestURL, authority: String, asCurl: Bool) -> (text: String, url: RequestURL) {
        let (text, parts) = wire(url, authority: authority, asCurl: asCurl)
        var final = parsed
        (final.path, final.query, final.fragment) = parts
        return (text, final)
    }

    private static func wire(_ url: String, authority: String, asCurl: Bool = false) -> (text: String, parts: (path: String, query: String?, fragment: String?)) {
        var text = url, authority = authority
        return text.withUTF8 { bytes in
            authority.withUTF8 { authority in
                var start = 0
                var schemeEnd: Int?
                if let colon = bytes.firstIndex(of: 0x3A), colon + 2 < bytes.count, bytes[colon + 1] == 0x2F, bytes[colon + 2] == 0x2F {
                    schemeEnd = colon
                    start = bytes[(colon + 3)...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? bytes.count
                }
                // The path and fragment: what a URI cannot hold. The query: WHATWG's query
                // percent-encode set (space, '"', '<', '>', controls, non-ASCII), so that '{x}',
                // '|' and '^' go as written, as browsers and curl send them.
                // The fragment starts at the first '#'; the query at a '?' before it.
                let queryEnd = bytes[start...].firstIndex(of: 0x23) ?? bytes.count
                let queryStart = bytes[start..<queryEnd].firstIndex(of: 0x3F) ?? queryEnd
                // Bounds as a struct of two integers, not Range<Int>: the first array of a
                // generic type with a requirement (Range's Bound: Comparable) costs start-up a
                // search of every conformance record in the binary (issue 47).
                struct Part { var start: Int, end: Int; let set: PercentEncodeSet }
                var parts = [Part(start: start, end: queryStart, set: invalidInURI), Part(start: queryStart, end: queryEnd, set: PercentEncodeSet.query),
                             Part(start: queryEnd, end: bytes.count, set: invalidInURI)]
                func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
                // The parts as written out (the query without its '?', the fragment without its '#').
                func split(_ out: UnsafeBufferPointer<UInt8>) -> (String, String?, String?) {
                    func string(_ from: Int, _ to: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: out[from..<to]), as: UTF8.self) }
                    let query = parts[1], fragment = parts[2]
                    return (string(parts[0].start, parts[0].end), query.start == query.end ? nil : string(query.start + 1, query.end),
                            fragment.start == fragment.end ? nil : string(fragment.start + 1, fragment.end))
                }
                // Whether a byte of part `i` (0 path, 1 query, 2 fragment) is written escaped.
                func escapes(_ i: Int, _ b: UInt8) -> Bool { asCurl ? CurlURL.escapes(b, inQuery: i == 1) : parts[i].set.contains(b) }
                // Most URLs are already as they go on the wire: then no copy is made.
                if !parts.indices.contains(where: { i in bytes[parts[i].start..<parts[i].end].contains { escapes(i, $0) } }),
                   schemeEnd.map({ !bytes[..<$0].contains(where: isUpper) && bytes[($0 + 3)..<start].elementsEqual(authority) }) ?? true {
                    return (url, split(bytes))
                }
                var out: [UInt8] = []
                out.reserveCapacity(bytes.count + authority.count + 16)
                if let schemeEnd {
                    for b in bytes[..<schemeEnd] { out.append(isUpper(b) ? b | 0x20 : b) }
                    out += [0x3A, 0x2F, 0x2F]
                    out += authority
                }
                for i in parts.indices {
                    let from = out.count
                    if asCurl {
                        for b in bytes[parts[i].start..<parts[i].end] { CurlURL.append(b, inQuery: i == 1, to: &out) }
                    } else {
                        for b in bytes[parts[i].start..<parts[i].end] { parts[i].set.append(b, to: &out) }
                    }
                    parts[i].start = from
                    parts[i].end = out.count
                }
                let pieces = out.withUnsafeBufferPointer { split($0) }
                return (String(decoding: out, as: UTF8.self), pieces)
            }
        }
    }

    /// A method upper-cased (`get` is GET), without a copy when it already is.
    package static func uppercased(_ method: String) -> String {
        var bytes = method
        let plain = bytes.withUTF8 { !$0.contains { ($0 >= 0x61 && $0 <= 0x7A) || $0 >= 0x80 } }
        return plain ? method : method.uppercased()
    }

    /// What a URI cannot hold: space, `"<>\^`{|}`, DEL and all non-ASCII (controls are refused before).
    static let invalidInURI = PercentEncodeSet(low: 1 << 0x20 | 1 << 0x22 | 1 << 0x3C | 1 << 0x3E,
                                               high: 1 << (0x5C - 64) | 1 << (0x5E - 64) | 1 << (0x60 - 64) | 1 << (0x7B - 64) | 1 << (0x7C - 64) | 1 << (0x7D - 64))

    /// JSON bodies follow the policy's key order: sorted for ascending and bytes orders.
    func ordered(_ value: PekitValue) -> PekitValue {
        switch value {
        case .map(let map):
            var entries = map.entries.map { PekitMap.Entry(key: $0.key, value: ordered($0.value)) }
            switch policy.order {
            case .ascending, .bytes, .pairs: entries = stableSorted(entries) { $0.key < $1.key }
            default: break
            }
            return .map(PekitMap(ordered: entries))
        case .array(let items): return .array(items.map(ordered))
        case .set(let items): return .array(items.map(ordered))
        default: return value
        }
    }
}
