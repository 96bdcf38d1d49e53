import PekitCore

/// A response whose body is read as it arrives: the head (status, fields) once it came, and the
/// body as an `AsyncSequence` of byte chunks, as `URLSession.bytes(for:)` and AsyncHTTPClient's
/// `HTTPClientResponse.body` give them.
public struct PekitStreamedResponse: Sendable {
    /// The final response's status line and fields (after any redirect followed), with no body.
    public let head: PekitResponse
    /// The body, chunk by chunk as the network delivers it.
    public let body: Body

    /// The body of a streamed response: each element a chunk of bytes as it arrived (a size the
    /// network chose). Iterating throws the transfer's error if it fails midway (a timeout, a
    /// reset, a body over `maxBody`). Ending the iteration early (a `break`, the task
    /// cancelled) stops the transfer. One iteration only: a second iterator gets nothing.
    ///
    /// Chunks not yet read are held in memory: the transfer runs on the client's sending
    /// thread, shared with every other send, so it is never made to wait for a slow reader.
    public struct Body: AsyncSequence, Sendable {
        public typealias Element = [UInt8]
        let chunks: AsyncThrowingStream<[UInt8], Error>

        /// Reads the chunks in order.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<[UInt8], Error>.AsyncIterator
            /// The next chunk, or nil at the end of the body.
            /// - Throws: the transfer's error, if it failed before the body's end.
            public mutating func next() async throws -> [UInt8]? { try await base.next() }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: chunks.makeAsyncIterator()) }

        /// The whole body, read to its end (for a body known to be small).
        /// - Throws: the transfer's error.
        public func collect() async throws -> [UInt8] {
            var all: [UInt8] = []
            for try await chunk in self { all += chunk }
            return all
        }
    }
}

extension PekitClient {
    /// Sends `request` and returns as soon as the final response's head arrived, with its body as
    /// an `AsyncSequence` of chunks: server-sent events, a log tail, a large download read as it
    /// comes. Redirects, the jar, retries and the other options apply as for `send(_:options:)`;
    /// the options' `sink` and `head` are the stream's own.
    ///
    /// ```swift
    /// let response = try await client.stream(request)
    /// guard response.head.status == 200 else { … }
    /// for try await chunk in response.body { … }
    /// ```
    /// - Returns: the head, and the body to iterate.
    /// - Throws: what `send(_:options:)` throws before the head arrived (`HTTPError`,
    ///   `CancellationError`); later errors are thrown by the body's iteration.
    public func stream(_ request: PekitRequest, options: SendOptions = SendOptions()) async throws -> PekitStreamedResponse {
        let (chunks, continuation) = AsyncThrowingStream<[UInt8], Error>.makeStream()
        let stopped = CancellationFlag()
        let head = HeadWaiter()
        continuation.onTermination = { _ in stopped.raise() }
        var options = options
        options.sink = .custom { chunk in
            if stopped.isSet { throw SendOptions.StopBody() }
            continuation.yield(chunk)
        }
        options.head = { head.resolve(.success($0)) }
        let asked = options.isCancelled
        options.isCancelled = { stopped.isSet || asked?() == true }
        let sending = options
        // The send outlives this call (the body is read after it returns), so it is a task of
        // its own, stopped through the stream's termination or the caller's cancellation.
        let transfer = Task {
            do {
                // A response with no body has told nothing yet: the whole response (its body
                // went to the sink, so it holds none) is its head.
                head.resolve(.success(try await self.send(request, options: sending)))
                continuation.finish()
            } catch {
                head.resolve(.failure(error))
                continuation.finish(throwing: error)
            }
        }
        return try await withTaskCancellationHandler {
            PekitStreamedResponse(head: try await head.value(), body: .init(chunks: chunks))
        } onCancel: {
            stopped.raise()
            transfer.cancel()
        }
    }
}

/// The head of a streamed response, given once from the sending thread and awaited by the caller.
private final class HeadWaiter: @unchecked Sendable {
    private let lock = RecursiveLock()
    private var result: Result<PekitResponse, Error>?
    private var waiter: CheckedContinuation<PekitResponse, Error>?

    /// Gives the head (or the error that came instead); only the first is kept.
    func resolve(_ given: Result<PekitResponse, Error>) {
        let resumed: CheckedContinuation<PekitResponse, Error>? = lock.locked {
            guard result == nil else { return nil }
            result = given
            defer { waiter = nil }
            return waiter
        }
        resumed?.resume(with: given)
    }

    /// The head, once given.
    func value() async throws -> PekitResponse {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<PekitResponse, Error>? = lock.locked {
                if let result { return result }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
