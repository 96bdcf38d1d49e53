import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs a load plan: sends the requests a source gives, on one `HTTPEngine` (the path every
/// other send takes: pekit's own HTTP/1.1 transport where it applies, libcurl elsewhere), and
/// records what came back in a `LoadResult`.
///
/// The source and the check run on the thread that calls `run` (a Lua function may be either).
/// Memory does not grow with the run's length: histograms have a fixed size, and the timeline
/// takes a few bytes a second.
///
/// At the end of a `duration`, requests still in flight are not waited for. One that has waited
/// longer than every answer of the run counts as a timeout (a server that stopped answering is
/// not hidden by leaving its requests out); the others are reported as `unanswered`.
public final class LoadRunner {
    /// The request numbered `n` (0, 1, …, warm-up requests included) and its send options, or
    /// nil to end the run early.
    public typealias Source = (_ n: Int) throws -> (request: PekitRequest, options: SendOptions)?
    /// Why an answer does not count as a success, or nil when it does.
    public typealias Check = (PekitResponse) -> String?

    /// Requests that depend on each other: each virtual user sends `steps` requests one after
    /// another, each once the one before it was answered (a login, then the calls that use its
    /// token), and then starts again at the first. In the closed model there are `connections`
    /// users; in the open model (`rate`) each start of the schedule is a new user going through
    /// the steps once, its later steps sent as soon as the step before is answered.
    public struct Scenario {
        /// How many steps a user goes through.
        public let steps: Int
        /// The request of step `index` (from 0) of virtual user `user` (from 0), given the answer
        /// to the step before it (nil for the first step, or where the step before failed); nil
        /// to stop that user.
        public let step: (_ user: Int, _ index: Int, _ previous: PekitResponse?) throws -> (request: PekitRequest, options: SendOptions)?

        /// - Parameters:
        ///   - steps: how many steps (at least 1).
        ///   - step: the request of each step, as above.
        public init(steps: Int, step: @escaping (_ user: Int, _ index: Int, _ previous: PekitResponse?) throws -> (request: PekitRequest, options: SendOptions)?) {
            self.steps = steps
            self.step = step
        }
    }

    /// Where a run is, for a progress line (about five times a second).
    public struct Progress: Sendable {
        /// Seconds since the run started (the warm-up included).
        public var elapsed: Double
        /// Whether the warm-up is still going on.
        public var warmingUp: Bool
        /// Requests ended while measuring, and the failed ones among them.
        public var requests: Int64, errors: Int64
        /// Requests ended in the last second.
        public var recentRate: Double
        /// The median and the 99th percentile of the latencies measured so far (microseconds).
        public var p50: Int64, p99: Int64
        /// The share of the run done (0 to 1), by time or by requests.
        public var done: Double
    }

    let plan: LoadPlan
    let source: Source
    let check: Check?
    let naming: HTTPError.Naming
    /// The one request of a run that sends nothing else (`init(plan:request:options:)`).
    private let constant: (request: PekitRequest, options: SendOptions)?
    /// The scenario of a run of dependent steps (`init(plan:scenario:)`).
    private let scenario: Scenario?
    /// Whether requests may take `LoadConnections` where they qualify (tests compare the two
    /// paths by turning it off).
    var usesFastPath = true
    /// How many requests of the last run went on the fast path (for tests).
    private(set) var fastPathRequests = 0

    /// - Parameters:
    ///   - plan: connections, schedule, length (validated by `run`).
    ///   - source: the requests, one call each.
    ///   - check: nil to count an answer of 400 or more as an error (`status`); otherwise its
    ///     verdict (`check`), the status aside.
    ///   - naming: how error messages name options (the command line's flags, Lua's fields).
    public init(plan: LoadPlan, source: @escaping Source, check: Check? = nil, naming: HTTPError.Naming = .swift) {
        self.plan = plan
        self.source = source
        self.check = check
        self.naming = naming
        constant = nil
        scenario = nil
    }

    /// A run of `scenario`'s steps, by virtual users (`Scenario`).
    /// - Parameters: as `init(plan:source:check:naming:)`; `scenario`: the steps.
    public init(plan: LoadPlan, scenario: Scenario, check: Check? = nil, naming: HTTPError.Naming = .swift) {
        self.plan = plan
        source = { _ in nil }
        self.check = check
        self.naming = naming
        constant = nil
        self.scenario = scenario
    }

    /// A run that sends `request` with `options` again and again. Without a check, where the
    /// general path would do nothing but send it and read the answer, it takes the fast path
    /// (`LoadConnections`: the same head bytes, the same reader of the answer, nothing else a
    /// request).
    public init(plan: LoadPlan, request: PekitRequest, options: SendOptions, check: Check? = nil, naming: HTTPError.Naming = .swift) {
        self.plan = plan
        source = { _ in (request, options) }
        self.check = check
        self.naming = naming
        constant = (request, options)
        scenario = nil
    }

    /// A request in flight: when it started and when the schedule meant it to.
    private final class Flight {
        let started: Double, intended: Double, measured: Bool
        var over = false
        /// The virtual user and step of a scenario's request (-1: none).
        var user = -1, index = 0
        init(started: Double, intended: Double, measured: Bool) { self.started = started; self.intended = intended; self.measured = measured }
    }

    /// What became of a request, on either path.
    private enum Ending {
        case answered(status: Int, bodyLength: Int, timing: PekitResponse.Timing, response: PekitResponse?)
        case failed(Error)
    }

    /// Raised when the run ends: the sends still in flight stop.
    private final class EndFlag: @unchecked Sendable { var raised = false }

    /// Runs the plan.
    /// - Parameters:
    ///   - progress: called about five times a second, and once at the end.
    ///   - stop: asked between steps; true ends the run as its duration would (Ctrl-C).
    /// - Returns: what was measured.
    /// - Throws: `LoadPlan.Invalid`; the source's error (the run stops there, nothing returned).
    public func run(progress: ((Progress) -> Void)? = nil, stop: (() -> Bool)? = nil) throws -> LoadResult {
        try plan.validate()
        var result = try LoadResult(plan: plan)
        let engine = try HTTPEngine()
        let flag = EndFlag()
        // The fast path, for requests that qualify (`LoadConnections.route(for:)`) and go where
        // the first that qualified went; made with that first request. A constant request that
        // qualifies takes it every time, with its head made once.
        var fast: LoadConnections?
        var triesFast = usesFastPath && check == nil && scenario == nil
        var constantHead: [UInt8]?
        if triesFast, let constant {
            if let route = LoadConnections.route(for: constant.request, options: constant.options) {
                fast = LoadConnections(route: route, connections: plan.connections)
                constantHead = constant.request.head()
            } else {
                triesFast = false
            }
        }
        let start = UnixTime.monotonic()
        let measureFrom = start + plan.warmup
        result.startTime = UnixTime.now() + plan.warmup
        let end = plan.duration.map { measureFrom + $0 }
        let interval = plan.rate.map { 1 / $0 }
        var nextIntended = start
        var launched = 0, measuredLaunched = 0
        var flights: [Flight] = []
        var sourceDone = false
        var lastProgress = start, lastCount: Int64 = 0, lastCountAt = start, recentRate = 0.0
        var failure: Error?
        // The current second's latencies, written to `result.intervals` when a later second begins.
        var thisSecond = try LatencyHistogram()
        var intervalSecond = 0
        func closeInterval(until next: Int) {
            if thisSecond.count > 0 {
                result.intervals.append(.init(start: Double(intervalSecond), length: 1, max: thisSecond.max, histogram: thisSecond.compressedEncoding()))
                thisSecond.reset()
            }
            intervalSecond = next
        }

        // A scenario's users whose next step can go: the user, the step, the answer before it.
        var ready: [(user: Int, index: Int, previous: PekitResponse?)] = []
        var users = 0, stoppedUsers = 0
        if let scenario, interval == nil {
            users = plan.connections
            ready = (0..<users).map { ($0, 0, nil) }
            if scenario.steps < 1 { ready = [] }
        }

        /// `wokeAt`: when the wait that found the answer ended.
        func record(_ flight: Flight, _ outcome: Ending, wokeAt: Double) {
            flight.over = true
            guard !flag.raised else { return }
            if let scenario, flight.user >= 0 {
                var previous: PekitResponse?
                if case .answered(_, _, _, let response) = outcome { previous = response }
                if flight.index + 1 < scenario.steps {
                    ready.append((flight.user, flight.index + 1, previous))
                } else if interval == nil {
                    ready.append((flight.user, 0, nil))
                }
            }
            guard flight.measured else { result.warmupRequests += 1; return }
            // The answer was there when the wait ended: the completions handled before this one
            // in the same step (a hundred answers at once) are not its latency.
            let now = wokeAt > flight.started ? wokeAt : UnixTime.monotonic()
            result.requests += 1
            let secondIndex = Swift.max(0, Int(now - measureFrom))
            while result.timeline.count <= secondIndex { result.timeline.append(LoadResult.Second()) }
            result.timeline[secondIndex].requests += 1
            var problem: (kind: String, message: String)?
            switch outcome {
            case .failed(let error):
                problem = (LoadResult.kind(of: error), (error as? HTTPError)?.message(naming) ?? "\(error)")
            case .answered(let status, let bodyLength, let t, let response):
                result.statuses[status, default: 0] += 1
                result.bytesReceived += Int64(bodyLength)
                let micro = { (seconds: Double) in Swift.min(Int64((seconds * 1e6).rounded()), 3_600_000_000) }
                try? result.latency.record(micro(now - flight.started))
                try? result.corrected?.record(micro(now - flight.intended))
                if secondIndex != intervalSecond { closeInterval(until: secondIndex) }
                try? thisSecond.record(micro(now - (result.corrected == nil ? flight.started : flight.intended)))
                for (i, value) in [t.dns, t.connect, t.tls, t.firstByte, t.total].enumerated() {
                    try? result.phases[i].histogram.record(micro(Swift.max(0, value)))
                }
                if let check, let response {
                    if let why = check(response) { problem = ("check", why) }
                } else if status >= 400 {
                    problem = ("status", "HTTP \(status)")
                }
            }
            if let problem {
                result.errors[problem.kind, default: 0] += 1
                result.timeline[secondIndex].errors += 1
                result.note(problem.message)
            }
        }

        // One closure for every send of the run, not one a request.
        let cancelled: @Sendable () -> Bool = { flag.raised }

        /// A request going out now, counted (either path).
        func takeOff(_ intended: Double) -> Flight {
            let now = UnixTime.monotonic()
            let flight = Flight(started: now, intended: Swift.min(intended, now), measured: now >= measureFrom)
            launched += 1
            if flight.measured { measuredLaunched += 1 }
            flights.append(flight)
            return flight
        }

        /// Sends one request on the general path; or, with `answered`, goes on there from the
        /// redirect the fast path read for it.
        func send(_ request: PekitRequest, _ given: SendOptions, _ flight: Flight, answered: PekitResponse? = nil) {
            var options = given
            if options.timeoutSeconds == nil { options.timeoutSeconds = plan.timeout }
            options.isCancelled = cancelled
            let completion = { (outcome: Result<PekitResponse, Error>) in
                switch outcome {
                case .success(let response):
                    record(flight, .answered(status: response.status, bodyLength: response.bodyLength, timing: response.timing, response: response), wokeAt: engine.wokeAt)
                case .failure(let error): record(flight, .failed(error), wokeAt: engine.wokeAt)
                }
            }
            if let answered {
                engine.add(request, options: options, answered: answered, begun: flight.started, completion: completion)
            } else {
                engine.add(request, options: options, completion: completion)
            }
        }

        fastPathRequests = 0
        /// Sends one request on the fast path.
        func sendFast(_ fast: LoadConnections, _ request: PekitRequest, head: [UInt8], _ options: borrowing SendOptions, _ flight: Flight) {
            fastPathRequests += 1
            // Only a request that follows redirects keeps its options, for the general path to follow one with.
            let follow: ((PekitResponse) -> Void)? = options.followRedirects ? { [options = copy options] answer in send(request, options, flight, answered: answer) } : nil
            fast.start(request, head: head, timeout: options.timeoutSeconds ?? plan.timeout, connectTimeout: options.connectSeconds, follows: follow != nil) { outcome in
                switch outcome {
                case .answered(let status, let bodyLength, let timing):
                    record(flight, .answered(status: status, bodyLength: bodyLength, timing: timing, response: nil), wokeAt: fast.wokeAt)
                case .redirected(let answer): follow?(answer)
                case .failed(let error): record(flight, .failed(error), wokeAt: fast.wokeAt)
                }
            }
        }

        /// A scenario's step for a user: false when the user stopped (its step gave nil).
        func launchStep(_ scenario: Scenario, _ next: (user: Int, index: Int, previous: PekitResponse?), intended: Double) throws -> Bool {
            guard let (request, options) = try scenario.step(next.user, next.index, next.previous) else {
                stoppedUsers += 1
                return false
            }
            let flight = takeOff(intended)
            flight.user = next.user
            flight.index = next.index
            send(request, options, flight)
            return true
        }

        func launch(intended: Double) throws {
            if let scenario {
                if interval != nil {
                    // The open model: each start of the schedule is a new user's first step.
                    users += 1
                    _ = try launchStep(scenario, (users - 1, 0, nil), intended: intended)
                } else if !ready.isEmpty {
                    _ = try launchStep(scenario, ready.removeFirst(), intended: intended)
                }
                if interval == nil && stoppedUsers >= users { sourceDone = true }
                return
            }
            if let fast, let constant, let constantHead {
                sendFast(fast, constant.request, head: constantHead, constant.options, takeOff(intended))
                return
            }
            guard let (request, given) = try source(launched) else {
                sourceDone = true
                return
            }
            if triesFast, let route = LoadConnections.route(for: request, options: given) {
                let connections = fast ?? LoadConnections(route: route, connections: plan.connections)
                fast = connections
                if connections.serves(route) {
                    sendFast(connections, request, head: request.head(), given, takeOff(intended))
                    return
                }
            }
            send(request, given, takeOff(intended))
        }

        func report(_ now: Double) {
            guard let progress else { return }
            if now - lastCountAt >= 1 {
                recentRate = Double(result.requests - lastCount) / (now - lastCountAt)
                lastCount = result.requests
                lastCountAt = now
            }
            let done: Double
            if let end { done = Swift.min(1, Swift.max(0, (now - start) / (end - start))) } else if let n = plan.requests {
                done = Double(result.requests) / Double(n)
            } else { done = 0 }
            progress(Progress(elapsed: now - start, warmingUp: now < measureFrom, requests: result.requests, errors: result.errorCount,
                              recentRate: recentRate, p50: result.latency.value(atPercentile: 50), p99: result.latency.value(atPercentile: 99), done: done))
        }

        var stopped = false
        while true {
            var now = UnixTime.monotonic()
            if let end, now >= end { break }
            if stop?() == true { stopped = true; break }
            flights.removeAll { $0.over }
            let allSent = sourceDone || (plan.requests.map { measuredLaunched >= $0 } ?? false)
            if allSent && flights.isEmpty { break }
            if !allSent {
                do {
                    if let interval {
                        // A scenario's later steps go as soon as they can, off the schedule.
                        while let scenario, !ready.isEmpty, flights.count < plan.connections, plan.requests.map({ measuredLaunched < $0 }) ?? true {
                            _ = try launchStep(scenario, ready.removeFirst(), intended: now)
                        }
                        while flights.count < plan.connections, nextIntended <= now, !sourceDone, plan.requests.map({ measuredLaunched < $0 }) ?? true {
                            try launch(intended: nextIntended)
                            nextIntended += interval
                        }
                    } else {
                        while flights.count < plan.connections, !sourceDone, plan.requests.map({ measuredLaunched < $0 }) ?? true {
                            if scenario != nil && ready.isEmpty { break }
                            try launch(intended: now)
                        }
                    }
                } catch {
                    failure = error
                    break
                }
            }
            now = UnixTime.monotonic()
            var wait = 0.05
            if interval != nil && !allSent { wait = Swift.min(wait, Swift.max(0, nextIntended - now)) }
            if let end { wait = Swift.min(wait, Swift.max(0, end - now)) }
            let fastBusy = (fast?.inFlight ?? 0) > 0
            if let fast, fastBusy, engine.pending > 0 {
                // Requests out on both paths (a script's requests to more than one place): each
                // waits in turn, the fast path briefly.
                fast.step(timeout: Swift.min(wait, 0.001))
                engine.step(timeout: 0)
            } else if let fast, fastBusy {
                fast.step(timeout: wait)
            } else if engine.pending > 0 {
                engine.step(timeout: wait)
            } else if wait > 0 {
                var t = timespec(tv_sec: 0, tv_nsec: Int(wait * 1e9))
                nanosleep(&t, nil)
            }
            now = UnixTime.monotonic()
            if now - lastProgress >= 0.2 {
                lastProgress = now
                report(now)
            }
        }
        let finished = UnixTime.monotonic()
        closeInterval(until: intervalSecond)
        result.seconds = Swift.max(0, (end.map { Swift.min($0, finished) } ?? finished) - measureFrom)
        if stopped { result.seconds = Swift.max(0, finished - measureFrom) }
        // What is still in flight: a request that waited longer than every answer is a timeout.
        let longest = Double(result.latency.max) / 1e6
        for flight in flights where !flight.over && flight.measured {
            if finished - flight.started > longest {
                result.requests += 1
                result.errors["timeout", default: 0] += 1
                result.note("no answer in \(Int((finished - flight.started) * 1000)) ms, when the run ended")
                if !result.timeline.isEmpty { result.timeline[result.timeline.count - 1].errors += 1 }
            } else {
                result.unanswered += 1
            }
        }
        if let interval {
            // The schedule's starts that never went out (every connection was busy).
            let due = Int64(((end.map { Swift.min($0, finished) } ?? finished) - start) / interval)
            result.behind = Swift.max(0, due - Int64(launched))
            if plan.requests != nil { result.behind = 0 }
        }
        flag.raised = true
        fast?.abandonAll()
        while engine.pending > 0 { engine.step(timeout: 0.05) }
        report(UnixTime.monotonic())
        if let failure { throw failure }
        return result
    }
}
