#if canImport(Glibc)
import Glibc
#endif
import PekitCore

/// Reads an HTTP/1.x response as its bytes arrive, the way libcurl reads one: the status line and
/// header lines go to the exchange's header callback (each with its line ending, as libcurl hands
/// them over), interim 1xx responses before the final one, and the body, unframed from its
/// Content-Length or its chunks, to the body callback.
///
/// The framing is RFC 9112 §6.3's, as libcurl applies it: no body for HEAD, 1xx, 204 and 304;
/// chunked when Transfer-Encoding says so (Content-Length is then ignored); else Content-Length
/// (the last one given); else everything up to the close.
struct ResponseReader {
    /// A response that cannot be read: libcurl's error code and message for the same bytes.
    struct Failure: Error, Equatable {
        let code: Int
        let reason: String
    }

    private enum State {
        case statusLine, headers, body, chunkSize, chunkData, chunkDataEnd, trailers, untilClose, done
    }

    /// libcurl's limit on one header line (CURL_MAX_HTTP_HEADER).
    static let maxLine = 100 * 1024
    /// libcurl's limit on a response's header blocks together, interim ones and every line's
    /// ending included (MAX_HTTP_RESP_HEADER_SIZE); trailers are not counted.
    static let maxHeaderBytes = 300 * 1024

    private let isHead: Bool
    private var state = State.statusLine
    private var line: [UInt8] = []
    private var remaining = 0
    private var status = 0
    private var minorVersion = 1
    private var contentLength: Int?
    private var chunked = false
    private var close = false
    private var keepAliveAsked = false
    /// Bytes of status and header lines so far (libcurl's `allheadercount`).
    private var headerBytes = 0
    /// Bytes of complete header lines and of body seen: libcurl's test for "Empty reply".
    private(set) var consumed = 0

    /// The body's length when the final response gave one and its body is being read.
    var expectedLength: Int? { if case .body = state { return contentLength } else { return nil } }

    /// Whether the response was read to its end.
    var isDone: Bool { if case .done = state { return true } else { return false } }
    /// Whether the connection can carry another request once this response is done.
    var reusable: Bool { isDone && !close && (minorVersion == 1 || keepAliveAsked) }
    /// Whether any byte of a response came.
    private(set) var started = false

    init(isHead: Bool) { self.isHead = isHead }

    /// Takes `bytes` (any split); returns false once the exchange asked to stop (its error is
    /// kept there). Bytes after the end of the response are a protocol error on a kept-alive
    /// connection and make it unusable; they are ignored.
    mutating func read(_ bytes: UnsafeRawBufferPointer, into exchange: Exchange) throws(Failure) -> Bool {
        if !bytes.isEmpty { started = true }
        var i = 0
        let n = bytes.count
        while i < n {
            switch state {
            case .done:
                close = true  // more than the response: do not trust this connection again
                return true
            case .body, .chunkData:
                let take = min(remaining, n - i)
                remaining -= take
                consumed += take
                if !exchange.bodyBytes(UnsafeRawBufferPointer(rebasing: bytes[i..<i + take])) { return false }
                i += take
                if remaining == 0 { state = state == .body ? .done : .chunkDataEnd }
            case .untilClose:
                consumed += n - i
                if !exchange.bodyBytes(UnsafeRawBufferPointer(rebasing: bytes[i..<n])) { return false }
                i = n
            default:
                // A line: up to and with its LF.
                guard let lf = ByteSearch.first(0x0A, in: bytes, from: i) else {
                    line.append(contentsOf: bytes[i..<n])
                    if line.count > Self.maxLine { throw Self.tooLong }
                    return true
                }
                let complete: UnsafeRawBufferPointer
                if line.isEmpty {
                    complete = UnsafeRawBufferPointer(rebasing: bytes[i...lf])
                    i = lf + 1
                    if complete.count > Self.maxLine { throw Self.tooLong }
                    try take(line: complete, exchange)
                } else {
                    line.append(contentsOf: bytes[i...lf])
                    i = lf + 1
                    if line.count > Self.maxLine { throw Self.tooLong }
                    let whole = line
                    line.removeAll(keepingCapacity: true)
                    var failure: Failure?
                    whole.withUnsafeBytes { raw in
                        do throws(Failure) { try take(line: raw, exchange) } catch { failure = error }
                    }
                    if let failure { throw failure }
                }
            }
        }
        return true
    }

    /// The connection closed (or failed with `error`, an errno). Returns normally when that ends
    /// the response (a body read to the close); else the failure libcurl reports.
    mutating func closed(error: Int32 = 0) throws(Failure) {
        if case .untilClose = state, error == 0 { state = .done; close = true; return }
        if case .done = state { return }
        if error != 0 {
            let text = cText(strerror(error))
            throw Failure(code: 56, reason: "Recv failure: \(text)")
        }
        switch state {
        case .statusLine where consumed == 0:
            throw Failure(code: 52, reason: "Empty reply from server")
        case .headers:
            // libcurl takes a header block cut by the close as the whole response, without a body.
            state = .done
            close = true
        case .body:
            throw Failure(code: 18, reason: "transfer closed with \(remaining) bytes remaining to read")
        case .chunkSize, .chunkData, .chunkDataEnd, .trailers:
            throw Failure(code: 18, reason: "transfer closed with outstanding read data remaining")
        default:
            // Inside a header block: what libcurl calls a reply it cannot use.
            throw Failure(code: 8, reason: "Weird server reply")
        }
    }

    /// What libcurl says of header blocks past `maxHeaderBytes` (`n` counted when it stopped).
    static func tooLarge(_ n: Int) -> Failure {
        Failure(code: 56, reason: "Too large response headers: \(n) > \(maxHeaderBytes)")
    }

    /// What both senders say of a header line past the limit (libcurl itself says "Out of memory").
    static let tooLong = Failure(code: 27, reason: "a response header line is longer than libcurl accepts (100 KiB)")

    private mutating func take(line raw: UnsafeRawBufferPointer, _ exchange: Exchange) throws(Failure) {
        consumed += raw.count
        var end = raw.count
        while end > 0, raw[end - 1] == 0x0A || raw[end - 1] == 0x0D { end -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        switch state {
        case .statusLine, .headers:
            headerBytes += raw.count
            if headerBytes > Self.maxHeaderBytes { throw Self.tooLarge(headerBytes) }
            if ByteSearch.first(0x00, in: text, from: 0) != nil { throw Failure(code: 8, reason: "Nul byte in header") }
        case .trailers:
            // libcurl keeps each trailer as a field: one that is not a field, or holds a NUL,
            // fails the transfer (a fold line goes on the one before).
            if !text.isEmpty, text[0] != 0x20 && text[0] != 0x09,
               ByteSearch.first(0x3A, in: text, from: 0) == nil || ByteSearch.first(0x00, in: text, from: 0) != nil {
                throw Failure(code: 43, reason: "Failed reading the chunked-encoded stream")
            }
        default:
            break
        }
        switch state {
        case .statusLine:
            try statusLine(text)
            exchange.headerLine(raw)
            state = .headers
        case .headers:
            if text.isEmpty {
                exchange.headerLine(raw)
                endOfHeaders()
            } else {
                try header(text)
                exchange.headerLine(raw)
            }
        case .chunkSize:
            // Hex digits, then optional extensions after ';' (ignored, as libcurl does).
            var size = 0, digits = 0
            for b in text {
                guard let v = Self.hexValue(b) else { break }
                guard size <= (Int.max - 15) / 16 else { throw Self.badChunk }
                size = size * 16 + v
                digits += 1
            }
            guard digits > 0 else { throw Self.badChunk }
            if size == 0 { state = .trailers } else { remaining = size; state = .chunkData }
        case .chunkDataEnd:
            guard text.isEmpty else { throw Failure(code: 56, reason: "Malformed encoding found in chunked-encoding") }
            state = .chunkSize
        case .trailers:
            exchange.headerLine(raw)  // libcurl hands trailer fields to the header callback too (kept apart there)
            if text.isEmpty { state = .done }
        default:
            break
        }
    }

    private static let badChunk = Failure(code: 56, reason: "Illegal or missing hexadecimal sequence in chunked-encoding")

    private static func hexValue(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: return Int(b - 0x30)
        case 0x41...0x46: return Int(b - 0x41 + 10)
        case 0x61...0x66: return Int(b - 0x61 + 10)
        default: return nil
        }
    }

    /// "HTTP/1.x DDD reason": what libcurl accepts from an HTTP/1 connection (and "HTTP/2 DDD"
    /// or "HTTP/3 DDD", which it reads too; such a connection is not used again).
    private mutating func statusLine(_ text: UnsafeRawBufferPointer) throws(Failure) {
        if text.count >= 10, text.starts(with: "HTTP/".utf8), text[5] == 0x32 || text[5] == 0x33, text[6] == 0x20,
           text[7...9].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            status = Int(text[7] - 0x30) * 100 + Int(text[8] - 0x30) * 10 + Int(text[9] - 0x30)
            contentLength = nil
            chunked = false
            keepAliveAsked = false
            close = true
            return
        }
        guard text.count >= 12, text[0] == 0x48, text[1] == 0x54, text[2] == 0x54, text[3] == 0x50, text[4] == 0x2F, text[5] == 0x31,
              text[6] == 0x2E, text[8] == 0x20 else {  // HTTP/1.x and a space
            if text.starts(with: "HTTP/".utf8), text.count >= 8, text[6] == 0x2E {
                throw Failure(code: 1, reason: "Unsupported HTTP version (\(Character(Unicode.Scalar(text[5]))).\(Character(Unicode.Scalar(text[7])))) in response")
            }
            throw Failure(code: 1, reason: "Received HTTP/0.9 when not allowed")
        }
        guard text[7] == 0x30 || text[7] == 0x31 else {
            throw Failure(code: 1, reason: "Unsupported HTTP version (1.\(Character(Unicode.Scalar(text[7])))) in response")
        }
        minorVersion = Int(text[7] - 0x30)
        var code = 0
        for k in 9..<12 {
            guard text[k] >= 0x30 && text[k] <= 0x39 else { throw Failure(code: 1, reason: "Received HTTP/0.9 when not allowed") }
            code = code * 10 + Int(text[k] - 0x30)
        }
        if text.count > 12, text[12] >= 0x30 && text[12] <= 0x39 || code < 100 {
            throw Failure(code: 1, reason: "Unsupported response code in HTTP response")
        }
        status = code
        contentLength = nil
        chunked = false
        keepAliveAsked = false
        close = false
    }

    private mutating func header(_ text: UnsafeRawBufferPointer) throws(Failure) {
        if text[0] == 0x20 || text[0] == 0x09 { return }  // obs-fold: the value goes on (the exchange joins it)
        guard let colon = ByteSearch.first(0x3A, in: text, from: 0) else { throw Failure(code: 8, reason: "Header without colon") }
        // Only three names matter here; most fields are passed over on their length.
        guard colon == 14 || colon == 17 || colon == 10 else { return }
        let name = UnsafeRawBufferPointer(rebasing: text[0..<colon])
        var start = colon + 1
        while start < text.count, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
        var stop = text.count
        while stop > start, text[stop - 1] == 0x20 || text[stop - 1] == 0x09 { stop -= 1 }
        let value = UnsafeRawBufferPointer(rebasing: text[start..<stop])
        if ASCII.equals(name, ignoringCase: "content-length") {
            var length = 0
            var valid = !value.isEmpty
            for b in value {
                guard b >= 0x30 && b <= 0x39, length <= (Int.max - 9) / 10 else { valid = false; break }
                length = length * 10 + Int(b - 0x30)
            }
            guard valid else { throw Failure(code: 8, reason: "Invalid Content-Length: value") }
            contentLength = length
        } else if ASCII.equals(name, ignoringCase: "transfer-encoding") {
            if Self.hasToken(value, "chunked") { chunked = true }
        } else if ASCII.equals(name, ignoringCase: "connection") {
            if Self.hasToken(value, "close") { close = true }
            if Self.hasToken(value, "keep-alive") { keepAliveAsked = true }
        }
    }

    /// Whether the comma-separated list `value` has `token` (ASCII case-blind, spaces trimmed).
    private static func hasToken(_ value: UnsafeRawBufferPointer, _ token: StaticString) -> Bool {
        var a = 0
        while a <= value.count {
            let comma = value[a...].firstIndex(of: 0x2C) ?? value.count
            var s = a, e = comma
            while s < e, value[s] == 0x20 || value[s] == 0x09 { s += 1 }
            while e > s, value[e - 1] == 0x20 || value[e - 1] == 0x09 { e -= 1 }
            if ASCII.equals(UnsafeRawBufferPointer(rebasing: value[s..<e]), ignoringCase: token) { return true }
            a = comma + 1
        }
        return false
    }

    private mutating func endOfHeaders() {
        if status < 200 && status != 101 {
            state = .statusLine  // an interim response: the final one follows
            return
        }
        if status == 101 { close = true; state = .done; return }
        if isHead || status == 204 || status == 304 { state = .done; return }
        if chunked { state = .chunkSize; return }
        if let contentLength {
            if contentLength == 0 { state = .done } else { remaining = contentLength; state = .body }
            return
        }
        close = true
        state = .untilClose
    }
}
