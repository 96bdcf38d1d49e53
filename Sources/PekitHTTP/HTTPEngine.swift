import CCurl
import CCurlShim
import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs many sends at once on one thread with libcurl's multi interface, and the transfers
/// `PlainTransfer` takes on connections of its own, all waited on together: the transfers share
/// connection caches (keep-alive per host; with HTTP/2, requests to a host share a connection),
/// and each send's redirects, retries and rate waits go on while the others run. Callbacks
/// (sinks, progress, jar filters, completions) run on the thread that calls `run`.
///
/// Not thread-safe, and not reentrant: a completion or a callback that sends again must use
/// another engine (`PekitClient` does this for its callers).
public final class HTTPEngine {
    /// A send in progress and what to call when it ends.
    final class Job {
        let operation: SendOperation
        let completion: (Result<PekitResponse, Error>) -> Void
        var wakeAt = 0.0
        /// The first hop's answer, where another sender made and read it (`add(_:options:answered:begun:completion:)`).
        var answered: (response: PekitResponse, begun: Double)?
        init(_ operation: SendOperation, _ completion: @escaping (Result<PekitResponse, Error>) -> Void) {
            self.operation = operation
            self.completion = completion
        }
        /// Ctrl-C came (nothing new starts, no wait goes on).
        var isCancelled: Bool { operation.options.isCancelled?() == true }
        var cancelled: SendOperation.Step { .done(.failure(HTTPError.cancelled(url: operation.request.url))) }
    }

    /// libcurl's multi handle, made (and libcurl loaded) when a transfer first needs libcurl:
    /// a script that only sends what `PlainTransfer` takes never loads it.
    private var multiHandle: UnsafeMutableRawPointer?
    private var idleHandles: [EasyHandle] = []
    private var running: [UnsafeMutableRawPointer: (job: Job, transfer: Transfer)] = [:]
    private var ready: [Job] = []
    private var sleeping: [Job] = []
    private var lastCancelCheck = 0.0
    /// Plain-HTTP transfers pekit runs itself (`PlainTransfer`), and what they keep between them.
    private var plain: [(job: Job, transfer: PlainTransfer)] = []
    private let plainCache = PlainCache()
    /// Scratch space plain transfers read into, and the poll lists.
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
    private var pollList: [pollfd] = []
    private var waitList: [curl_waitfd] = []
    /// When the last step's wait ended (monotonic seconds): the answers its completions report were
    /// there by then, however long the completions before theirs took (`LoadRunner` measures to it).
    public private(set) var wokeAt = 0.0
    /// Inside `step` (libcurl's callbacks may run user code that must not start another step here).
    public private(set) var isRunning = false
    /// A descriptor whose readability cuts a wait short (the read end of `AsyncDriver`'s pipe:
    /// a send submitted from another thread starts at once, not at the end of the wait); -1: none.
    var wakeDescriptor: Int32 = -1

    /// An engine; libcurl is loaded when a transfer first needs it (its failure to load is then
    /// that transfer's error, `HTTPError.setup`).
    public init() throws {}

    /// The multi handle, made on first use.
    private func curlMulti() throws -> UnsafeMutableRawPointer {
        if let multiHandle { return multiHandle }
        try PekitClient.loadCurl()
        guard let multi = pekit_curl.multi_init() else { throw HTTPError.setup("cannot initialise libcurl's multi interface") }
        // libcurl keeps up to 4 idle connections a transfer added by default: with many at once
        // that is more descriptors than the process may have. Kept below the limit instead.
        _ = pekit_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, PlainCache.connectionBudget)
        multiHandle = multi
        return multi
    }

    deinit {
        if let multi = multiHandle {
            for (handle, _) in running { _ = pekit_curl.multi_remove_handle(multi, handle) }
            // The handles are cleaned up (EasyHandle.deinit) before the multi handle they were in.
            running = [:]
            idleHandles = []
            _ = pekit_curl.multi_cleanup(multi)
        }
        readBuffer.deallocate()
    }

    /// Sends in flight, waiting or about to start.
    public var pending: Int { running.count + plain.count + ready.count + sleeping.count }

    /// Starts sending `request`; `completion` gets the final response (an HTTP error status is a
    /// response) or the error, from within a later `step`.
    public func add(_ request: consuming PekitRequest, options: consuming SendOptions, completion: @escaping (Result<PekitResponse, Error>) -> Void) {
        ready.append(Job(SendOperation(request, options: options), completion))
    }

    /// Goes on with a send whose first hop another sender made and read (`LoadRunner`'s fast
    /// path): `answer` is that hop's response, a redirect the send follows from here as if this
    /// engine had sent the hop; `completion` as `add(_:options:completion:)`'s.
    /// - Parameter begun: when the first hop went out (monotonic seconds): `timeout` bounds the
    ///   whole try from then.
    func add(_ request: consuming PekitRequest, options: consuming SendOptions, answered answer: consuming PekitResponse, begun: Double,
             completion: @escaping (Result<PekitResponse, Error>) -> Void) {
        let job = Job(SendOperation(request, options: options), completion)
        job.answered = (answer, begun)
        ready.append(job)
    }

    /// Moves every send on as far as it can without waiting more than `timeout` seconds for the
    /// network or a timer; runs the completions of those that ended.
    ///
    /// One wait and one `curl_multi_perform` a step, as curl's own tool does: a perform walks
    /// every transfer, so calling it more often than the network has news costs CPU for nothing.
    public func step(timeout: Double) {
        isRunning = true
        defer { isRunning = false }
        let idleBefore = running.isEmpty
        startReady()
        guard !(running.isEmpty && sleeping.isEmpty && plain.isEmpty) else { return }
        var wait = timeout
        if let soonest = sleeping.map(\.wakeAt).min() { wait = min(wait, max(0, soonest - PekitClient.now())) }
        var soonest = Double.infinity
        for entry in plain { soonest = min(soonest, entry.transfer.nextDeadline) }
        if soonest.isFinite { wait = min(wait, max(0, soonest - UnixTime.monotonic())) }
        // Ctrl-C is checked after each wait, so a wait is cut short to notice it soon.
        wait = min(wait, 0.05)
        if !running.isEmpty || !plain.isEmpty {
            // Transfers just added to an idle engine (one request after another) start at once;
            // otherwise wait for news (at once too when one just added has curl's timer at 0).
            let milliseconds = Int32((wait * 1000).rounded(.up))
            if running.isEmpty, plain.count == 1, sleeping.isEmpty, ready.isEmpty, let only = plain.first?.transfer, plainCache.spun(for: only) {
                only.ready = true
            } else if running.isEmpty {
                pollList.removeAll(keepingCapacity: true)
                for (_, transfer) in plain { pollList.append(pollfd(fd: transfer.connection.fd, events: transfer.events, revents: 0)) }
                if wakeDescriptor >= 0 { pollList.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
                _ = poll(&pollList, nfds_t(pollList.count), milliseconds)
                for (k, entry) in plain.enumerated() { entry.transfer.ready = pollList[k].revents != 0 }
            } else if plain.isEmpty, let multi = multiHandle {
                if !idleBefore {
                    waitList.removeAll(keepingCapacity: true)
                    if wakeDescriptor >= 0 { waitList.append(curl_waitfd(fd: wakeDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)) }
                    var events: Int32 = 0
                    _ = pekit_curl.multi_poll(multi, &waitList, UInt32(waitList.count), milliseconds, &events)
                }
            } else if let multi = multiHandle {
                // Both kinds: libcurl's sockets and the plain ones in one wait.
                waitList.removeAll(keepingCapacity: true)
                for (_, transfer) in plain { waitList.append(curl_waitfd(fd: transfer.connection.fd, events: transfer.events, revents: 0)) }
                if wakeDescriptor >= 0 { waitList.append(curl_waitfd(fd: wakeDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)) }
                var events: Int32 = 0
                _ = pekit_curl.multi_poll(multi, &waitList, UInt32(waitList.count), idleBefore ? 0 : milliseconds, &events)
                for (k, entry) in plain.enumerated() { entry.transfer.ready = waitList[k].revents != 0 }
            }
            wokeAt = UnixTime.monotonic()
            if !plain.isEmpty { stepPlain() }
            if !running.isEmpty, let multi = multiHandle {
                var stillRunning: Int32 = 0
                _ = pekit_curl.multi_perform(multi, &stillRunning)
                collectFinished()
            }
            stopCancelled()
        } else if wait > 0 {
            if wakeDescriptor >= 0 {
                var wake = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&wake, 1, Int32((wait * 1000).rounded(.up)))
            } else {
                var t = timespec(tv_sec: 0, tv_nsec: Int(wait * 1e9))
                nanosleep(&t, nil)
            }
        }
        wakeSleepers()
        startReady()
    }

    /// Runs until `done` says so or nothing is left to run.
    public func run(until done: () -> Bool) {
        while !done() && pending > 0 { step(timeout: 1) }
    }

    private func wakeSleepers() {
        guard !sleeping.isEmpty else { return }
        let now = PekitClient.now()
        var still: [Job] = []
        for job in sleeping {
            if job.isCancelled {
                advance(job, job.cancelled)
            } else if job.wakeAt <= now {
                ready.append(job)
            } else {
                still.append(job)
            }
        }
        sleeping = still
    }

    private func startReady() {
        while !ready.isEmpty {
            let batch = ready
            ready = []
            for job in batch {
                // After Ctrl-C nothing new starts.
                if job.isCancelled {
                    advance(job, job.cancelled)
                } else if let (answer, begun) = job.answered {
                    job.answered = nil
                    advance(job, job.operation.resumed(after: answer, begun: begun, now: PekitClient.now()))
                } else {
                    advance(job, job.operation.next(now: PekitClient.now()))
                }
            }
        }
    }

    /// Acts on what a send asks for next.
    private func advance(_ job: Job, _ step: SendOperation.Step) {
        switch step {
        case .done(let result):
            job.completion(result)
        case .wait(let until):
            job.wakeAt = until
            sleeping.append(job)
        case .transfer(let request, let willFollow):
            if startPlain(job, request, willFollow) { return }
            startCurl(job, request, willFollow)
        }
    }

    /// Starts `request` on a plain connection when `Transport` chooses pekit's transfer and an
    /// address is known without resolving: returns whether it did.
    private func startPlain(_ job: Job, _ request: PekitRequest, _ willFollow: @escaping Exchange.WillFollow) -> Bool {
        let operation = job.operation
        guard Transport.choose(request, options: operation.transportReason, proxySet: operation.proxySet) == .plain, let route = PlainRoute(request),
              let (connection, reused) = plainCache.connection(for: route, now: PekitClient.now()) else { return false }
        let exchange = Exchange(body: BodyStream([]), options: operation.options, url: request.url, willFollow: willFollow)
        if let trace = operation.options.trace {
            // -v and --trace-ascii show this transfer's own exchange, in curl's words.
            exchange.trace = trace
            exchange.tracesReads = true
            trace(.text, Array("sent by \(Transport.plain)\n".utf8))
            trace(.text, Array((reused ? "Re-using existing connection with host \(route.host)\n" : "  Trying \(HostMapping.bracketed(connection.address)):\(connection.port)...\n").utf8))
        }
        var head = plainCache.head(of: request)
        if reused && connection.answersHTTP10 { head = PlainTransfer.asHTTP10(head) }
        move(job, PlainTransfer(request: request, head: head, exchange: exchange, connection: connection, reused: reused,
                                started: PekitClient.now(),
                                timeouts: .init(connect: operation.options.connectSeconds, total: operation.options.timeoutSeconds,
                                                begun: operation.tryBegun ?? UnixTime.monotonic())))
        return true
    }

    /// Moves `transfer` on and acts on where it got. A new transfer takes its first step here
    /// at once: its request head fits in the socket's buffer and is written without a wait.
    private func move(_ job: Job, _ transfer: PlainTransfer) {
        transfer.ready = false
        switch transfer.step(readBuffer) {
        case .running:
            plain.append((job, transfer))
        case .handOver:
            // A kept-alive connection the server had closed: once more on a new one, as curl
            // does. A connection that could not be made: libcurl's turn (its error, its words).
            let old = transfer.connection
            if transfer.reused, let fresh = PlainConnection.start(address: old.address, port: old.port, key: old.key) {
                transfer.exchange.trace?(.text, Array("Connection died, retrying a fresh connect\n  Trying \(HostMapping.bracketed(old.address)):\(old.port)...\n".utf8))
                move(job, PlainTransfer(request: transfer.request, head: transfer.head, exchange: transfer.exchange, connection: fresh, reused: false,
                                        started: transfer.started, timeouts: transfer.timeouts))
            } else {
                startCurl(job, transfer.request, transfer.exchange.willFollow)
            }
        case .done(let result):
            endPlain(job, transfer, result)
        }
    }

    /// Moves on the plain transfers the last wait found ready; ends those that are done (the
    /// sends they finish may start new ones, which take their first step as they start).
    private func stepPlain() {
        let current = plain
        plain.removeAll(keepingCapacity: true)
        let now = UnixTime.monotonic()
        for (job, transfer) in current {
            if case .done(let result)? = transfer.timedOut(now: now) {
                endPlain(job, transfer, result)
            } else if transfer.ready {
                move(job, transfer)
            } else {
                plain.append((job, transfer))
            }
        }
    }

    /// A plain transfer's end: its connection kept for the next request when the response left
    /// it clean, the send moved on.
    private func endPlain(_ job: Job, _ transfer: PlainTransfer, _ result: Result<PekitResponse, Error>) {
        plainCache.noteAnswer(after: transfer.answerWait)
        var kept = false
        if case .success = result, transfer.reader.reusable { kept = true }
        transfer.exchange.trace?(.text, Array((kept ? "Connection to \(transfer.connection.key) left intact\n" : "Closing connection to \(transfer.connection.key)\n").utf8))
        if kept {
            transfer.connection.answersHTTP10 = transfer.reader.version == 10
            plainCache.keep(transfer.connection, now: PekitClient.now())
        }
        advance(job, job.operation.completed(result, started: transfer.started, now: PekitClient.now()))
    }

    /// Starts `request` with libcurl.
    private func startCurl(_ job: Job, _ request: PekitRequest, _ willFollow: @escaping Exchange.WillFollow) {
        let now = PekitClient.now()
        let multi: UnsafeMutableRawPointer
        do { multi = try curlMulti() } catch {
            return advance(job, job.operation.completed(.failure(error), started: now, now: now))
        }
        let easy: EasyHandle
        if let idle = idleHandles.popLast() { easy = idle } else {
            guard let fresh = EasyHandle() else {
                return advance(job, job.operation.completed(.failure(HTTPError.setup("cannot initialise libcurl")), started: now, now: now))
            }
            easy = fresh
        }
        let handle = easy.pointer
        do {
            // -v says which sender sent each request, and why (libcurl's own notes follow).
            if let trace = job.operation.options.trace {
                trace(.text, Array("sent by \(Transport.choose(request, options: job.operation.transportReason, proxySet: job.operation.proxySet))\n".utf8))
            }
            let transfer = try Transfer(easy: easy, request: request, options: job.operation.options, timeout: job.operation.remainingTimeout,
                                        started: now, willFollow: willFollow)
            let code = pekit_curl.multi_add_handle(multi, handle)
            guard code == CURLM_OK else {
                idleHandles.append(easy)
                let reason = pekit_curl.multi_strerror(code).map { cText($0) } ?? "error \(code.rawValue)"
                throw HTTPError.setup("\(request.method) \(request.url): libcurl could not start the transfer (\(reason))")
            }
            running[handle] = (job, transfer)
        } catch {
            idleHandles.append(easy)
            advance(job, job.operation.completed(.failure(error), started: now, now: now))
        }
    }

    /// Ends the transfers whose send was cancelled (Ctrl-C): removed from libcurl, a partial
    /// file deleted, the send failed with `HTTPError.cancelled`.
    private func stopCancelled() {
        // Twenty times a second is soon enough for a person, and costs nothing with many in flight.
        let now = PekitClient.now()
        guard now - lastCancelCheck >= 0.05 else { return }
        lastCancelCheck = now
        var i = 0
        while i < plain.count {
            let (job, transfer) = plain[i]
            guard transfer.exchange.shouldStop() else { i += 1; continue }
            plain.remove(at: i)
            advance(job, job.operation.completed(Result { try transfer.exchange.complete() }, started: transfer.started, now: now))
        }
        guard let multi = multiHandle else { return }
        for (handle, (job, transfer)) in running where transfer.exchange.shouldStop() {
            running[handle] = nil
            _ = pekit_curl.multi_remove_handle(multi, handle)
            idleHandles.append(transfer.easy)
            advance(job, job.operation.completed(Result { try transfer.finish(CURLE_ABORTED_BY_CALLBACK) }, started: transfer.started, now: now))
        }
    }

    private func collectFinished() {
        guard let multi = multiHandle else { return }
        var left: Int32 = 0
        while let message = pekit_curl.multi_info_read(multi, &left) {
            var easy: UnsafeMutableRawPointer?
            var code = CURLE_OK
            guard pekit_curl_msg_done(message, &easy, &code) != 0, let easy, let (job, transfer) = running.removeValue(forKey: easy) else { continue }
            _ = pekit_curl.multi_remove_handle(multi, easy)
            let result = Result { try transfer.finish(code) }
            if case .success(let response) = result, !response.remoteAddress.isEmpty, Transport.choose(transfer.request, options: job.operation.transportReason, proxySet: job.operation.proxySet) == .plain,
               let route = PlainRoute(transfer.request), route.literalAddress == nil {
                plainCache.learn(route, address: response.remoteAddress, now: PekitClient.now())
            }
            idleHandles.append(transfer.easy)
            advance(job, job.operation.completed(result, started: transfer.started, now: PekitClient.now()))
        }
    }
}
