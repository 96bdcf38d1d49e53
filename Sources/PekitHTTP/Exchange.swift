import CCurl
import PekitCore

/// One request and its response on the wire: the state curl's callbacks share (their userdata).
/// The callbacks never throw through curl: an error is kept here, the callback tells curl to
/// stop, and `Transfer.finish` throws it once the multi interface (`HTTPEngine`) reports the
/// transfer done.
final class Exchange {
    var response = PekitResponse()
    let body: BodyStream
    let sink: SendOptions.Sink
    /// Told of the final response's head before its first body byte (`SendOptions.head`); nil
    /// once told.
    private var head: (@Sendable (PekitResponse) -> Void)?
    /// Decides, once the header block is complete, whether this response is a redirect that will
    /// be followed, in which case its body is not the caller's and is dropped.
    let willFollow: WillFollow
    /// Given a final response's status and header fields: whether it is one a redirect or a retry
    /// replaces (not the whole response, which would be copied for the call).
    typealias WillFollow = (_ status: Int, _ headers: [PekitResponse.Field]) -> Bool
    let isCancelled: (() -> Bool)?
    /// A body that goes to a file or a callback is copied for the HAR record too (a browser's
    /// HAR has the bodies), up to this many bytes; a longer one is recorded without its text.
    static let recordedBodyLimit = 64 << 20
    private var copiesBody: Bool
    var trace: ((SendOptions.TraceEvent, [UInt8]) -> Void)?
    /// The exchange reports what it reads to `trace` itself (pekit's own transfer: libcurl
    /// reports through its debug callback instead).
    var tracesReads = false
    /// Keeps every header line as it came in `response.heads` (`SendOptions.keepsHeads`).
    let keepsHeads: Bool
    var progress: ((SendOptions.Progress) -> Void)?
    private var progressStarted = 0.0, progressLast = -1.0
    private var lastProgress: SendOptions.Progress?

    /// libcurl's progress report, passed on at most five times a second.
    func reportProgress(downloadTotal: Int64, downloaded: Int64, uploadTotal: Int64, uploaded: Int64, now: Double) {
        guard let progress else { return }
        if progressStarted == 0 { progressStarted = now }
        let report = SendOptions.Progress(downloaded: downloaded, downloadTotal: downloadTotal, uploaded: uploaded, uploadTotal: uploadTotal,
                                          elapsed: .seconds(now - progressStarted))
        lastProgress = report
        guard now - progressLast >= 0.2 else { return }
        progressLast = now
        progress(report)
    }

    /// The last report once more, when the transfer is over (so a display ends at its total).
    func finishProgress() {
        if let progress, let lastProgress { progress(lastProgress) }
    }
    /// The most body bytes taken, and the URL for the error.
    let maxBody: Int?
    let url: String
    /// Whether the body of the response whose head just ended is dropped (a followed redirect).
    private(set) var discardBody = false
    /// The limit a caller set (curl's --max-filesize), which a response's Content-Length is
    /// held to before its body is read.
    private let announcedLimit: Int?
    /// Between a status line and the empty line that ends its header block.
    private(set) var inHeaders = false
    /// The final response's header block is over: lines from now on are trailers (after a
    /// chunked body), which never set cookies, change the status or redirect (RFC 9110 §6.5).
    private var headersOver = false
    /// Bytes of trailers kept: past `ResponseReader.maxHeaderBytes` the rest are read and dropped.
    private var trailerBytes = 0
    private(set) var writer: Files.AtomicWriter?
    /// The first error a callback met.
    var error: Error?
    private(set) var cancelled = false

    /// One exchange under `options` (its sink, its body limit, its cancellation, whether it records).
    init(body: BodyStream, options: borrowing SendOptions, url: String, willFollow: @escaping WillFollow) {
        self.body = body; sink = options.sink; head = options.head; maxBody = options.effectiveMaxBody; self.url = url
        announcedLimit = options.maxBody
        self.willFollow = willFollow; isCancelled = options.isCancelled
        if case .memory = options.sink { copiesBody = false } else { copiesBody = options.record != nil }
        keepsHeads = options.keepsHeads
    }

    /// One header line as curl delivers it (with its CRLF): a status line starts a new block
    /// (interim 1xx responses are replaced by the final one), an empty line ends it.
    func headerLine(_ raw: UnsafeRawBufferPointer) {
        if tracesReads, let trace { trace(.headerIn, Array(raw)) }
        // After a 407 a status line is libcurl's own next request of the transfer (it answers
        // the proxy's challenge itself, --proxy-digest/--proxy-anyauth): a new block. After any
        // other answer such a line is a trailer, as libcurl reads one.
        if headersOver, response.status == 407, Self.startsStatusLine(raw) {
            headersOver = false
            discardBody = false
        }
        if keepsHeads {
            // A trailer's lines too, apart (curl writes them after the body); not the empty line that ends them.
            if !headersOver { response.heads.append(contentsOf: raw) } else if raw.first != 0x0D && raw.first != 0x0A { response.trailerHeads.append(contentsOf: raw) }
        }
        // Read in place: no copy of the line (this runs for every header of every response).
        var end = raw.count
        while end > 0, raw[end - 1] == 0x0A || raw[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self) }
        if headersOver { return trailerLine(line) }
        if line.isEmpty {
            inHeaders = false
            if response.status >= 200 {
                headersOver = true
                discardBody = willFollow(response.status, response.headers)
                // A redirect's own Content-Length counts too: curl stops there (63, its test 477).
                checkAnnouncedLength()
            }
            return
        }
        if let (space, codeEnd, status) = Self.statusLine(line) {
            inHeaders = true
            response.headers.removeAll(keepingCapacity: true)
            response.headers.reserveCapacity(12)
            response.httpVersion = text(5..<space)
            response.status = status
            response.reason = codeEnd < line.count ? text(codeEnd + 1..<line.count) : ""
            return
        }
        Self.add(line, to: &response.headers)
    }

    /// A status line (`line` without its line ending) as the response reports it: "HTTP/1.1 200
    /// OK" read as the version (up to `space`), the code (0 when it is not a number), and the
    /// reason after `codeEnd` (which may hold spaces); nil when the line does not start "HTTP/".
    static func statusLine(_ line: UnsafeRawBufferPointer) -> (space: Int, codeEnd: Int, status: Int)? {
        guard line.count >= 5, line[0] == 0x48, line[1] == 0x54, line[2] == 0x54, line[3] == 0x50, line[4] == 0x2F else { return nil }
        let space = line.firstIndex(of: 0x20) ?? line.count
        let codeEnd = space < line.count ? line[(space + 1)...].firstIndex(of: 0x20) ?? line.count : line.count
        let status = space < line.count ? Int(String(decoding: UnsafeRawBufferPointer(rebasing: line[space + 1..<codeEnd]), as: UTF8.self)) ?? 0 : 0
        return (space, codeEnd, status)
    }

    /// Whether `raw` (a header line as delivered) starts "HTTP/": after a 407, libcurl's own next request.
    static func startsStatusLine(_ raw: UnsafeRawBufferPointer) -> Bool {
        raw.count >= 5 && raw[0] == 0x48 && raw[1] == 0x54 && raw[2] == 0x54 && raw[3] == 0x50 && raw[4] == 0x2F
    }

    /// As curl's --max-filesize: a Content-Length past the limit, or past what a 64-bit count
    /// holds, stops the transfer before any byte of the body (curl's exit 63, its test 393),
    /// where the body's bytes would otherwise be counted as they came.
    private func checkAnnouncedLength() {
        guard let limit = announcedLimit, let field = PekitResponse.first("Content-Length", in: response.headers) else { return }
        // With a Transfer-Encoding field libcurl ignores Content-Length (Curl_http_size), and
        // the limit is judged on the bytes as they come.
        if PekitResponse.first("Transfer-Encoding", in: response.headers) != nil { return }
        let digits = field.bytes.prefix { (0x30...0x39).contains($0) }
        guard !digits.isEmpty else { return }
        let length = Int(String(decoding: digits, as: UTF8.self)) ?? Int.max  // all digits: nil is an overflow
        if length > limit {
            var inMemory = false
            if case .memory = sink { inMemory = true }
            error = HTTPError.bodyTooLarge(url: url, limit: limit, inMemory: inMemory)
        }
    }

    /// Whether the transfer must stop now (a limit passed while the head was read).
    var stopsAfterHead: Bool { error != nil }

    /// A trailer field: kept in `response.trailers`, up to libcurl's header limit.
    private func trailerLine(_ line: UnsafeRawBufferPointer) {
        guard !line.isEmpty, trailerBytes + line.count <= ResponseReader.maxHeaderBytes else { return }
        trailerBytes += line.count
        Self.add(line, to: &response.trailers)
    }

    /// A field line (its ending off) into `fields`: "Name: value" trimmed, or a continuation.
    private static func add(_ line: UnsafeRawBufferPointer, to fields: inout [PekitResponse.Field]) {
        if line[0] == 0x20 || line[0] == 0x09 {
            // obs-fold (RFC 9112 §5.2): a continuation joins the previous value with one space,
            // appended in place (a copy per continuation made a long fold quadratic).
            guard !fields.isEmpty else { return }
            let more = line.drop { $0 == 0x20 || $0 == 0x09 }
            fields[fields.count - 1].value.bytes.append(0x20)
            fields[fields.count - 1].value.bytes.append(contentsOf: more)
            return
        }
        guard let colon = ByteSearch.first(0x3A, in: line, from: 0) else { return }
        var start = colon + 1, stop = line.count
        while start < stop, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while stop > start, line[stop - 1] == 0x20 || line[stop - 1] == 0x09 { stop -= 1 }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<colon]), as: UTF8.self)
        fields.append(.init(name: name, value: ByteString(Array(UnsafeRawBufferPointer(rebasing: line[start..<stop])))))
    }

    /// Body bytes: dropped for a followed redirect, else kept, written to the file, or handed on.
    /// Returns false to stop the transfer.
    func bodyBytes(_ raw: UnsafeRawBufferPointer) -> Bool {
        if discardBody { return true }
        if let told = head {
            head = nil
            told(response)
        }
        response.bodyLength += raw.count
        if let maxBody, response.bodyLength > maxBody {
            var inMemory = false
            if case .memory = sink { inMemory = true }
            error = HTTPError.bodyTooLarge(url: url, limit: maxBody, inMemory: inMemory)
            return false
        }
        if copiesBody {
            if response.bodyLength <= Self.recordedBodyLimit {
                if response.recordedBody == nil { response.recordedBody = [] }
                response.recordedBody?.append(contentsOf: raw)
            } else {
                response.recordedBody = nil
                copiesBody = false
            }
        }
        do {
            switch sink {
            case .memory: response.body.append(contentsOf: raw)
            case .file(let path):
                if writer == nil { writer = try Files.AtomicWriter(path: path) }
                try writer?.write(raw)
            case .custom(let consume): try consume(Array(raw))
            }
            return true
        } catch is SendOptions.StopBody {
            // The caller has what it wanted: the transfer ends here, as a response.
            response.stoppedEarly = true
            return false
        } catch {
            self.error = error
            return false
        }
    }

    /// Upload bytes for curl's read callback; nil to abort.
    func uploadBytes(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        // The buffer is filled as far as the body goes, so a chunked body's chunks are always
        // libcurl's full size and the preview (`PekitRequest.chunked`) frames it the same way.
        do {
            var filled = 0
            while filled < capacity {
                let n = try body.read(into: buffer + filled, capacity: capacity - filled)
                if n == 0 { break }
                filled += n
            }
            return filled
        } catch { self.error = error; return nil }
    }

    /// Whether to stop now (polled by curl's progress callback and by the engine between waits).
    func shouldStop() -> Bool {
        if let isCancelled, isCancelled() { cancelled = true }
        return cancelled
    }

    /// After a successful transfer: a file sink is completed (created empty if no byte came).
    func finish() throws {
        guard case .file(let path) = sink, !discardBody else { return }
        if writer == nil { writer = try Files.AtomicWriter(path: path) }
        try writer?.commit()
    }

    /// Whether the sink asked to stop (the transfer ends as a response, not an error).
    var stoppedEarly: Bool { response.stoppedEarly }

    /// Throws what stopped the transfer early (a callback's error, Ctrl-C), leaving nothing partial.
    func throwIfStopped() throws {
        if let error { abandon(); throw error }
        if cancelled { abandon(); throw HTTPError.cancelled(url: url) }
    }

    /// The response of a transfer that ended, moved out: the last progress report given, a file
    /// sink completed; or what stopped it, thrown.
    func complete() throws -> PekitResponse {
        try throwIfStopped()
        finishProgress()
        try finish()
        return takeResponse()
    }

    /// The response, moved out (the exchange is done with it).
    func takeResponse() -> PekitResponse {
        var taken = PekitResponse()
        swap(&taken, &response)
        return taken
    }

    /// After a failed transfer: nothing partial is left behind.
    func abandon() { writer?.abort() }
}
