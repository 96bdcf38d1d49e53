import PekitCore

extension PekitClient {
    /// Sends `request`, following redirects by `options`, without blocking the task's thread:
    /// the transfer runs on the client's sending thread, with every other async send of this
    /// client (connections are shared). The options' callbacks (sink, progress, trace, notices,
    /// the jar's filters) run on that thread.
    ///
    /// Cancelling the task stops the transfer within about 50 ms (a send waiting to retry, or on
    /// its rate limit, stops too) and throws `CancellationError`.
    /// - Returns: the final response; an HTTP error status (4xx, 5xx) is a response, not an error.
    /// - Throws: `CancellationError`; `HTTPError` for a failed transfer (naming the method, URL
    ///   and curl's reason), too many redirects or an unusable Location; the sink's or the jar's
    ///   filters' errors.
    public func send(_ request: PekitRequest, options: SendOptions = SendOptions()) async throws -> PekitResponse {
        try Task.checkCancellation()
        let driver = try asyncDriverForTasks()
        let cancelled = CancellationFlag()
        var options = options
        let asked = options.isCancelled
        options.isCancelled = { cancelled.isSet || asked?() == true }
        let sending = options
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PekitResponse, Error>) in
                    driver.submit(request, options: sending) { continuation.resume(with: $0) }
                }
            } onCancel: {
                cancelled.raise()
                driver.wake()
            }
        } catch let error as HTTPError {
            if cancelled.isSet, case .cancelled = error { throw CancellationError() }
            throw error
        }
    }

    /// Sends `requests` with at most `concurrency` in flight at once, and waits for all, without
    /// blocking the task's thread (see `send(_:options:) async`).
    /// - Returns: each request's response or error, in the order given; one failing does not
    ///   stop the rest. Cancelling the task cancels those in flight and those not yet started
    ///   (each then fails with `CancellationError`).
    public func sendAll(_ requests: [(PekitRequest, SendOptions)], concurrency: Int) async -> [Result<PekitResponse, Error>] {
        await withTaskGroup(of: (Int, Result<PekitResponse, Error>).self) { group in
            var results = [Result<PekitResponse, Error>](repeating: .failure(CancellationError()), count: requests.count)
            var next = 0
            func startNext() {
                guard next < requests.count else { return }
                let index = next, (request, options) = requests[index]
                next += 1
                group.addTask {
                    do { return (index, .success(try await self.send(request, options: options))) } catch { return (index, .failure(error)) }
                }
            }
            for _ in 0..<min(max(1, concurrency), requests.count) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                startNext()
            }
            return results
        }
    }
}
