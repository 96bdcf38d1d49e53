#if canImport(Glibc)
import Glibc
#endif
import PekitCore

/// Reads an HTTP/1.x response as its bytes arrive, the way libcurl 7.88 reads one: the status line
/// and header lines go to the exchange's header callback (each with its line ending, as libcurl
/// hands them over), interim 1xx responses before the final one, the body, unframed from its
/// Content-Length or its chunks, to the body callback, and trailers to the header callback after
/// it. Where libcurl is lenient (a status line it reads as `HTTP/1.0 200`, a Content-Length with
/// text after the number) this reader is lenient in the same way, and where it fails this one
/// fails with its code and words: the two readers are held to each other by a differential test
/// and a fuzz target (`PlainReaderHostileTests`, `scripts/fuzz http`).
///
/// The framing is RFC 9112 §6.3's, as libcurl applies it: no body for HEAD, 1xx, 204 and 304;
/// chunked when Transfer-Encoding says so (Content-Length is then ignored); else Content-Length
/// (the last one given); else everything up to the close. Transfer codings other than chunked
/// are libcurl 7.88's decoding stages: `identity` (and `none`) pass the body on, a name libcurl
/// does not know fails the transfer at the first body byte (61), as libcurl's error stage does;
/// one it decodes (gzip, deflate, br, zstd) is decoded here (`BodyDecoders`) from the first body
/// byte, so a response is read once, by the transfer that sent its request.
struct ResponseReader {
    /// A response that cannot be read: libcurl's error code and message for the same bytes.
    struct Failure: Error, Equatable {
        let code: Int
        let reason: String
    }

    private enum Chunk { case hex, lf, data, postLF, trailer, trailerCR, trailerPostCR, stop }
    private enum State: Equatable { case statusLine, headers, body, chunk(Chunk), untilClose, done }

    /// libcurl's limit on one header line (CURL_MAX_HTTP_HEADER; its buffer keeps a byte for a NUL).
    static let maxLine = 100 * 1024
    /// libcurl's limit on a response's header blocks together, interim ones and every line's
    /// ending included (MAX_HTTP_RESP_HEADER_SIZE); trailers are not counted.
    static let maxHeaderBytes = 300 * 1024
    /// libcurl's limit on one trailer (DYN_TRAILERS).
    static let maxTrailer = 64 * 1024

    private let isHead: Bool
    private var state = State.statusLine
    private var line: [UInt8] = []
    private var remaining = 0
    /// The status code as libcurl reads it (what framing depends on; the exchange reads its own
    /// from the line, as it does for libcurl's) and its version (10, 11 or 20).
    private(set) var status = 0
    private(set) var version = 11
    /// No body and no Content-Length for this response (1xx, 204, 304).
    private var bodyless = false
    private var contentLength: Int?
    /// A Transfer-Encoding field came before any chunked: Content-Length is not the framing.
    private var ignoresLength = false
    var chunked = false
    /// Transfer codings other than chunked seen (libcurl's decoding stages; more than 5 it refuses).
    var codings = 0
    /// The stages libcurl decodes (gzip, deflate, br, zstd) among them, in the field's order
    /// (`PEKIT_DECODE_*`), and their decoders once the body starts.
    var stages: [Int32] = []
    var decoders: BodyDecoders?
    /// A name libcurl does not know among them: its error stage fails the first body byte.
    var unknownCoding = false
    private var close = false
    private var keepAlive = false
    /// Lines of the current header block so far (libcurl's `headerline`).
    private var headerLine = 0
    /// Whether any field was kept: a fold line needs one before it (libcurl's headers API).
    private var hasField = false
    /// Bytes of status and header lines so far (libcurl's `allheadercount`).
    private var headerBytes = 0
    private var hexDigits: [UInt8] = []
    private var trailer: [UInt8] = []
    /// Bytes of complete header lines and of body seen: libcurl's test for "Empty reply".
    private(set) var consumed = 0
    /// Whether a whole line came (the first one is always tested as a status line).
    private var sawLine = false

    /// The body's length when the final response gave one and its body is being read.
    var expectedLength: Int? { state == .body ? contentLength : nil }

    /// Whether the response was read to its end.
    var isDone: Bool { state == .done }
    /// Whether the connection can carry another request once this response is done.
    var reusable: Bool { isDone && !close && (version == 11 || (version == 10 && keepAlive)) }
    /// Whether any byte of a response came.
    private(set) var started = false

    init(isHead: Bool) { self.isHead = isHead }

    /// Takes `bytes` (any split); returns false once the exchange asked to stop (its error is
    /// kept there). Bytes after the end of the response are a protocol error on a kept-alive
    /// connection and make it unusable; they are ignored.
    mutating func read<Sink: ResponseSink>(_ bytes: UnsafeRawBufferPointer, into exchange: Sink) throws(Failure) -> Bool {
        if !bytes.isEmpty { started = true }
        var i = 0
        let n = bytes.count
        // For a trace: where the bytes after the head start (body, chunk framing, trailers, as
        // libcurl's trace shows them); the head's lines are traced one by one as they are read.
        var bodyFrom: Int? = readingHead ? nil : 0
        defer {
            if exchange.tracesReads, let from = bodyFrom, from < n, let trace = exchange.trace {
                trace(.dataIn, Array(UnsafeRawBufferPointer(rebasing: bytes[from..<n])))
            }
        }
        while i < n {
            switch state {
            case .done:
                close = true  // more than the response: do not trust this connection again
                // libcurl writes bytes past the body's end in the same read through the decoding
                // stages when there are any (identity adds them to the body; an unknown coding, or
                // a stream the stage cannot read, fails with 61: the http fuzz target's finding,
                // kept in its corpus); without stages they are dropped.
                if codings > 0 { _ = try deliver(UnsafeRawBufferPointer(rebasing: bytes[i..<n]), exchange) }
                return true
            case .body:
                let take = min(remaining, n - i)
                remaining -= take
                consumed += take
                if !(try deliver(UnsafeRawBufferPointer(rebasing: bytes[i..<i + take]), exchange)) { return false }
                i += take
                if remaining == 0 { state = .done }
            case .chunk(.data):
                let take = min(remaining, n - i)
                remaining -= take
                consumed += take
                if !(try deliver(UnsafeRawBufferPointer(rebasing: bytes[i..<i + take]), exchange)) { return false }
                i += take
                if remaining == 0 { state = .chunk(.postLF) }
            case .chunk(let step):
                if try chunkByte(bytes[i], step, exchange) { i += 1 }
            case .untilClose:
                consumed += n - i
                if !(try deliver(UnsafeRawBufferPointer(rebasing: bytes[i..<n]), exchange)) { return false }
                i = n
            case .statusLine, .headers:
                // A line: up to and with its LF (one that starts with NUL, whole or not yet).
                if (line.first ?? bytes[i]) == 0x00 && !(state == .statusLine && !sawLine) {
                    // libcurl 7.88 stops reading headers at a line that starts with NUL, drops
                    // it and the rest of what it read with it, and reads what comes next as
                    // the body, however the block said it is framed.
                    line.removeAll()
                    try bodyWithoutEnd()
                    return true
                }
                guard let lf = ByteSearch.first(0x0A, in: bytes, from: i) else {
                    line.append(contentsOf: bytes[i..<n])
                    if line.count >= Self.maxLine { throw Self.tooLong }
                    // libcurl tells HTTP/0.9 from the first bytes, before the line is whole.
                    if state == .statusLine { try checkPrefix(line) }
                    return true
                }
                if line.isEmpty {
                    let complete = UnsafeRawBufferPointer(rebasing: bytes[i...lf])
                    i = lf + 1
                    if complete.count >= Self.maxLine { throw Self.tooLong }
                    try take(line: complete, exchange)
                    if exchange.stopsAfterHead { return false }
                } else {
                    line.append(contentsOf: bytes[i...lf])
                    i = lf + 1
                    if line.count >= Self.maxLine { throw Self.tooLong }
                    let whole = line
                    line.removeAll(keepingCapacity: true)
                    var failure: Failure?
                    whole.withUnsafeBytes { raw in
                        do throws(Failure) { try take(line: raw, exchange) } catch { failure = error }
                    }
                    if let failure { throw failure }
                    if exchange.stopsAfterHead { return false }
                }
                if bodyFrom == nil && !readingHead { bodyFrom = i }
            }
        }
        return true
    }

    /// Whether the next bytes are of a status or header line.
    private var readingHead: Bool { state == .statusLine || state == .headers }

    /// The connection closed (or failed with `error`, an errno). Returns normally when that ends
    /// the response (a body read to the close); else the failure libcurl reports.
    mutating func closed(error: Int32 = 0) throws(Failure) {
        if case .untilClose = state, error == 0 {
            // Nothing at all of a response (what an interim one held does not count).
            if consumed == 0 { throw Failure(code: 52, reason: "Empty reply from server") }
            state = .done
            close = true
            return
        }
        // Waiting for the LF after the last CR of the chunks: libcurl has what it needs.
        if state == .chunk(.stop), error == 0 { state = .done; close = true; return }
        if case .done = state { return }
        if error != 0 {
            let text = cText(strerror(error))
            throw Failure(code: 56, reason: "Recv failure: \(text)")
        }
        switch state {
        case .statusLine where consumed == 0:
            throw Failure(code: 52, reason: "Empty reply from server")
        case .headers:
            // libcurl takes a header block cut by the close as the whole response, without a
            // body; but a body it was told of is one that did not come. A Content-Length is
            // looked at first, even beside chunked: libcurl forgets the length only when the
            // block ends.
            if !isHead && !bodyless {
                if let contentLength, contentLength > 0 { throw Failure(code: 18, reason: "transfer closed with \(contentLength) bytes remaining to read") }
                if chunked { throw Failure(code: 18, reason: "transfer closed with outstanding read data remaining") }
            }
            state = .done
            close = true
        case .body:
            throw Failure(code: 18, reason: "transfer closed with \(remaining) bytes remaining to read")
        case .chunk:
            throw Failure(code: 18, reason: "transfer closed with outstanding read data remaining")
        default:
            // Inside a header block: what libcurl calls a reply it cannot use.
            throw Failure(code: 8, reason: "Weird server reply")
        }
    }

    /// What both senders say of a header line past the limit (libcurl itself says "Out of memory").
    static let tooLong = Failure(code: 27, reason: "a response header line is longer than libcurl accepts (100 KiB)")

    /// What libcurl says of header blocks past `maxHeaderBytes` (`n` counted when it stopped).
    static func tooLarge(_ n: Int) -> Failure {
        Failure(code: 56, reason: "Too large response headers: \(n) > \(maxHeaderBytes)")
    }

    private static let http09 = Failure(code: 1, reason: "Received HTTP/0.9 when not allowed")

    /// The first line of a response must start "HTTP/" (in any case) as far as it goes, or
    /// libcurl takes the bytes for HTTP/0.9, which it refuses.
    private func checkPrefix<C: Collection>(_ bytes: C) throws(Failure) where C.Element == UInt8 {
        for (b, expected) in zip(bytes.prefix(5), "HTTP/".utf8) where ASCII.lower(b) != ASCII.lower(expected) { throw Self.http09 }
    }

    private mutating func take<Sink: ResponseSink>(line raw: UnsafeRawBufferPointer, _ exchange: Sink) throws(Failure) {
        consumed += raw.count
        sawLine = true
        if state == .statusLine { try checkPrefix(raw) }
        if raw[0] == 0x0D || raw[0] == 0x0A {
            // A line that starts with CR or LF ends the block, whatever follows on it.
            exchange.headerLine(raw)
            try count(raw)
            return try endOfHeaders(exchange)
        }
        if state == .statusLine {
            switch CurlStatusLine.read(raw) {
            case .failure(let failure): throw failure
            case .status(let code, let version):
                status = code
                self.version = version
                bodyless = (100...199).contains(code) || code == 204 || code == 304
            }
            if ByteSearch.first(0x00, in: raw, from: 0) != nil { throw Self.nul }
            headerLine = 1
            state = .headers
            exchange.headerLine(raw)
            return try count(raw)
        }
        headerLine += 1
        // libcurl's verify_header, then what its headers API keeps.
        if ByteSearch.first(0x00, in: raw, from: 0) != nil { throw Self.nul }
        let fold = raw[0] == 0x20 || raw[0] == 0x09
        if !(fold && headerLine > 2), ByteSearch.first(0x3A, in: raw, from: 0) == nil {
            throw Failure(code: 8, reason: "Header without colon")
        }
        try keep(raw, fold: fold)
        try field(raw)
        exchange.headerLine(raw)
        try count(raw)
    }

    private static let nul = Failure(code: 8, reason: "Nul byte in header")
    private static let badArgument = Failure(code: 43, reason: "A libcurl function was given a bad argument")

    /// libcurl's headers API (Curl_headers_push) on a field line: a fold needs a field before it;
    /// otherwise a colon before the line's first CR.
    private mutating func keep(_ raw: UnsafeRawBufferPointer, fold: Bool) throws(Failure) {
        if fold {
            guard hasField else { throw Self.badArgument }
            return
        }
        let end = ByteSearch.first(0x0D, in: raw, from: 0) ?? raw.count - 1
        guard let colon = ByteSearch.first(0x3A, in: raw, from: 0), colon < end else { throw Self.badArgument }
        hasField = true
    }

    /// Adds a header line's bytes to the count libcurl limits.
    private mutating func count(_ raw: UnsafeRawBufferPointer) throws(Failure) {
        headerBytes += raw.count
        if headerBytes > Self.maxHeaderBytes { throw Self.tooLarge(headerBytes) }
    }

    /// What libcurl reads of a field line: its name as a case-blind prefix with the colon.
    private mutating func field(_ raw: UnsafeRawBufferPointer) throws(Failure) {
        func starts(_ name: StaticString) -> Bool {
            let n = name.utf8CodeUnitCount
            return raw.count >= n && ASCII.equals(UnsafeRawBufferPointer(rebasing: raw[0..<n]), ignoringCase: name)
        }
        if !bodyless && starts("content-length:") {
            switch Self.length(UnsafeRawBufferPointer(rebasing: raw[15...])) {
            case .some(.some(let n)): contentLength = n
            case .some(.none): close = true  // too large: libcurl ignores it and reads to the close
            case .none: throw Failure(code: 8, reason: "Invalid Content-Length: value")
            }
        } else if starts("content-type:") {
            return
        } else if version == 10 && Self.has(raw, field: "connection:", "keep-alive") {
            keepAlive = true
        } else if Self.has(raw, field: "connection:", "close") {
            close = true
        } else if !bodyless && starts("transfer-encoding:") {
            try codings(UnsafeRawBufferPointer(rebasing: raw[18...]))
            // libcurl 7.88 (http.c): a Transfer-Encoding field with no chunked so far makes it
            // ignore Content-Length, the body then ending only at the close (RFC 9112 §6.3).
            if !chunked { ignoresLength = true; close = true }
        }
    }

    /// Content-Length's value as libcurl's curlx_strtoofft reads it: blanks, then strtoll's
    /// number (a `+` allowed, anything after the digits ignored). nil: invalid; .some(nil): too large.
    private static func length(_ value: UnsafeRawBufferPointer) -> Int?? {
        var i = 0
        while i < value.count, value[i] == 0x20 || value[i] == 0x09 { i += 1 }
        guard i < value.count, value[i] != 0x2D, !isSpace(value[i]) else { return nil }
        if value[i] == 0x2B { i += 1 }
        var n = 0, digits = 0, overflow = false
        while i < value.count, value[i] >= 0x30 && value[i] <= 0x39 {
            let (times, o1) = n.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int(value[i] - 0x30))
            if o1 || o2 { overflow = true } else { n = plus }
            digits += 1
            i += 1
        }
        guard digits > 0 else { return nil }
        return .some(overflow ? nil : n)
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    /// libcurl's Curl_compareheader: the field named `field` holds `content` anywhere in its value
    /// (case-blind, up to the line's first CR).
    private static func has(_ raw: UnsafeRawBufferPointer, field: StaticString, _ content: StaticString) -> Bool {
        let n = field.utf8CodeUnitCount
        guard raw.count >= n, ASCII.equals(UnsafeRawBufferPointer(rebasing: raw[0..<n]), ignoringCase: field) else { return false }
        var start = n
        while start < raw.count, isSpace(raw[start]) { start += 1 }
        let end = ByteSearch.first(0x0D, in: raw, from: start) ?? ByteSearch.first(0x0A, in: raw, from: start) ?? raw.count
        let c = content.utf8CodeUnitCount
        var at = start
        while end - at >= c {
            if ASCII.equals(UnsafeRawBufferPointer(rebasing: raw[at..<at + c]), ignoringCase: content) { return true }
            at += 1
        }
        return false
    }

    /// Body bytes to the exchange, through the decoding stages when the field names some.
    private mutating func deliver<Sink: ResponseSink>(_ bytes: UnsafeRawBufferPointer, _ exchange: Sink) throws(Failure) -> Bool {
        guard codings > 0 else { return exchange.bodyBytes(bytes) }
        try checkStages()
        guard let decoders else { return exchange.bodyBytes(bytes) }
        return try decoders.write(bytes, into: exchange)
    }

    private mutating func endOfHeaders<Sink: ResponseSink>(_ exchange: Sink) throws(Failure) {
        if (100...199).contains(status) {
            if status == 101 {
                // Switched to another protocol: what follows is the body, to the close (its
                // header bytes are not an answer: nothing after them is libcurl's "Empty reply").
                close = true
                consumed = 0
                state = .untilClose
                return
            }
            // An interim response: the final one follows. What it held does not count as an
            // answer (a close now is libcurl's "Empty reply").
            state = .statusLine
            headerLine = 0
            consumed = 0
            return
        }
        if isHead || bodyless { state = .done; return }
        if chunked { state = .chunk(.hex); return }
        if let contentLength, !ignoresLength {
            if contentLength == 0 { state = .done } else { remaining = contentLength; state = .body }
            return
        }
        close = true
        // A redirect that will be followed, with a body that ends only at the close: libcurl
        // ignores that body and follows at once, closing the connection (curl tests 43, 187,
        // 1104), where reading on would wait for a server that keeps it open.
        if exchange.discardBody { state = .done; return }
        state = .untilClose
    }

    /// The framing libcurl goes on with when it stops reading headers without the end of a
    /// block (a line that starts with NUL): no interim response is ended, no 1xx is special.
    private mutating func bodyWithoutEnd() throws(Failure) {
        if isHead { state = .done; return }
        if chunked { state = .chunk(.hex); return }
        if status == 204 || status == 304 { state = .done; return }
        if let contentLength, !bodyless, !ignoresLength {
            if contentLength == 0 { state = .done } else { remaining = contentLength; state = .body }
            return
        }
        close = true
        state = .untilClose
    }

    /// One byte of chunked framing, as libcurl's Curl_httpchunk_read takes it; returns whether
    /// the byte was used (some states look at it and pass it to the next).
    private mutating func chunkByte<Sink: ResponseSink>(_ b: UInt8, _ step: Chunk, _ exchange: Sink) throws(Failure) -> Bool {
        consumed += 1
        switch step {
        case .hex:
            if ASCII.hexValue(b) != nil {
                guard hexDigits.count < 16 else { throw Failure(code: 56, reason: "Too long hexadecimal number in chunked-encoding") }
                hexDigits.append(b)
                return true
            }
            var size = 0
            for d in hexDigits {
                guard size <= (Int.max - 15) / 16 else { throw Self.badHex }
                size = size * 16 + (ASCII.hexValue(d) ?? 0)
            }
            guard !hexDigits.isEmpty else { throw Self.badHex }
            hexDigits.removeAll(keepingCapacity: true)
            remaining = size
            state = .chunk(.lf)
            consumed -= 1
            return false
        case .lf:
            // Everything up to the LF (extensions, spaces, anything) is passed over.
            if b == 0x0A { state = remaining == 0 ? .chunk(.trailer) : .chunk(.data) }
            return true
        case .postLF:
            if b == 0x0A { state = .chunk(.hex) } else if b != 0x0D { throw Self.malformed }
            return true
        case .trailer:
            guard b == 0x0D || b == 0x0A else {
                guard trailer.count + 2 < Self.maxTrailer else { throw Failure(code: 56, reason: "Out of memory in chunked-encoding") }
                trailer.append(b)
                return true
            }
            if trailer.isEmpty {
                state = .chunk(.trailerPostCR)
                consumed -= 1
                return false
            }
            try deliverTrailer(exchange)
            state = .chunk(.trailerCR)
            if b == 0x0A { consumed -= 1; return false }
            return true
        case .trailerCR:
            guard b == 0x0A else { throw Self.malformed }
            state = .chunk(.trailerPostCR)
            return true
        case .trailerPostCR:
            if b != 0x0D && b != 0x0A {
                state = .chunk(.trailer)
                consumed -= 1
                return false
            }
            state = .chunk(.stop)
            if b == 0x0D { return true }
            consumed -= 1
            return false
        case .stop:
            guard b == 0x0A else { throw Self.malformed }
            state = .done
            return true
        case .data:
            return true  // taken in bulk by read
        }
    }

    private static let badHex = Failure(code: 56, reason: "Illegal or missing hexadecimal sequence in chunked-encoding")
    private static let malformed = Failure(code: 56, reason: "Malformed encoding found in chunked-encoding")

    /// A trailer line, ended as libcurl ends it (CR LF): kept by its headers API (a field, with
    /// no NUL) and then handed to the header callback. What the API refuses fails the transfer.
    private mutating func deliverTrailer<Sink: ResponseSink>(_ exchange: Sink) throws(Failure) {
        let refused = Failure(code: 43, reason: "Failed reading the chunked-encoded stream")
        if trailer.contains(0) { throw refused }
        let fold = trailer[0] == 0x20 || trailer[0] == 0x09
        if fold { if !hasField { throw refused } } else if !trailer.contains(0x3A) { throw refused }
        trailer += [0x0D, 0x0A]
        trailer.withUnsafeBytes { exchange.headerLine($0) }
        trailer.removeAll(keepingCapacity: true)
    }
}
