/// What a load run measured: requests and errors, and latencies as HdrHistograms (microseconds).
public struct LoadResult: Sendable {
    /// The plan the run followed.
    public var plan: LoadPlan
    /// When measuring began (Unix seconds): the log's `StartTime`.
    public var startTime = 0.0
    /// Seconds measured (the warm-up left out).
    public var seconds = 0.0
    /// Requests that ended while measuring (answered or failed).
    public var requests: Int64 = 0
    /// Requests sent during the warm-up (not recorded anywhere else).
    public var warmupRequests: Int64 = 0
    /// Latency from each request's start to its answer's end, as the sender saw it.
    public var latency: LatencyHistogram
    /// The open model only: latency from the time the schedule meant each request to start
    /// (what a user arriving on that schedule waited); nil in the closed model.
    public var corrected: LatencyHistogram?
    /// The phases of each answered request, as libcurl and pekit's own transport measure them
    /// from the request's start (curl's `time_connect`, `time_starttransfer`, …; a request on a
    /// kept-alive connection connects in 0): "dns", "connect", "tls", "first byte", "total".
    public var phases: [(name: String, histogram: LatencyHistogram)]
    /// Failed requests by kind: `connect`, `timeout` (including those still unanswered when the
    /// run ended), `read`, `write`, `resolve`, `transfer` (another transfer error), `status`
    /// (an answer of 400 or more, when no check was given), `check` (the check refused it).
    public var errors: [String: Int64] = [:]
    /// Answers by status code.
    public var statuses: [Int: Int64] = [:]
    /// Measured requests still in flight when the run ended, that had not yet waited as long as
    /// the run's slowest answer: neither answers nor errors (wrk leaves them out the same way).
    public var unanswered: Int64 = 0
    /// The open model: starts the schedule asked for that never went out, because every
    /// connection was busy (the server could not keep up with `rate`).
    public var behind: Int64 = 0
    /// Body bytes received while measuring.
    public var bytesReceived: Int64 = 0
    /// Each measured second: requests that ended in it and the errors among them.
    public var timeline: [Second] = []
    /// Each measured second's latencies (the corrected ones in the open model), as HdrHistogram's
    /// log carries them: what `pekit load --output hlog` writes.
    public var intervals: [Interval] = []
    /// The first check or error messages seen (at most ten, each with how often it came).
    public var messages: [(text: String, count: Int64)] = []

    private var messageShapes: [String] = []

    /// One interval of HdrHistogram's log.
    public struct Interval: Sendable, Equatable {
        /// Seconds from the start of measuring, and the interval's length.
        public var start: Double, length: Double
        /// The largest value recorded in it (microseconds).
        public var max: Int64
        /// Its histogram, HdrHistogram's compressed V2 encoding.
        public var histogram: [UInt8]
    }

    /// One second of a run.
    public struct Second: Sendable, Equatable {
        /// Requests that ended in this second.
        public var requests: Int64 = 0
        /// The failed ones among them.
        public var errors: Int64 = 0
    }

    /// Requests that failed, of every kind.
    public var errorCount: Int64 { errors.values.reduce(0, +) }
    /// Requests ended a second while measuring.
    public var requestsPerSecond: Double { seconds > 0 ? Double(requests) / seconds : 0 }
    /// The share of requests that failed (0 to 1).
    public var errorRate: Double { requests > 0 ? Double(errorCount) / Double(requests) : 0 }

    init(plan: LoadPlan) throws {
        self.plan = plan
        latency = try LatencyHistogram()
        corrected = plan.rate == nil ? nil : try LatencyHistogram()
        phases = try ["dns", "connect", "tls", "first byte", "total"].map { ($0, try LatencyHistogram()) }
    }

    /// The kind `LoadResult.errors` counts `error` under.
    public static func kind(of error: Error) -> String {
        guard let error = error as? HTTPError else { return "transfer" }
        switch error {
        case .cancelled: return "timeout"
        case .transfer(_, _, let code, _, _):
            switch code {
            case 6, 5: return "resolve"
            case 7: return "connect"
            case 28: return "timeout"
            case 18, 52, 56: return "read"
            case 55: return "write"
            default: return "transfer"
            }
        default: return "transfer"
        }
    }

    /// Keeps `message` as an example of its kind: messages that differ only in their numbers
    /// (milliseconds waited) count as one, shown as the first of them.
    mutating func note(_ message: String) {
        var shape = ""
        for c in message { if c.isNumber { if shape.last != "#" { shape.append("#") } } else { shape.append(c) } }
        if let i = messageShapes.firstIndex(of: shape) {
            messages[i].count += 1
        } else if messages.count < 10 {
            messageShapes.append(shape)
            messages.append((message, 1))
        }
    }
}
