import PekitCore

/// Exchanges written as an HTTP Archive (HAR 1.2), as Chrome's and Firefox's developer tools
/// open it: every request of a redirect chain an entry, with headers, query, cookies, bodies
/// (text as is, other bytes in base64) and timings.
///
/// Sanitized by default, as Chrome (since 130) exports HAR: the values of `Authorization`,
/// `Proxy-Authorization`, `Cookie` and `Set-Cookie` fields are left out (the field names stay,
/// with an empty value), and the `cookies` lists are empty, so a HAR can be shared without the
/// credentials and sessions it was recorded with. `secrets: true` keeps them.
public final class HARLog {
    /// Each exchange with the time it started: added as they finish, written as they started.
    private var entries: [(started: Double, entry: PekitValue)] = []
    /// Whether credentials and cookies are written (`--har-with-secrets`).
    public let keepsSecrets: Bool

    /// Fields whose values a sanitized HAR leaves out.
    public static let secretFields: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    public init(secrets: Bool = false) { keepsSecrets = secrets }

    private func shown(_ name: String, _ value: String) -> String {
        keepsSecrets || !Self.secretFields.contains(name.lowercased()) ? value : ""
    }

    public var count: Int { entries.count }

    /// Adds one exchange (what `SendOptions.record` reports).
    public func add(_ request: HTTPRequest, _ response: HTTPResponse, started: Double) {
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
            ("method", .text(request.method)), ("url", .text(request.url)), ("httpVersion", .text("HTTP/1.1")),
            ("cookies", .array(request.headers.fields.filter { keepsSecrets && $0.name.lowercased() == "cookie" }.flatMap { cookie in
                cookie.value.split(separator: ";").compactMap { pair -> PekitValue? in
                    let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: [" "]) }
                    return parts.count == 2 ? field(parts[0], parts[1]) : nil
                }
            })),
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
            ("cookies", .array((keepsSecrets ? response.headers(named: "Set-Cookie") : []).compactMap { value -> PekitValue? in
                guard let cookie = SetCookie(value.description) else { return nil }
                return field(cookie.name, cookie.value)
            })),
            ("headers", .array(response.headers.map { field($0.name, shown($0.name, $0.value.description)) })),
            ("content", map([("size", .integer(Int64(response.body.count))), ("mimeType", .text(mimeType))] + content(response.body, mimeType: mimeType))),
            ("redirectURL", .text(response.header("Location")?.description ?? "")), ("headersSize", .integer(-1)),
            ("bodySize", .integer(Int64(response.bodyLength))),
        ]
        if let notes = response.cookieNotes, !notes.received.isEmpty { responseFields.append(("comment", .text(notes.received.joined(separator: "\n")))) }
        let t = response.timing
        func ms(_ seconds: Double) -> PekitValue { .number((seconds * 1000 * 1000).rounded() / 1000) }
        let wait = max(0, t.firstByte - t.connect - t.tls), receive = max(0, t.total - t.firstByte)
        entries.append((started, map([
            ("startedDateTime", .text(Timestamp.format(started, .iso8601) ?? "1970-01-01T00:00:00Z")),
            ("time", ms(t.total)),
            ("request", map(requestFields)), ("response", map(responseFields)), ("cache", map([])),
            ("timings", map([("blocked", .integer(-1)), ("dns", ms(t.dns)), ("connect", ms(max(0, t.connect - t.dns))),
                             ("ssl", t.tls > 0 ? ms(max(0, t.tls - t.connect)) : .integer(-1)), ("send", .integer(0)),
                             ("wait", ms(wait)), ("receive", ms(receive))])),
            ("serverIPAddress", .text(response.remoteAddress)),
        ])))
    }

    /// The HAR document.
    public func json() -> [UInt8] {
        let log = PekitValue.map(PekitMap(ordered: [
            .init(key: "version", value: .text("1.2")),
            .init(key: "creator", value: .map(PekitMap(ordered: [.init(key: "name", value: .text("pekit")), .init(key: "version", value: .text(Pekit.version))]))),
            .init(key: "pages", value: .array([])),
            // In the order the requests started (as browsers write them), not the order they ended.
            .init(key: "entries", value: .array(entries.enumerated().sorted { ($0.element.started, $0.offset) < ($1.element.started, $1.offset) }.map(\.element.entry))),
        ]))
        return (try? JSON.encodePretty(.map(PekitMap(ordered: [.init(key: "log", value: log)])))) ?? JSON.write(log)
    }
}
