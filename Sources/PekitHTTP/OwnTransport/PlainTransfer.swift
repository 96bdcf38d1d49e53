import CCurl
import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// One bodiless request over plain HTTP/1.1 on a connection pekit keeps itself: the kept-alive
/// request after request that libcurl would otherwise run through its whole machinery (its
/// connection-liveness poll, its header assembly, its state machine), for the same bytes.
///
/// What it takes on is narrow on purpose (`accepts`): `http://`, no body, no proxy, no `connect`
/// mapping, no progress, no decoding (a trace shows its own exchange); timeouts kept as libcurl keeps them. The request
/// goes out as libcurl writes it (the request line, the Host field, then the others in order, an
/// empty value as `Name:`); the response is read as libcurl reads it (`ResponseReader`) into the
/// same `Exchange`. A kept-alive connection the server closed before answering is replaced and
/// the request sent again (as curl does); a connection that cannot be made hands the request to
/// libcurl, whose error is then the one users see.
final class PlainTransfer {
    enum Phase { case connecting, sending, receiving }
    /// What became of a step.
    enum Outcome {
        case running
        case done(Result<PekitResponse, Error>)
        /// Nothing was answered: send the request with libcurl instead.
        case handOver
    }

    let request: PekitRequest
    let exchange: Exchange
    let connection: PlainConnection
    /// Whether the connection served an earlier request (a close before any answer is then the
    /// server's idle timeout, and the request is sent again on a new connection, as curl does).
    let reused: Bool
    /// Unix seconds when it started: what a HAR log records.
    let started: Double
    private(set) var phase: Phase
    /// The last wait found its socket ready (the engine's mark).
    var ready = false
    private var output: [UInt8]
    private var written = 0
    private(set) var reader: ResponseReader
    private let start = UnixTime.monotonic()
    private var connectedAt = 0.0, sentAt = 0.0, firstByteAt = 0.0
    /// The send's limits (`SendOptions.connectTimeout`, `timeout`), and when its first try began
    /// (monotonic seconds): a try on a new connection keeps the deadlines.
    let timeouts: Timeouts
    struct Timeouts {
        var connect: Double?
        var total: Double?
        var begun: Double
    }
    private let connectDeadline: Double, deadline: Double
    /// Seconds from the request's last byte sent to the answer's first byte, once it came.
    var answerWait: Double? { firstByteAt > 0 && sentAt > 0 ? firstByteAt - sentAt : nil }

    /// - Parameter head: the request's head (`PekitRequest.head()`, or the engine's copy of it).
    /// - Parameter timeouts: seconds a new connection may take (libcurl's 300 when nil) and the
    ///   whole send (no limit when nil).
    init(request: PekitRequest, head: [UInt8], exchange: Exchange, connection: PlainConnection, reused: Bool, started: Double,
         timeouts: Timeouts) {
        self.request = request
        self.connection = connection
        self.reused = reused
        self.started = started
        self.exchange = exchange
        reader = ResponseReader(isHead: request.method == "HEAD")
        output = head
        phase = reused ? .sending : .connecting
        if reused { connectedAt = start }
        // As libcurl takes them (whole milliseconds, at least one; no limit past what it holds).
        func limit(_ seconds: Double?) -> Double {
            guard let seconds else { return .infinity }
            return timeouts.begun + Double(PekitClient.milliseconds(seconds)) / 1000
        }
        connectDeadline = limit(timeouts.connect ?? 300)
        deadline = limit(timeouts.total)
        self.timeouts = timeouts
    }

    /// `head` with its request line asking in HTTP/1.0 (the line's last "1.1" made "1.0").
    static func asHTTP10(_ head: [UInt8]) -> [UInt8] {
        guard let lineEnd = head.firstIndex(of: 0x0D), lineEnd >= 3, head[lineEnd - 3] == 0x31, head[lineEnd - 1] == 0x31 else { return head }
        var out = head
        out[lineEnd - 1] = 0x30
        return out
    }

    /// The request's head as written (what an engine keeps to write the same request again).
    var head: [UInt8] { output }

    /// The poll events this transfer waits for.
    var events: Int16 { Int16(phase == .receiving ? POLLIN : POLLOUT) }

    /// Moves on as far as the socket allows without waiting; `buffer` is scratch space for reading.
    func step(_ buffer: UnsafeMutableRawBufferPointer) -> Outcome {
        if phase == .connecting {
            var p = pollfd(fd: connection.fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&p, 1, 0) > 0 else { return .running }
            // A connection that could not be made: libcurl tries again, and says why in its words.
            guard connection.connectError() == 0 else { return .handOver }
            connectedAt = UnixTime.monotonic()
            phase = .sending
            if let trace = exchange.trace {
                let host = (try? request.requestURL()).map { HostMapping.bracketed($0.host) } ?? connection.address
                trace(.text, Array("Connected to \(host) (\(connection.address)) port \(connection.port)\n".utf8))
            }
        }
        if phase == .sending {
            while written < output.count {
                let n = output.withUnsafeBytes { bytes in
                    bytes.baseAddress.map { send(connection.fd, $0 + written, bytes.count - written, Int32(MSG_NOSIGNAL)) } ?? 0
                }
                if n < 0 {
                    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .running }
                    if reused { return .handOver }
                    return fail(ResponseReader.Failure(code: 55, reason: "Send failure: \(cText(strerror(errno)))"))
                }
                written += n
            }
            phase = .receiving
            sentAt = UnixTime.monotonic()
            exchange.trace?(.headerOut, output)
            // The answer cannot be there yet: wait for it rather than ask the socket now.
            return .running
        }
        // Read what there is (a few buffers at most, so that one fast transfer does not starve the rest).
        for _ in 0..<16 {
            let n = recv(connection.fd, buffer.baseAddress, buffer.count, 0)
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .running }
                let error = errno
                if reused && !reader.started { return .handOver }
                do { try reader.closed(error: error) } catch { return fail(error) }
                return finish()
            }
            if n == 0 {
                if reused && !reader.started { return .handOver }
                do { try reader.closed() } catch { return fail(error) }
                return finish()
            }
            if firstByteAt == 0 { firstByteAt = UnixTime.monotonic() }
            do {
                guard try reader.read(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), into: exchange) else {
                    return .done(Result { try exchange.complete() })  // the exchange stopped it: its error
                }
            } catch { return fail(error) }
            if reader.isDone { return finish() }
        }
        return .running
    }

    /// The next time a limit runs out (monotonic seconds; infinity when none can).
    var nextDeadline: Double { phase == .connecting ? min(connectDeadline, deadline) : deadline }

    /// The transfer's end when a limit ran out, in libcurl's words for the phase it was in; or nil.
    func timedOut(now: Double) -> Outcome? {
        guard now >= nextDeadline else { return nil }
        let milliseconds = Self.elapsedMilliseconds(now: now, begun: timeouts.begun, deadline: nextDeadline)
        return fail(ResponseReader.Failure(code: 28, reason: Self.timeoutReason(
            milliseconds: milliseconds, connecting: phase == .connecting, connectLimitFirst: connectDeadline < deadline,
            address: connection.address, port: connection.port, received: exchange.response.bodyLength, expected: reader.expectedLength)))
    }

    /// Whole milliseconds from `begun` to `now`, a limit that ran out at `deadline` being never
    /// fewer than its own: `begun + limit - begun` may come out a hair under the limit in
    /// floating point (135010.5264785016 + 2.832), and libcurl never says less than its limit.
    static func elapsedMilliseconds(now: Double, begun: Double, deadline: Double) -> Int {
        PekitClient.reportedMilliseconds(elapsed: now - begun, limit: Int(((deadline - begun) * 1000).rounded()))
    }

    /// libcurl's words (CURLE_OPERATION_TIMEDOUT) for a limit that ran out `milliseconds` after
    /// the start: while connecting, the whole transfer's limit or the connect's own
    /// (`connectLimitFirst`); later, with `received` bytes of the `expected` body.
    static func timeoutReason(milliseconds: Int, connecting: Bool, connectLimitFirst: Bool, address: String, port: Int, received: Int, expected: Int?) -> String {
        if connecting {
            if !connectLimitFirst { return "Connection timed out after \(milliseconds) milliseconds" }
            return "Failed to connect to \(address) port \(port) after \(milliseconds) ms: Timeout was reached"
        }
        let of = expected.map { " out of \($0)" } ?? ""
        return "Operation timed out after \(milliseconds) milliseconds with \(received)\(of) bytes received"
    }

    private func fail(_ failure: ResponseReader.Failure) -> Outcome {
        exchange.abandon()
        return .done(.failure(HTTPError.transfer(method: request.method.rawValue, url: request.url, code: failure.code, reason: failure.reason,
                                                 hint: PekitClient.hint(CURLcode(rawValue: UInt32(failure.code)), failure.reason))))
    }

    private func finish() -> Outcome {
        let end = UnixTime.monotonic()
        return .done(Result {
            var response = try exchange.complete()
            // A status line the exchange cannot read: libcurl's code for it, as its path reports.
            if response.status == 0 { response.status = reader.status }
            Self.describe(&response, timing: Self.timing(start: start, connectedAt: connectedAt, firstByteAt: firstByteAt, end: end),
                          head: head, connection: connection, reused: reused)
            return response
        })
    }

    /// curl's phases of an exchange on the own transport, from its start (monotonic seconds):
    /// no name to resolve, no TLS; the first byte at the end where none came before it.
    static func timing(start: Double, connectedAt: Double, firstByteAt: Double, end: Double) -> PekitResponse.Timing {
        var timing = PekitResponse.Timing()
        timing.connect = connectedAt - start
        timing.pretransfer = connectedAt - start
        timing.firstByte = firstByteAt == 0 ? end - start : firstByteAt - start
        timing.total = end - start
        return timing
    }

    /// What a response read on the own transport tells of its exchange: the phases, the request
    /// head's size, the connection's two ends, and whether the connection was new.
    static func describe(_ response: inout PekitResponse, timing: PekitResponse.Timing, head: [UInt8], connection: PlainConnection, reused: Bool) {
        response.timing = timing
        response.requestHeadBytes = head.count
        response.remoteAddress = connection.address
        response.remotePort = connection.port
        (response.localAddress, response.localPort) = connection.localEnd
        response.connections = reused ? 0 : 1
    }
}
