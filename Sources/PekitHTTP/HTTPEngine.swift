import CCurl
import CCurlShim
import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs many sends at once on one thread with libcurl's multi interface: the transfers share one
/// connection cache (keep-alive per host; with HTTP/2, requests to a host share a connection),
/// and each send's redirects, retries and rate waits go on while the others run. Callbacks
/// (sinks, progress, jar filters, completions) run on the thread that calls `run`.
///
/// Not thread-safe, and not reentrant: a completion or a callback that sends again must use
/// another engine (`HTTPClient` does this for its callers).
public final class HTTPEngine {
    /// A send in progress and what to call when it ends.
    final class Job {
        let operation: SendOperation
        let completion: (Result<HTTPResponse, Error>) -> Void
        var wakeAt = 0.0
        init(_ operation: SendOperation, _ completion: @escaping (Result<HTTPResponse, Error>) -> Void) {
            self.operation = operation
            self.completion = completion
        }
        /// Ctrl-C came (nothing new starts, no wait goes on).
        var isCancelled: Bool { operation.options.isCancelled?() == true }
        var cancelled: SendOperation.Step { .done(.failure(HTTPError.cancelled(url: operation.request.url))) }
    }

    private let multi: UnsafeMutableRawPointer
    private var idleHandles: [EasyHandle] = []
    private var running: [UnsafeMutableRawPointer: (job: Job, transfer: Transfer)] = [:]
    private var ready: [Job] = []
    private var sleeping: [Job] = []
    private var lastCancelCheck = 0.0
    /// Inside `step` (libcurl's callbacks may run user code that must not start another step here).
    public private(set) var isRunning = false

    /// - Throws: `HTTPError.setup` when libcurl cannot be loaded or initialised.
    public init() throws {
        try HTTPClient.loadCurl()
        guard let multi = pekit_curl.multi_init() else { throw HTTPError.setup("cannot initialise libcurl's multi interface") }
        self.multi = multi
    }

    deinit {
        for (handle, _) in running { _ = pekit_curl.multi_remove_handle(multi, handle) }
        // The handles are cleaned up (EasyHandle.deinit) before the multi handle they were in.
        running = [:]
        idleHandles = []
        _ = pekit_curl.multi_cleanup(multi)
    }

    /// Sends in flight, waiting or about to start.
    public var pending: Int { running.count + ready.count + sleeping.count }

    /// Starts sending `request`; `completion` gets the final response (an HTTP error status is a
    /// response) or the error, from within a later `step`.
    public func add(_ request: consuming HTTPRequest, options: consuming SendOptions, completion: @escaping (Result<HTTPResponse, Error>) -> Void) {
        ready.append(Job(SendOperation(request, options: options), completion))
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
        guard !(running.isEmpty && sleeping.isEmpty) else { return }
        var wait = timeout
        if let soonest = sleeping.map(\.wakeAt).min() { wait = min(wait, max(0, soonest - HTTPClient.now())) }
        // Ctrl-C is checked after each wait, so a wait is cut short to notice it soon.
        wait = min(wait, 0.05)
        if !running.isEmpty {
            // Transfers just added to an idle engine (one request after another) start at once;
            // otherwise wait for news (at once too when one just added has curl's timer at 0).
            if !idleBefore {
                var events: Int32 = 0
                _ = pekit_curl.multi_poll(multi, nil, 0, Int32((wait * 1000).rounded(.up)), &events)
            }
            var stillRunning: Int32 = 0
            _ = pekit_curl.multi_perform(multi, &stillRunning)
            collectFinished()
            stopCancelled()
        } else if wait > 0 {
            var t = timespec(tv_sec: 0, tv_nsec: Int(wait * 1e9))
            nanosleep(&t, nil)
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
        let now = HTTPClient.now()
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
                } else {
                    advance(job, job.operation.next(now: HTTPClient.now()))
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
            let now = HTTPClient.now()
            let easy: EasyHandle
            if let idle = idleHandles.popLast() { easy = idle } else {
                guard let fresh = EasyHandle() else {
                    return advance(job, job.operation.completed(.failure(HTTPError.setup("cannot initialise libcurl")), started: now, now: now))
                }
                easy = fresh
            }
            let handle = easy.pointer
            do {
                let transfer = try Transfer(easy: easy, request: request, options: job.operation.options, started: now, willFollow: willFollow)
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
    }

    /// Ends the transfers whose send was cancelled (Ctrl-C): removed from libcurl, a partial
    /// file deleted, the send failed with `HTTPError.cancelled`.
    private func stopCancelled() {
        // Twenty times a second is soon enough for a person, and costs nothing with many in flight.
        let now = HTTPClient.now()
        guard now - lastCancelCheck >= 0.05 else { return }
        lastCancelCheck = now
        for (handle, (job, transfer)) in running where transfer.exchange.shouldStop() {
            running[handle] = nil
            _ = pekit_curl.multi_remove_handle(multi, handle)
            idleHandles.append(transfer.easy)
            advance(job, job.operation.completed(Result { try transfer.finish(CURLE_ABORTED_BY_CALLBACK) }, started: transfer.started, now: now))
        }
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = pekit_curl.multi_info_read(multi, &left) {
            var easy: UnsafeMutableRawPointer?
            var code = CURLE_OK
            guard pekit_curl_msg_done(message, &easy, &code) != 0, let easy, let (job, transfer) = running.removeValue(forKey: easy) else { continue }
            _ = pekit_curl.multi_remove_handle(multi, easy)
            let result = Result { try transfer.finish(code) }
            idleHandles.append(transfer.easy)
            advance(job, job.operation.completed(result, started: transfer.started, now: HTTPClient.now()))
        }
    }
}
