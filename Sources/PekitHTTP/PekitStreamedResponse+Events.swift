import PekitCore

extension PekitStreamedResponse.Body {
    /// The body read as a server-sent event stream, as the HTML Standard's `EventSource` parses
    /// it (`EventStream`): each event as it is completed, the chunks it came in whatever they
    /// were. An event the stream leaves unfinished at its end is not given.
    ///
    /// ```swift
    /// let streamed = try await client.stream(request)
    /// for try await event in streamed.body.events { print(event.type, event.data) }
    /// ```
    public var events: PekitStreamedResponse.Events { PekitStreamedResponse.Events(body: self) }
}

extension PekitStreamedResponse {
    /// Server-sent events as an `AsyncSequence` (`body.events`). Iterating throws the
    /// transfer's error if it fails midway; leaving the loop stops the transfer.
    public struct Events: AsyncSequence, Sendable {
        public typealias Element = ServerSentEvent
        let body: Body

        /// Reads the events in order.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var chunks: Body.AsyncIterator
            var parser = EventStream()
            /// The events of the last chunk not yet given, last first (taken from the end).
            var ready: [ServerSentEvent] = []
            var ended = false

            /// The next event, or nil at the end of the stream.
            /// - Throws: the transfer's error, if it failed before the stream's end.
            public mutating func next() async throws -> ServerSentEvent? {
                while ready.isEmpty {
                    if ended { return nil }
                    guard let chunk = try await chunks.next() else {
                        parser.finish()
                        ended = true
                        return nil
                    }
                    ready = parser.feed(chunk).reversed()
                }
                return ready.removeLast()
            }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: body.makeAsyncIterator()) }
    }
}
