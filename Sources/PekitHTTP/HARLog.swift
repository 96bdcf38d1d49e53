import PekitCore

/// Exchanges written as an HTTP Archive (HAR 1.2), as Chrome's and Firefox's developer tools
/// open it: every request of a redirect chain an entry, with headers, query, cookies, bodies
/// (text as is, other bytes in base64) and timings.
///
/// Sanitized by default, as Chrome (since 130) exports HAR: the values of `Authorization`,
/// `Proxy-Authorization`, `Cookie` and `Set-Cookie` fields are left out (the field names stay,
/// with an empty value), and the `cookies` lists are empty, so a HAR can be shared without the
/// credentials and sessions it was recorded with. `secrets: true` keeps them.
public final class HARLog: @unchecked Sendable {
    /// Each exchange with the time it started: added as they finish, written as they started.
    /// Under `lock`: `pekit test --jobs` adds from several threads.
    private var entries: [(started: Double, entry: PekitValue)] = []
    private let lock = RecursiveLock()
    /// Whether credentials and cookies are written (`--har-with-secrets`).
    public let keepsSecrets: Bool

    /// Fields whose values a sanitized HAR leaves out.
    public static let secretFields: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// A log; with `secrets` false, credentials (Authorization, cookies, tokens) are written redacted.
    public init(secrets: Bool = false) { keepsSecrets = secrets }

    private func shown(_ name: String, _ value: String) -> String {
        keepsSecrets || !Self.secretFields.contains(name.lowercased()) ? value : ""
    }

    /// The entries recorded so far.
    public var count: Int { lock.lock(); defer { lock.unlock() }; return entries.count }

    /// Adds one exchange (what `SendOptions.record` reports).
    /// - Parameter request: the request as sent.
    /// - Parameter response: the response as received.
    /// - Parameter started: when the exchange started, in seconds since the epoch.
    /// - Parameter comment: the entry's own comment (`pekit test`: the file and test it came from).
    public func add(_ request: PekitRequest, _ response: PekitResponse, started: Double, comment: String? = nil) {
        func field(_ name: String, _ value: String) -> PekitValue {
            .map(PekitMap(ordered: [.init(key: "name", value: .text(name)), .init(key: "value", value: .text(value))]))
        }
        func map(_ entries: [(String, PekitValue)]) -> PekitValue { .map(PekitMap(ordered: entries.map { .init(key: ByteString($0.0), value: $0.1) })) }
        func content(_ bytes: [UInt8], mimeType: String) -> [(String, PekitValue)] {
            if UTF8Validation.isValid(bytes) { return [("text", .string(ByteString(bytes)))] }
            return [("text", .text(String(decoding: Base64.encode(bytes, alphabet: .standard), as: UTF8.self))), ("encoding", .text("base64"))]
        }
        let url = (try? request.requestURL())
        let query: [PekitValue] = url?.query.map { q in
            WHATWGFormParser().pairs(ByteString(Array(q.utf8))).map { field(String(decoding: $0.name.bytes, as: UTF8.self), String(decoding: $0.value.bytes, as: UTF8.self)) }
        } ?? []
        let body = (try? request.bodyBytes()) ?? []
        var requestFields: [(String, PekitValue)] = [
            ("method", .text(request.method.rawValue)), ("url", .text(request.url)), ("httpVersion", .text("HTTP/1.1")),
            ("cookies", .array(keepsSecrets ? Self.requestCookies(request, sent: response.cookieNotes?.sentCookies ?? []) : [])),
            ("headers", .array(request.headers.fields.map { field($0.name, shown($0.name, $0.value)) })),
            ("queryString", .array(query)), ("headersSize", .integer(-1)), ("bodySize", .integer(Int64(body.count))),
        ]
        // What the jar sent and held back, and what became of each Set-Cookie, as the comments
        // browsers' tools show (cookies named, never their values).
        if let notes = response.cookieNotes, !notes.sent.isEmpty { requestFields.append(("comment", .text(notes.sent.joined(separator: "\n")))) }
        if !body.isEmpty {
            requestFields.append(("postData", map([("mimeType", .text(request.headers["Content-Type"] ?? "application/octet-stream")), ("params", .array([]))]
                                               + content(body, mimeType: ""))))
        }
        let mimeType = response.header("Content-Type")?.description ?? ""
        var responseFields: [(String, PekitValue)] = [
            ("status", .integer(Int64(response.status))), ("statusText", .text(response.reason)),
            ("httpVersion", .text("HTTP/" + response.httpVersion)),
            ("cookies", .array(keepsSecrets ? Self.responseCookies(response) : [])),
            ("headers", .array(response.headers.map { field($0.name, shown($0.name, $0.value.description)) })),
            ("content", map([("size", .integer(Int64(response.body.count))), ("mimeType", .text(mimeType))] + content(response.body, mimeType: mimeType))),
            ("redirectURL", .text(response.header("Location")?.description ?? "")), ("headersSize", .integer(-1)),
            ("bodySize", .integer(Int64(response.bodyLength))),
        ]
        if let notes = response.cookieNotes, !notes.received.isEmpty { responseFields.append(("comment", .text(notes.received.joined(separator: "\n")))) }
        let t = response.timing
        func ms(_ seconds: Double) -> PekitValue { .number((seconds * 1000 * 1000).rounded() / 1000) }
        let wait = max(0, t.firstByte - t.connect - t.tls), receive = max(0, t.total - t.firstByte)
        var entry: [(String, PekitValue)] = [
            ("startedDateTime", .text(UnixTime.format(started, .iso8601) ?? "1970-01-01T00:00:00Z")),
            ("time", ms(t.total)),
            ("request", map(requestFields)), ("response", map(responseFields)), ("cache", map([])),
            ("timings", map([("blocked", .integer(-1)), ("dns", ms(t.dns)), ("connect", ms(max(0, t.connect - t.dns))),
                             ("ssl", t.tls > 0 ? ms(max(0, t.tls - t.connect)) : .integer(-1)), ("send", .integer(0)),
                             ("wait", ms(wait)), ("receive", ms(receive))])),
            ("serverIPAddress", .text(response.remoteAddress)),
        ]
        if let comment { entry.append(("comment", .text(comment))) }
        let value = map(entry)
        lock.lock()
        entries.append((started, value))
        lock.unlock()
    }

    /// A HAR cookie object (HAR 1.2 §cookies, with Chrome's `sameSite`), and `_partitionKey`
    /// (a custom field, as HAR names them) for a CHIPS cookie's top-level site.
    static func cookieObject(name: String, value: String, path: String?, domain: String?, expires: Double?, httpOnly: Bool, secure: Bool,
                             sameSite: Cookie.SameSite?, partitionKey: String?) -> PekitValue {
        var entries: [PekitMap.Entry] = [.init(key: "name", value: .text(name)), .init(key: "value", value: .text(value))]
        if let path { entries.append(.init(key: "path", value: .text(path))) }
        if let domain { entries.append(.init(key: "domain", value: .text(domain))) }
        if let expires, let text = UnixTime.format(expires, .iso8601) { entries.append(.init(key: "expires", value: .text(text))) }
        entries.append(.init(key: "httpOnly", value: .boolean(httpOnly)))
        entries.append(.init(key: "secure", value: .boolean(secure)))
        if let sameSite { entries.append(.init(key: "sameSite", value: .text(sameSite.rawValue))) }
        if let partitionKey { entries.append(.init(key: "_partitionKey", value: .text(partitionKey))) }
        return .map(PekitMap(ordered: entries))
    }

    static func cookieObject(_ c: Cookie) -> PekitValue {
        cookieObject(name: c.name, value: c.value, path: c.path, domain: c.domain, expires: c.expires, httpOnly: c.httpOnly, secure: c.secure,
                     sameSite: c.sameSite, partitionKey: c.partitionKey)
    }

    /// The pairs of the request's Cookie fields; each the jar sent (`sent`, in the field's
    /// order) carries what the jar knows of it, a pair written by hand only its name and value.
    static func requestCookies(_ request: PekitRequest, sent: [Cookie]) -> [PekitValue] {
        var unclaimed = sent[...]
        return request.headers.fields.filter { PekitHeaders.sameName($0.name, "Cookie") }.flatMap { field in
            field.value.split(separator: ";").map { pair -> PekitValue in
                let trimmed = String(pair.trimmingOWS)
                let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                // A nameless cookie is sent as its value alone (RFC 6265bis §5.8.3).
                let (name, value) = parts.count == 2 ? (parts[0], parts[1]) : ("", trimmed)
                if let i = unclaimed.firstIndex(where: { $0.name == name && $0.value == value }) {
                    let cookie = unclaimed.remove(at: i)
                    return cookieObject(cookie)
                }
                return .map(PekitMap(ordered: [.init(key: "name", value: .text(name)), .init(key: "value", value: .text(value))]))
            }
        }
    }

    /// Each Set-Cookie field as a cookie: as the jar stored it when it did (its domain, path,
    /// expiry and partition), else as the field's attributes give it.
    static func responseCookies(_ response: PekitResponse) -> [PekitValue] {
        var stored = (response.cookieNotes?.storedCookies ?? [])[...]
        return response.headers(named: "Set-Cookie").compactMap { field -> PekitValue? in
            guard let parsed = SetCookie(field.description) else { return nil }
            if let i = stored.firstIndex(where: { $0.name == parsed.name && $0.value == parsed.value }) { return cookieObject(stored.remove(at: i)) }
            return cookieObject(name: parsed.name, value: parsed.value, path: parsed.path, domain: parsed.domain, expires: parsed.expires.map(Double.init),
                                httpOnly: parsed.httpOnly, secure: parsed.secure, sameSite: parsed.sameSite, partitionKey: nil)
        }
    }

    /// The HAR document.
    public func json() -> [UInt8] { json(redactedBy: nil) }

    /// The HAR document with every secret `redactor` knows replaced, inside its base64 bodies
    /// too: a body given as base64 is decoded, redacted and encoded again, so it stays base64
    /// (a placeholder put in place of the token would not decode).
    public func json(redactedBy redactor: Redactor?) -> [UInt8] {
        lock.lock()
        var entries = self.entries
        lock.unlock()
        if let redactor, !redactor.isEmpty {
            entries = entries.map { ($0.started, Self.redacted($0.entry, redactor)) }
        }
        let log = PekitValue.map(PekitMap(ordered: [
            .init(key: "version", value: .text("1.2")),
            .init(key: "creator", value: .map(PekitMap(ordered: [.init(key: "name", value: .text("pekit")), .init(key: "version", value: .text(Pekit.version))]))),
            .init(key: "pages", value: .array([])),
            // In the order the requests started (as browsers write them), not the order they ended.
            .init(key: "entries", value: .array(entries.enumerated().sorted { ($0.element.started, $0.offset) < ($1.element.started, $1.offset) }.map(\.element.entry))),
        ]))
        return (try? JSONText.encodePretty(.map(PekitMap(ordered: [.init(key: "log", value: log)])))) ?? JSONText.write(log)
    }

    /// `value` with every string redacted, and a `{"text": …, "encoding": "base64"}` content's
    /// bytes redacted under their encoding.
    static func redacted(_ value: PekitValue, _ redactor: Redactor) -> PekitValue {
        switch value {
        case .string(let s): return .string(ByteString(redactor.redact(s.bytes)))
        case .array(let items): return .array(items.map { redacted($0, redactor) })
        case .map(let map):
            if map["encoding"] == .text("base64"), case .string(let text)? = map["text"],
               let decoded = try? Base64.decode(text.bytes, alphabet: .standard) {
                let encoded = Base64.encode(redactor.redact(decoded), alphabet: .standard)
                return .map(PekitMap(ordered: map.entries.map {
                    $0.key == "text" ? .init(key: $0.key, value: .string(ByteString(encoded))) : .init(key: $0.key, value: redacted($0.value, redactor))
                }))
            }
            return .map(PekitMap(ordered: map.entries.map { .init(key: $0.key, value: redacted($0.value, redactor)) }))
        default: return value
        }
    }
}
