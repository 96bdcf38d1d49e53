import PekitCore

/// What `pekit serve` keeps of the requests it received, and how each server model reads each
/// one: the newest `limit` requests, at most `byteLimit` bytes of them (older ones go first),
/// numbered from 1 in the order they came. Used from the listener's one thread.
package final class ServeRecorder {
    /// The models asked, by the names `--servers` takes.
    package let servers: [(name: String, model: QueryServer)]
    package let limit: Int, byteLimit: Int
    /// The server's own `host:port`, for a request that named no Host.
    package var authority = "127.0.0.1"
    private var kept: [ServedRequest] = []
    private var keptBytes = 0
    /// Every request received, those let go included.
    package private(set) var total = 0

    package init(servers: [(name: String, model: QueryServer)], limit: Int = 1000, byteLimit: Int = 64 << 20) {
        self.servers = servers; self.limit = limit; self.byteLimit = byteLimit
    }

    /// Numbers the request and keeps it.
    package func record(_ request: inout ServedRequest) {
        total += 1
        request.number = total
        kept.append(request)
        keptBytes += request.raw.count + request.body.count
        while kept.count > limit || (keptBytes > byteLimit && kept.count > 1) {
            keptBytes -= kept[0].raw.count + kept[0].body.count
            kept.removeFirst()
        }
    }

    /// The request numbered `number`, while it is kept.
    package func request(number: Int) -> ServedRequest? { kept.first { $0.number == number } }

    /// `{"total": N, "kept": K, "requests": [{number, method, target, received_at, body_bytes}…]}`.
    package func list() -> PekitValue {
        .map(PekitMap(ordered: [
            .init(key: "total", value: .integer(Int64(total))),
            .init(key: "kept", value: .integer(Int64(kept.count))),
            .init(key: "requests", value: .array(kept.map(summary))),
        ]))
    }

    /// `{number, method, target, received_at, body_bytes}`: a request in the list, and the data
    /// of its event on `/_pekit/events`.
    package func summary(of request: ServedRequest) -> PekitValue {
        .map(PekitMap(ordered: [
            .init(key: "number", value: .integer(Int64(request.number))),
            .init(key: "method", value: .string(ByteString(request.method))),
            .init(key: "target", value: .string(ByteString(request.target))),
            .init(key: "received_at", value: .number(request.receivedAt)),
            .init(key: "body_bytes", value: .integer(Int64(request.body.count))),
        ]))
    }

    /// One request whole: its parts, its exact bytes (as text when they are UTF-8, else in
    /// base64 under `raw_base64`), a curl command sending it again (`curl`), and under
    /// `servers` what each model reads from it.
    package func detail(_ request: ServedRequest) -> PekitValue {
        var entries: [PekitMap.Entry] = [
            .init(key: "number", value: .integer(Int64(request.number))),
            .init(key: "received_at", value: .number(request.receivedAt)),
            .init(key: "peer", value: .string(ByteString(request.peer))),
            .init(key: "method", value: .string(ByteString(request.method))),
            .init(key: "target", value: .string(ByteString(request.target))),
            .init(key: "version", value: .string(ByteString(request.version))),
            .init(key: "headers", value: .array(request.headers.map { .array([.string(ByteString($0.name)), .string(ByteString($0.value))]) })),
            .init(key: "body_bytes", value: .integer(Int64(request.body.count))),
        ]
        if UTF8Validation.isValid(request.raw) {
            entries.append(.init(key: "raw", value: .string(ByteString(request.raw))))
        } else {
            entries.append(.init(key: "raw_base64", value: .string(ByteString(Base64.encode(request.raw)))))
        }
        if let curl = request.curl(authority: authority) { entries.append(.init(key: "curl", value: .string(ByteString(curl)))) }
        entries.append(.init(key: "servers", value: readings(of: request, headers: true)))
        return .map(PekitMap(ordered: entries))
    }

    /// The requests kept as a HAR 1.2 log, each with the answer `answer` gives it (what
    /// pekit serve sent back). Authorization and Cookie values are redacted, as in every HAR
    /// pekit writes, unless `secrets`; the exact bytes are in `detail`.
    package func har(secrets: Bool = false, answer: (ServedRequest) -> ServeListener.Answer) -> [UInt8] {
        let log = HARLog(secrets: secrets)
        for request in kept {
            guard let sent = request.pekitRequest(authority: authority) else { continue }
            let given = answer(request)
            var response = PekitResponse()
            response.status = given.status
            response.reason = ServeListener.reason(given.status)
            response.httpVersion = "1.1"
            response.headers = (given.headers + [("Content-Length", String(given.body.count))]).map { .init(name: $0.0, value: ByteString($0.1)) }
            response.body = given.body
            response.bodyLength = given.body.count
            response.url = sent.url
            log.add(sent, response, started: request.receivedAt, comment: "pekit serve request #\(request.number)")
        }
        return log.json()
    }

    /// Under each model's name, what that server reads from the query, from the body (an
    /// `application/x-www-form-urlencoded` one as a query; a `multipart/form-data` one with its
    /// own multipart parser, `MultipartServer`), from the Cookie header (its framework's
    /// cookie parser, `CookieServer`) and what it gives the program of the header fields
    /// (`HeaderServer`; with `headers` only: the request's page and its detail in the API show
    /// them, the short answer and the terminal do not): its value, `null` when there is none
    /// (or the model has no such parser), or `{"error": why}` where the server refuses it.
    package func readings(of request: ServedRequest, headers: Bool = false) -> PekitValue {
        let form = request.isForm
        let multipart = request.isMultipart
        let contentType = request.headers.first { PekitHeaders.sameName($0.name, "Content-Type") }?.value ?? []
        let fields = headers ? request.fieldsAsSent : []
        let cookieFields = request.headers.filter { PekitHeaders.sameName($0.name, "Cookie") }.map(\.value)
        return .map(PekitMap(ordered: servers.map { server in
            func read(_ bytes: [UInt8]?) -> PekitValue {
                guard let bytes else { return .null }
                do { return try server.model.read(ByteString(bytes)) } catch { return Self.failure(error) }
            }
            var body = read(form ? request.body : nil)
            if multipart {
                body = .null
                if let reader = MultipartServer.reading(for: server.model.name) {
                    do { body = try reader.read(contentType: contentType, body: request.body) } catch { body = Self.failure(error) }
                }
            }
            var entries: [PekitMap.Entry] = [
                .init(key: "query", value: read(request.query)),
                .init(key: "body", value: body),
                .init(key: "cookies", value: Self.cookies(cookieFields, by: server.model.model.cookieServer)),
            ]
            if headers {
                entries.append(.init(key: "headers", value: HeaderServer.reading(for: server.model.name).map { reader in
                    do { return try reader.read(fields) } catch { return Self.failure(error) }
                } ?? .null))
            }
            return .init(key: ByteString(server.name), value: .map(PekitMap(ordered: entries)))
        }))
    }

    /// What `reader` reads from a request's Cookie fields: Go reads each field on its own (its
    /// cookies one list); the others get the fields joined by "; ", as a server given one
    /// field would read them. `null` without a field or a reader.
    static func cookies(_ fields: [[UInt8]], by reader: CookieServer?) -> PekitValue {
        guard let reader, !fields.isEmpty else { return .null }
        do {
            if reader == .go {
                return .array(try fields.flatMap { field -> [PekitValue] in
                    guard case .array(let pairs) = try reader.read(field) else { return [] }
                    return pairs
                })
            }
            return try reader.read(Array(fields.joined(separator: Array("; ".utf8))))
        } catch {
            return failure(error)
        }
    }

    static func failure(_ error: Error) -> PekitValue {
        .map(PekitMap(ordered: [.init(key: "error", value: .string(ByteString("\(error)")))]))
    }
}
