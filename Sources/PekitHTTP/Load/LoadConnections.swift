import CCurl
import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// `LoadRunner`'s fast path: requests to one address (one request again and again, or each one a
/// script made), sent over up to N kept-alive plain HTTP/1.1 connections, with nothing per
/// request but the writing of its head (the bytes `HTTPEngine` writes for it) and
/// `ResponseReader`'s reading of the answer (libcurl's reading, the one the engine uses) into a
/// sink that counts the body.
///
/// Taken only where the general path would do nothing else for the request (`route(for:)`): no
/// retry, cookie jar, authentication, signing, rate, trace or record, a bodiless `http://`
/// request to an IP address that `Transport` gives pekit's own transport. A redirect the request
/// follows is read whole (`Exchange`) and handed to the general path, which follows it with its
/// own rules (`HTTPEngine.add(_:options:answered:begun:completion:)`); any other answer is counted.
/// `LoadFastPathTests` holds it to the general path on the same servers, and the `load` fuzz
/// target on random answers.
final class LoadConnections {
    /// The status and the body's length, all a load run keeps of an answer: the status read from
    /// the header lines as `Exchange` reads it (its `statusLine`; interim 1xx blocks replaced by
    /// the final one; after a 407 a status line starts a new block), the body's bytes counted.
    /// For a request that follows redirects, a response with a redirect's status (or a status
    /// line whose code only the reader makes out) is read whole from its status line on by an
    /// `Exchange` (`redirect`), for the general path to go on from (or end with).
    final class CountingSink: ResponseSink {
        var trace: ((SendOptions.TraceEvent, [UInt8]) -> Void)? { nil }
        var tracesReads: Bool { false }
        var stopsAfterHead: Bool { false }
        var discardBody: Bool { redirect?.discardBody ?? false }
        var bodyLength = 0
        var status = 0
        /// The request follows redirects.
        var follows = false
        /// The redirect being read, with `url` the request's URL (for its words).
        private(set) var redirect: Exchange?
        var url = ""
        private var headersOver = false

        func reset() {
            bodyLength = 0
            status = 0
            headersOver = false
            redirect = nil
        }

        func headerLine(_ raw: UnsafeRawBufferPointer) {
            if let redirect { return redirect.headerLine(raw) }
            if headersOver, status == 407, Exchange.startsStatusLine(raw) { headersOver = false }
            if headersOver { return }
            var end = raw.count
            while end > 0, raw[end - 1] == 0x0A || raw[end - 1] == 0x0D { end -= 1 }
            let line = UnsafeRawBufferPointer(rebasing: raw[0..<end])
            if line.isEmpty {
                if status >= 200 { headersOver = true }
            } else if let (_, _, code) = Exchange.statusLine(line) {
                status = code
                // A code the line does not give (0) is the reader's, known at the end: it may be one.
                if follows && (Redirect.isRedirect(code) || code == 0) {
                    // Read as the general path reads a hop, whose rules follow it from there.
                    let exchange = Exchange(body: BodyStream([]), options: Self.plainOptions, url: url, willFollow: Redirect.follows)
                    exchange.headerLine(raw)
                    redirect = exchange
                }
            }
        }

        func bodyBytes(_ raw: UnsafeRawBufferPointer) -> Bool {
            if let redirect { return redirect.bodyBytes(raw) }
            bodyLength += raw.count
            return true
        }

        /// The options of a request on the fast path as an exchange reads its answer with them
        /// (`route(for:)`: the body in memory, no limit, no record, no head callback).
        private static let plainOptions = SendOptions()
    }

    /// An answer, or why there was none.
    enum Outcome {
        case answered(status: Int, bodyLength: Int, timing: PekitResponse.Timing)
        /// A redirect the request follows: the first hop's response, for `HTTPEngine` to go on from.
        case redirected(PekitResponse)
        case failed(HTTPError)
    }

    private enum Phase { case idle, connecting, sending, receiving }

    private struct Slot {
        var connection: PlainConnection?
        var reused = false
        var phase = Phase.idle
        var written = 0
        /// The request (its words in errors), its head as made, and as written on this connection.
        var request: PekitRequest?
        var givenHead: [UInt8] = []
        var head: [UInt8] = []
        var timeout = 0.0, connectTimeout: Double?
        var started = 0.0, connectedAt = 0.0, firstByteAt = 0.0, deadline = 0.0
        /// When a connect still going on fails (`connectTimeout`, as libcurl's CURLOPT_CONNECTTIMEOUT).
        var connectDeadline = 0.0
        /// Sent again once on a new connection, after a kept-alive one closed before answering.
        var retried = false
        var completion: ((Outcome) -> Void)?
    }

    private let route: PlainRoute
    private let address: String
    private var slots: [Slot]
    private var readers: [ResponseReader]
    private var free: [Int]
    /// Kept-alive connections whose request waits to be written at the next step.
    private var unwritten: [Int] = []
    private var polls: [pollfd]
    private let sinks: [CountingSink]
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    /// When the last wait ended (monotonic seconds): the answers it found were there by then.
    private(set) var wokeAt = 0.0

    /// The route the fast path can take for `request` under `options`, or nil (the general path's turn).
    /// A `notice` does not stand in the way (every notice is about a jar's cookies, and the fast
    /// path has none), nor does `authHash` where no challenge can be answered (without
    /// credentials, or with Basic ones already in the head: `ChallengeRound`).
    static func route(for request: PekitRequest, options: SendOptions) -> PlainRoute? {
        guard options.jar == nil, options.retry == nil, options.rate == nil, options.sign == nil,
              options.trace == nil, options.record == nil, options.head == nil, options.progress == nil, !options.explainsCookies,
              options.netrc == nil, options.authScheme == .basic || request.basicCredentials == nil, options.maxBody == nil, options.ownCookie == nil, options.hstsFile == nil,
              case .memory = options.sink, Transport.choose(request, options) == .plain,
              let route = PlainRoute(request), route.literalAddress != nil else { return nil }
        return route
    }

    /// - Parameters:
    ///   - route: where every request goes (`route(for:)`).
    ///   - connections: at most this many at once.
    init(route: PlainRoute, connections: Int) {
        self.route = route
        address = route.literalAddress ?? route.host
        slots = Array(repeating: Slot(), count: connections)
        readers = Array(repeating: ResponseReader(isHead: false), count: connections)
        sinks = (0..<connections).map { _ in CountingSink() }
        free = Array((0..<connections).reversed())
        polls = Array(repeating: pollfd(fd: -1, events: 0, revents: 0), count: connections)
    }

    deinit { buffer.deallocate() }

    /// Requests in flight.
    var inFlight: Int { slots.count - free.count }

    /// Whether a request on `route` goes where these connections go.
    func serves(_ route: PlainRoute) -> Bool { route.key == self.route.key }

    /// Sends `request` (whose head is `head`, `request.head()` as the general path writes it) on a free connection (a new one when it has none);
    /// `completion` gets the answer from within a later `step`.
    /// - Parameters:
    ///   - timeout: seconds the whole exchange may take.
    ///   - connectTimeout: seconds a new connection may take to connect (nil: no limit of its own).
    ///   - follows: the request follows redirects: a redirect's answer is `.redirected`.
    func start(_ request: PekitRequest, head: [UInt8], timeout: Double, connectTimeout: Double?, follows: Bool, _ completion: @escaping (Outcome) -> Void) {
        guard let i = free.popLast() else { return }
        sinks[i].follows = follows
        if follows { sinks[i].url = request.url }
        slots[i].completion = completion
        slots[i].retried = false
        slots[i].request = request
        slots[i].givenHead = head
        slots[i].timeout = timeout
        slots[i].connectTimeout = connectTimeout
        begin(i)
    }

    private func begin(_ i: Int) {
        let now = UnixTime.monotonic()
        slots[i].started = now
        slots[i].deadline = now + slots[i].timeout
        // Without a limit of its own, libcurl's default connect limit (300 s), as `PlainTransfer`'s.
        slots[i].connectDeadline = now + Swift.min(slots[i].timeout, slots[i].connectTimeout ?? 300)
        slots[i].written = 0
        slots[i].firstByteAt = 0
        readers[i] = ResponseReader(isHead: slots[i].request?.method == "HEAD")
        let head = slots[i].givenHead
        sinks[i].reset()
        if let connection = slots[i].connection {
            slots[i].reused = true
            slots[i].connectedAt = now
            slots[i].head = connection.answersHTTP10 ? PlainTransfer.asHTTP10(head) : head
            slots[i].phase = .sending
            // Written at the next step, with the others started before it: the server wakes
            // once for them all (a script building each request starts them a few µs apart).
            unwritten.append(i)
        } else {
            guard let connection = PlainConnection.start(address: address, port: route.port, key: route.key) else {
                return end(i, .failed(failure(i, 7, "Failed to connect to \(address) port \(route.port): \(cText(strerror(errno)))")))
            }
            slots[i].connection = connection
            slots[i].reused = false
            slots[i].head = head
            slots[i].phase = .connecting
            polls[i] = pollfd(fd: connection.fd, events: Int16(POLLOUT), revents: 0)
        }
    }

    /// Writes what the socket takes of the head; then waits for the answer.
    private func write(_ i: Int) {
        guard let connection = slots[i].connection else { return }
        while slots[i].written < slots[i].head.count {
            let from = slots[i].written
            let n = slots[i].head.withUnsafeBytes { bytes in
                bytes.baseAddress.map { Glibc.send(connection.fd, $0 + from, bytes.count - from, Int32(MSG_NOSIGNAL)) } ?? 0
            }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                    polls[i] = pollfd(fd: connection.fd, events: Int16(POLLOUT), revents: 0)
                    return
                }
                if slots[i].reused && !slots[i].retried { return again(i) }
                return end(i, .failed(failure(i, 55, "Send failure: \(cText(strerror(errno)))")))
            }
            slots[i].written += n
        }
        slots[i].phase = .receiving
        polls[i] = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
    }

    /// A kept-alive connection the server closed before answering: once more on a new one, as
    /// curl (and `HTTPEngine`) does.
    private func again(_ i: Int) {
        slots[i].connection = nil
        slots[i].retried = true
        polls[i].fd = -1
        begin(i)
    }

    /// Waits at most `timeout` seconds for the sockets, then moves every transfer on; the
    /// completions of those that ended run here.
    func step(timeout: Double) {
        for i in unwritten where slots[i].phase == .sending { write(i) }
        unwritten.removeAll(keepingCapacity: true)
        let milliseconds = Int32((Swift.max(0, timeout) * 1000).rounded(.up))
        let ready = polls.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        wokeAt = UnixTime.monotonic()
        if ready > 0 {
            for i in slots.indices where polls[i].fd >= 0 && polls[i].revents != 0 {
                polls[i].revents = 0
                advance(i)
            }
        }
        // Limits, in the words libcurl uses for them.
        for i in slots.indices where slots[i].phase != .idle
            && (wokeAt >= slots[i].deadline || (slots[i].phase == .connecting && wokeAt >= slots[i].connectDeadline)) {
            let milliseconds = Int(((wokeAt - slots[i].started) * 1000).rounded(.down))
            end(i, .failed(failure(i, 28, PlainTransfer.timeoutReason(
                milliseconds: milliseconds, connecting: slots[i].phase == .connecting, connectLimitFirst: slots[i].connectDeadline < slots[i].deadline,
                address: address, port: route.port, received: sinks[i].bodyLength, expected: readers[i].expectedLength))))
        }
    }

    private func advance(_ i: Int) {
        guard let connection = slots[i].connection else { return }
        switch slots[i].phase {
        case .idle: return
        case .connecting:
            let error = connection.connectError()
            guard error == 0 else {
                return end(i, .failed(failure(i, 7, "Failed to connect to \(address) port \(route.port): \(cText(strerror(error)))")))
            }
            slots[i].connectedAt = UnixTime.monotonic()
            slots[i].phase = .sending
            write(i)
        case .sending:
            write(i)
        case .receiving:
            for _ in 0..<16 {
                let n = recv(connection.fd, buffer.baseAddress, buffer.count, 0)
                if n < 0 {
                    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                    let error = errno
                    if slots[i].reused && !readers[i].started && !slots[i].retried { return again(i) }
                    do { try readers[i].closed(error: error) } catch { return end(i, .failed(failure(i, error.code, error.reason))) }
                    return finish(i, closed: true)
                }
                if n == 0 {
                    if slots[i].reused && !readers[i].started && !slots[i].retried { return again(i) }
                    do { try readers[i].closed() } catch { return end(i, .failed(failure(i, error.code, error.reason))) }
                    return finish(i, closed: true)
                }
                // When the wait found it there, as the runner measures the whole answer.
                if slots[i].firstByteAt == 0 { slots[i].firstByteAt = wokeAt }
                do {
                    // Only a redirect's exchange stops the reading (a body past its limit).
                    guard try readers[i].read(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), into: sinks[i]) else {
                        return stopped(i, by: sinks[i].redirect?.error ?? HTTPError.cancelled(url: sinks[i].url))
                    }
                } catch {
                    return end(i, .failed(failure(i, error.code, error.reason)))
                }
                if readers[i].isDone { return finish(i, closed: false) }
            }
        }
    }

    private func finish(_ i: Int, closed: Bool) {
        // The slot's fields read in place (a copy of the slot, request and all, cost as much as the rest).
        let timing = PlainTransfer.timing(start: slots[i].started, connectedAt: slots[i].connectedAt, firstByteAt: slots[i].firstByteAt, end: wokeAt)
        let connection = slots[i].connection
        // A status line the head did not give: the reader's (libcurl's code), as the general path takes it.
        let status = sinks[i].status == 0 ? readers[i].status : sinks[i].status
        if !closed && readers[i].reusable, let connection {
            connection.answersHTTP10 = readers[i].version == 10
        } else {
            slots[i].connection = nil
        }
        if let redirect = sinks[i].redirect, let connection {
            // Read whole, as `PlainTransfer` reads a hop: the general path goes on from it.
            var response: PekitResponse
            do { response = try redirect.complete() } catch { return stopped(i, by: error) }
            if response.status == 0 { response.status = readers[i].status }
            PlainTransfer.describe(&response, timing: timing, head: slots[i].head, connection: connection, reused: slots[i].reused)
            return self.end(i, .redirected(response))
        }
        self.end(i, .answered(status: status, bodyLength: sinks[i].bodyLength, timing: timing))
    }

    /// A redirect's exchange stopped: its error, as the general path reports it.
    private func stopped(_ i: Int, by error: Error) {
        sinks[i].redirect?.abandon()
        end(i, .failed(error as? HTTPError ?? failure(i, 23, "\(error)")))
    }

    private func end(_ i: Int, _ outcome: Outcome) {
        if case .failed = outcome { slots[i].connection = nil }
        let completion = slots[i].completion
        slots[i].completion = nil
        slots[i].request = nil
        slots[i].phase = .idle
        polls[i].fd = -1
        free.append(i)
        completion?(outcome)
    }

    private func failure(_ i: Int, _ code: Int, _ reason: String) -> HTTPError {
        HTTPError.transfer(method: slots[i].request?.method.rawValue ?? "GET", url: slots[i].request?.url ?? "", code: code, reason: reason,
                           hint: PekitClient.hint(CURLcode(rawValue: UInt32(code)), reason))
    }

    /// Ends every transfer in flight without an outcome (the run is over).
    func abandonAll() {
        for i in slots.indices where slots[i].phase != .idle {
            slots[i].completion = nil
            slots[i].connection = nil
            slots[i].phase = .idle
            polls[i].fd = -1
            free.append(i)
        }
    }
}
