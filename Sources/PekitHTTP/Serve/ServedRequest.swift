import PekitCore

/// One request as `pekit serve` received it: its bytes exactly as they came (head and body,
/// a chunked body's framing included) and its parts as an HTTP/1.1 server reads them.
package struct ServedRequest: Sendable {
    /// Its number in the order received, from 1.
    package var number = 0
    /// When it was received (seconds since 1970).
    package var receivedAt = 0.0
    /// The peer's address and port, as `accept` gave them.
    package var peer = ""
    /// `https` where it came over TLS (`--tls`), else `http`.
    package var scheme = "http"
    package let method: String
    /// The request target as written on the request line (`/path?query`, or an absolute URL).
    package let target: [UInt8]
    /// `HTTP/1.1`, `HTTP/1.0`.
    package let version: String
    /// The header fields in order, names as written, values without surrounding spaces.
    package let headers: [(name: String, value: [UInt8])]
    /// The body: a chunked one decoded (its framing stays in `raw`).
    package let body: [UInt8]
    /// Every byte of the request as received.
    package let raw: [UInt8]

    /// The header fields as sent: each value without the spaces and tabs after its colon, but
    /// with those at its end (which PHP keeps), read again from `raw`.
    package var fieldsAsSent: [(name: [UInt8], value: [UInt8])] {
        guard let headEnd = RequestFraming.headEnd(raw) else { return [] }
        var lines = raw[0..<headEnd].split(separator: 0x0A, omittingEmptySubsequences: false).map { $0.last == 0x0D ? $0.dropLast() : $0 }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        return lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: 0x3A) else { return nil }
            return (Array(line[..<colon]), Array(line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }))
        }
    }

    /// The first value of the field `name` (any case), as text.
    package func header(_ name: String) -> String? {
        headers.first { PekitHeaders.sameName($0.name, name) }.map { String(decoding: $0.value, as: UTF8.self) }
    }

    /// Whether its body is a form (`application/x-www-form-urlencoded`), which servers read
    /// as parameters.
    package var isForm: Bool { header("Content-Type").map(Self.isFormType) ?? false }

    /// Whether its body is `multipart/form-data` (parameters aside, any case), which each server
    /// reads with its own multipart parser.
    package var isMultipart: Bool {
        (header("Content-Type").flatMap { $0.split(separator: ";").first.map(String.init) } ?? "").filter { $0 != " " && $0 != "\t" }.lowercased() == "multipart/form-data"
    }

    /// Whether the media type `type` (parameters aside, any case) is `application/x-www-form-urlencoded`.
    package static func isFormType(_ type: String) -> Bool {
        (type.split(separator: ";").first.map(String.init) ?? "").filter { $0 != " " && $0 != "\t" }.lowercased() == "application/x-www-form-urlencoded"
    }

    /// The query: what follows the first `?` of the target, up to a `#`.
    package var query: [UInt8]? {
        guard let mark = target.firstIndex(of: 0x3F) else { return nil }
        let rest = target[(mark + 1)...]
        return Array(rest.prefix { $0 != 0x23 })
    }

    /// A shell command that sends this request again with curl (`PekitRequest.curl`): the
    /// same method, target, header fields in order and body, to the Host it named (or
    /// `authority` when it named none). nil for a target that is not `/…` or `http://…`, or
    /// fields curl cannot write.
    package func curl(authority: String) -> String? { try? pekitRequest(authority: authority)?.curl() }

    /// This request as pekit would send it (`curl`, HAR): its method, URL (the Host it named,
    /// or `authority`, before an origin-form target), fields in order and body (a chunked one
    /// as decoded, its Transfer-Encoding left out). nil for a target that is not `/…` or
    /// `http(s)://…`, or a field pekit would not send.
    package func pekitRequest(authority: String) -> PekitRequest? {
        let target = String(decoding: self.target, as: UTF8.self)
        let url: String
        if target.hasPrefix("/") { url = scheme + "://" + (header("Host") ?? authority) + target }
        else if target.hasPrefix("http://") || target.hasPrefix("https://") { url = target }
        else { return nil }
        var fields = PekitHeaders()
        let chunked = headers.contains { PekitHeaders.sameName($0.name, "Transfer-Encoding") }
        for (name, value) in headers where !(chunked && PekitHeaders.sameName(name, "Transfer-Encoding")) {
            do { try fields.add(name, bytes: value) } catch { return nil }
        }
        return PekitRequest(method: .init(method), url: url, headers: fields, body: body.isEmpty ? .empty : .bytes(body))
    }

    /// This request as a HAR entry (what `pekit export` writes as a `.http` or Hurl file): the
    /// fields and body `pekitRequest` sends. nil where that is nil, or a field is not text.
    package func harEntry(authority: String) -> HAR.Entry? {
        guard let request = pekitRequest(authority: authority) else { return nil }
        var fields: [(name: String, value: String)] = []
        for field in request.headers.fields {
            guard field.rawValue == nil else { return nil }
            fields.append((field.name, field.value))
        }
        return HAR.Entry(method: method, url: request.url, headers: fields, body: body.isEmpty ? nil : body, mimeType: header("Content-Type"))
    }

    /// The path: the target up to its `?`.
    package var path: [UInt8] { Array(target.prefix { $0 != 0x3F && $0 != 0x23 }) }
}

/// Reading requests out of the bytes a connection has received, as an HTTP/1.1 server frames
/// them (RFC 9112): a head to its empty line, then a body of `Content-Length` bytes or in
/// chunks. Bounded: a head over `maxHead` bytes or a body over `maxBody` is refused.
package struct RequestFraming {
    package var maxHead = 65_536
    package var maxBody = 10 << 20

    package init(maxHead: Int = 65_536, maxBody: Int = 10 << 20) { self.maxHead = maxHead; self.maxBody = maxBody }

    /// What the bytes so far hold.
    package enum Frame {
        /// More bytes are needed; `expectsContinue`: the head asked for `100 Continue` and its
        /// body has not begun.
        case incomplete(expectsContinue: Bool)
        /// A whole request, and how many bytes of the buffer it took.
        case request(ServedRequest, consumed: Int)
        /// Bytes no server would read as a request: the status to answer and why.
        case refused(status: Int, reason: String)
    }

    /// The first request in `buffer`.
    package func frame(_ buffer: [UInt8]) -> Frame {
        guard let headEnd = Self.headEnd(buffer) else {
            return buffer.count > maxHead ? .refused(status: 431, reason: "the head is over \(maxHead) bytes") : .incomplete(expectsContinue: false)
        }
        guard headEnd <= maxHead else { return .refused(status: 431, reason: "the head is over \(maxHead) bytes") }
        // Lines end in CRLF or a bare LF (RFC 9112 §2.2 lets a server take LF).
        var lines = buffer[0..<headEnd].split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? Array(line.dropLast()) : Array(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        // Empty lines before the request line are skipped (RFC 9112 §2.2).
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard let requestLine = lines.first else { return .refused(status: 400, reason: "no request line") }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].allSatisfy(PekitHeaders.isTokenByte) else {
            return .refused(status: 400, reason: "the request line is not METHOD TARGET VERSION")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return .refused(status: 505, reason: "version \(version) is not HTTP/1.0 or HTTP/1.1") }
        var headers: [(name: String, value: [UInt8])] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 0x3A), colon > 0, line[..<colon].allSatisfy(PekitHeaders.isTokenByte) else {
                return .refused(status: 400, reason: "a header line is not NAME: VALUE")
            }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            headers.append((String(decoding: line[..<colon], as: UTF8.self), Array(value)))
        }
        func field(_ name: String) -> [[UInt8]] { headers.filter { PekitHeaders.sameName($0.name, name) }.map(\.value) }
        let bodyStart = headEnd
        let expects = field("Expect").contains { String(decoding: $0, as: UTF8.self).lowercased() == "100-continue" }
        var body: [UInt8] = [], end = bodyStart
        let encodings = field("Transfer-Encoding")
        if !encodings.isEmpty {
            // Chunked last, as RFC 9112 §6.3 requires; another coding is not decoded here.
            let last = encodings.last.flatMap { Self.items($0).last } ?? ""
            guard last.lowercased() == "chunked" else { return .refused(status: 501, reason: "a transfer coding other than chunked last") }
            switch Self.chunks(buffer, from: bodyStart, limit: maxBody) {
            case .incomplete: return .incomplete(expectsContinue: expects && buffer.count == bodyStart)
            case .tooLarge: return .refused(status: 413, reason: "the body is over \(maxBody) bytes")
            case .bad(let why): return .refused(status: 400, reason: why)
            case .done(let decoded, let after): body = decoded; end = after
            }
        } else if case let lengths = field("Content-Length"), !lengths.isEmpty {
            // Several equal values (`5, 5`) are one length, as RFC 9110 §8.6 allows a server to read them.
            let texts = Set(lengths.flatMap(Self.items))
            guard texts.count == 1, let text = texts.first, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), text.count <= 18,
                  let length = Int(text) else {
                return .refused(status: 400, reason: "Content-Length is not one decimal number")
            }
            guard length <= maxBody else { return .refused(status: 413, reason: "the body is over \(maxBody) bytes") }
            guard buffer.count >= bodyStart + length else { return .incomplete(expectsContinue: expects && buffer.count == bodyStart) }
            body = Array(buffer[bodyStart..<(bodyStart + length)])
            end = bodyStart + length
        }
        let request = ServedRequest(method: String(decoding: parts[0], as: UTF8.self), target: Array(parts[1]), version: version,
                                    headers: headers, body: body, raw: Array(buffer[0..<end]))
        return .request(request, consumed: end)
    }

    /// A field value's comma-separated items, each without its surrounding spaces and tabs.
    static func items(_ value: [UInt8]) -> [String] {
        value.split(separator: 0x2C, omittingEmptySubsequences: false).map { item in
            var part = item[...]
            while let first = part.first, first == 0x20 || first == 0x09 { part = part.dropFirst() }
            while let last = part.last, last == 0x20 || last == 0x09 { part = part.dropLast() }
            return String(decoding: part, as: UTF8.self)
        }
    }

    /// Where the head's empty line ends (the index after it), or nil.
    static func headEnd(_ buffer: [UInt8]) -> Int? {
        var i = 0
        // Leading empty lines are not the end of a head.
        while i < buffer.count, buffer[i] == 0x0D || buffer[i] == 0x0A { i += 1 }
        while i < buffer.count {
            guard buffer[i] == 0x0A else { i += 1; continue }
            if i + 1 < buffer.count, buffer[i + 1] == 0x0A { return i + 2 }
            if i + 2 < buffer.count, buffer[i + 1] == 0x0D, buffer[i + 2] == 0x0A { return i + 3 }
            i += 1
        }
        return nil
    }

    private enum Chunks { case incomplete, tooLarge, bad(String), done([UInt8], after: Int) }

    /// A chunked body from `start`: each size line (hex, extensions ignored), its data and CRLF,
    /// the last chunk, then trailer lines to an empty one.
    private static func chunks(_ buffer: [UInt8], from start: Int, limit: Int) -> Chunks {
        var i = start, body: [UInt8] = []
        func line() -> ArraySlice<UInt8>? {
            guard let lf = buffer[i...].firstIndex(of: 0x0A) else { return nil }
            let text = buffer[i..<lf]
            i = lf + 1
            return text.last == 0x0D ? text.dropLast() : text
        }
        while true {
            guard let sizeLine = line() else { return .incomplete }
            let digits = sizeLine.prefix { $0 != 0x3B && $0 != 0x20 && $0 != 0x09 }
            guard !digits.isEmpty, digits.count <= 16, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16), size >= 0 else {
                return .bad("a chunk size is not hexadecimal")
            }
            if size == 0 {
                while true {
                    guard let trailer = line() else { return .incomplete }
                    if trailer.isEmpty { return .done(body, after: i) }
                }
            }
            guard body.count + size <= limit else { return .tooLarge }
            guard buffer.count >= i + size + 1 else { return .incomplete }
            body += buffer[i..<(i + size)]
            i += size
            guard let after = line() else { return .incomplete }
            guard after.isEmpty else { return .bad("a chunk's data does not end where its size says") }
        }
    }
}
