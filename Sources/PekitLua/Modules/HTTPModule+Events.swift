import CLua
import CLuaShim
import PekitCore
import PekitHTTP

/// `pekit.http.events(url [, t])`: server-sent events as they arrive, as an iterator
/// (`for ev in pekit.http.events(url) do … end`), parsed as the HTML Standard's event-stream
/// algorithm says (`EventStream`). The request is sent as `EventSource` sends it (`Accept:
/// text/event-stream`, `Cache-Control: no-cache`), and refused, as `EventSource` refuses it,
/// unless the answer is a 200 with `Content-Type: text/event-stream`. With `reconnect = n`, a
/// stream that ends is opened again up to n times, after the delay its last `retry:` asked
/// (3 s without one), with `Last-Event-ID`. In a task (`pekit.spawn`), waiting for the next event
/// lets the other tasks run, so that several streams are read at once; elsewhere spawned tasks
/// run meanwhile too. Leaving the loop (`break`, an error) stops the transfer: the handle is the
/// loop's to-be-closed value.
extension HTTPModule {
    /// The fields `events` reads besides the request's and the send options.
    static let eventFields = ["reconnect"]
    /// The delay before a reconnection when the stream named none (`retry:`), in seconds: what
    /// browsers wait.
    static let defaultReconnectDelay = 3.0

    /// One stream a script reads: its transfer, its parser and the events not yet read.
    final class EventSource: @unchecked Sendable {
        // Touched only on the Lua thread: the engine calls the sink and the completion there,
        // and the scheduler its timers.
        /// Whether the stream goes on, ended for good, or failed (and why).
        enum State { case open, ended, failed(String) }

        var request: PekitRequest
        let options: SendOptions
        private(set) var parser = EventStream()
        /// Events not yet read: `queue[queueHead...]`.
        private var queue: [ServerSentEvent] = []
        private var queueHead = 0
        /// Why the final answer is no event stream, as its head says (nil: it is one).
        private var refusal: String?
        private(set) var state = State.open
        private var reconnectsLeft: Int
        var closed = false
        /// A task waiting for the next event, and how to wake it.
        var waiting: (() -> Void)?
        /// Starts the transfer again after a delay (the scheduler's timer).
        var restart: ((Double) -> Void)?

        init(request: PekitRequest, options: SendOptions, reconnects: Int) {
            self.request = request; self.options = options; reconnectsLeft = reconnects
        }

        /// Whether an event is waiting, or the stream is over: a wait for the next one is done.
        var isReady: Bool {
            if case .open = state { return queueHead < queue.count }
            return true
        }

        /// Why the answer is no event stream, as EventSource would fail it; nil when it is one.
        static func refusal(_ head: PekitResponse) -> String? {
            if head.status != 200 { return "the server answered \(head.status), not 200 with an event stream" }
            let type = head.header("Content-Type")?.description ?? ""
            let essence = String(type.split(separator: ";").first ?? "").lowercased().filter { $0 != " " && $0 != "\t" }
            if essence != "text/event-stream" { return "the server answered Content-Type \(type.isEmpty ? "(none)" : type), not text/event-stream" }
            return nil
        }

        /// Starts (or starts again) the transfer in `engine`.
        func start(in engine: HTTPEngine) {
            guard !closed else { state = .ended; return wakeWaiter() }
            var options = options
            // Weak: a handle the script let go (collected) stops its transfer. The head is
            // judged once, not at every chunk.
            options.head = { [weak self] in self?.refusal = Self.refusal($0) }
            options.sink = .custom { [weak self] chunk in
                guard let self, !closed else { throw SendOptions.StopBody() }
                if let refusal { throw LuaArgumentError(refusal) }
                queue += parser.feed(chunk)
                if queueHead < queue.count { wakeWaiter() }
            }
            let asked = options.isCancelled
            options.isCancelled = { [weak self] in self?.closed ?? true || asked?() == true }
            refusal = nil
            engine.add(request, options: options) { [weak self] result in self?.ended(result) }
        }

        /// The transfer ended: over for good, failed, or to be opened again.
        private func ended(_ result: Result<PekitResponse, Error>) {
            parser.finish()
            switch result {
            case .failure where closed: state = .ended
            case .failure(let error as LuaArgumentError): state = .failed("\(request.method) \(request.url): \(error)")
            case .failure(let error): state = .failed(HTTPModule.message(for: error, request))
            case .success(let response):
                if let refusal = Self.refusal(response), !closed {
                    state = .failed("\(request.method) \(request.url): \(refusal)")
                } else if reconnectsLeft > 0, !closed, let restart {
                    restart(prepareReconnect())
                    return
                } else {
                    state = .ended
                }
            }
            wakeWaiter()
        }

        func wakeWaiter() {
            let wake = waiting
            waiting = nil
            wake?()
        }

        /// The next event, if one came.
        func next() -> ServerSentEvent? {
            guard queueHead < queue.count else { return nil }
            defer {
                queueHead += 1
                if queueHead == queue.count { queue.removeAll(keepingCapacity: true); queueHead = 0 }
            }
            return queue[queueHead]
        }

        /// Prepares the reconnection (`Last-Event-ID` from the parser, a fresh parser) and
        /// returns its delay: the stream's `retry:`, or the default.
        private func prepareReconnect() -> Double {
            reconnectsLeft -= 1
            let delay = parser.retry.map { Double($0) / 1000 } ?? HTTPModule.defaultReconnectDelay
            var headers = request.headers
            headers.remove("Last-Event-ID")
            if !parser.lastEventId.isEmpty { try? headers.add("Last-Event-ID", parser.lastEventId) }
            request.headers = headers
            parser = EventStream(lastEventId: parser.lastEventId)
            return delay
        }
    }

    static func installEvents(into http: Int32, in runtime: LuaRuntime) {
        let sources = state(runtime).eventSources
        let meta = sources.install(in: runtime)
        let stack = runtime.stack
        // The handle is the loop's function (its __call gives the next event) and its
        // to-be-closed value (__close stops the transfer).
        // Its errors are named as the function the script called.
        runtime.pushFunction("pekit.http.events") { call in
            let source = try sources.object(at: 1, call, expected: "event stream (from pekit.http.events)")
            return try nextEvent(source, call)
        }
        stack.rawSet(meta, "__call")
        runtime.setFunction(meta, "pekit.http.events", "__close") { call in
            if let source = sources.object(at: 1, in: call.runtime) { source.closed = true; source.wakeWaiter() }
            return 0
        }
        stack.newTable()
        runtime.setFunction(-1, "pekit.http.events", "close") { call in
            let source = try sources.object(at: 1, call, expected: "event stream (from pekit.http.events)")
            source.closed = true
            return 0
        }
        runtime.setFunction(-1, "pekit.http.events", "last_event_id") { call in
            call.stack.push(try sources.object(at: 1, call, expected: "event stream (from pekit.http.events)").parser.lastEventId)
            return 1
        }
        stack.rawSet(meta, "__index")
        stack.pop()
        runtime.setFunction(http, "pekit.http", "events") { call in
            try call.require(.network)
            var builder = try urlAndFields(call, method: "GET", alsoAllowed: Self.eventFields)
            // What EventSource sends (the HTML Standard's "fetch" of an event source).
            if !builder.headers.contains(where: { PekitHeaders.sameName($0.name, "Accept") }) { builder.accept = "text/event-stream" }
            if !builder.headers.contains(where: { PekitHeaders.sameName($0.name, "Cache-Control") }) { builder.headers.append(.init("Cache-Control", "no-cache")) }
            let request = try builder.build()
            var reconnects = 0
            if try call.optionalTable(2), let fields = try LuaFields.read(call, argument: 2, known: RequestModule.requestFields + Self.sendFields + Self.eventFields) {
                if let n = try fields.integer("reconnect", in: 0...1_000_000) { reconnects = Int(n) }
            }
            let options = prepared(try sendOptions(from: call, argument: 2, base: SendOptions(cookiesOf: builder),
                                                   alsoAllowed: RequestModule.requestFields + Self.eventFields), for: request, in: call.runtime)
            let source = EventSource(request: request, options: options, reconnects: reconnects)
            let engine = try httpClient(call.runtime).engine
            source.restart = { [unowned scheduler = call.runtime.tasks, weak source] delay in
                scheduler.after(delay) { source?.start(in: engine) }
            }
            source.start(in: engine)
            // for ev in source: the handle is the function, and the to-be-closed value.
            sources.push(source, in: call.runtime)
            call.stack.pushNil()
            call.stack.pushNil()
            call.stack.pushValue(-3)
            return 4
        }
    }

    /// Pushes the next event's table, or nil at the end; waits for one when none has come.
    private static func nextEvent(_ source: EventSource, _ call: LuaCall) throws -> Int32 {
        let runtime = call.runtime
        while true {
            if let event = source.next() { push(event, in: runtime); return 1 }
            switch source.state {
            case .failed(let failure): throw LuaArgumentError(failure)
            case .ended: call.stack.pushNil(); return 1
            case .open: break
            }
            // Nothing yet: a task waits (the others run); elsewhere the tasks, the transfers and
            // a reconnection's timer run until an event comes or the stream is over.
            if let task = runtime.tasks.suspendable(call.L) {
                lua_settop(call.L, 0)
                task.state = .waiting
                source.waiting = { [unowned scheduler = runtime.tasks] in
                    scheduler.wake(task) { runtime in
                        if let event = source.next() {
                            runtime.stack.push(bool: true)
                            push(event, in: runtime)
                        } else if case .failed(let failure) = source.state {
                            runtime.stack.push(bool: false)
                            runtime.stack.push("pekit.http.events: \(failure)")
                        } else {
                            runtime.stack.push(bool: true)
                            runtime.stack.pushNil()
                        }
                        return 2
                    }
                }
                return PEKIT_YIELD
            }
            let scheduler = runtime.tasks
            guard !scheduler.isRunning, !isSending(runtime) else {
                throw LuaArgumentError("an event stream cannot be waited for inside a transfer's callback")
            }
            try scheduler.run(runtime, until: { source.isReady })
            if pekit_interrupt_pending() != 0 { throw LuaArgumentError("interrupted") }
        }
    }

    /// An event as a script reads it: `{type =, data =, id =}` (`id`: the last event ID then in force).
    static func push(_ event: ServerSentEvent, in runtime: LuaRuntime) {
        let stack = runtime.stack
        stack.newTable(nrec: 3)
        stack.push(event.type); stack.rawSet(-2, "type")
        stack.push(event.data); stack.rawSet(-2, "data")
        stack.push(event.lastEventId); stack.rawSet(-2, "id")
    }
}
