/// How a load run sends: how many at once, on what schedule, for how long.
///
/// Two models, as the tools that measure latency honestly have them:
/// - **closed** (`rate == nil`): `connections` requests in flight, each sent as soon as the one
///   before it was answered (wrk, hey, ab). A slow server slows the senders down with it, so the
///   latencies it records leave out the waits the server caused (coordinated omission).
/// - **open** (`rate` set): requests start on a fixed schedule, `rate` a second, whatever the
///   answers (wrk2, vegeta, k6's arrival rates), at most `connections` in flight; each latency is
///   also recorded from the time the schedule meant the request to start, which puts the waits
///   back (`LoadResult.corrected`).
public struct LoadPlan: Sendable, Equatable {
    /// Requests in flight at most (each on its own kept-alive connection).
    public var connections: Int
    /// Requests a second on a fixed schedule (the open model), or nil (the closed model).
    public var rate: Double?
    /// Seconds to send for (after the warm-up); nil: until `requests` are answered.
    public var duration: Double?
    /// Requests to send (after the warm-up); nil: as many as `duration` allows.
    public var requests: Int?
    /// Seconds sent before measuring: its answers are not recorded (connections opened, caches warm).
    public var warmup: Double
    /// Seconds one request may take before it counts as a timeout.
    public var timeout: Double

    /// - Parameters: as the properties; at least one of `duration` and `requests` must be set.
    public init(connections: Int = 10, rate: Double? = nil, duration: Double? = 10, requests: Int? = nil, warmup: Double = 0, timeout: Double = 30) {
        self.connections = connections
        self.rate = rate
        self.duration = duration
        self.requests = requests
        self.warmup = warmup
        self.timeout = timeout
    }

    /// Why a plan cannot run.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The plan's mistakes, said as the command line names them.
    /// - Throws: `Invalid`.
    public func validate() throws {
        guard (1...10_000).contains(connections) else { throw Invalid(description: "--connections takes 1 to 10000 (got \(connections))") }
        if let rate, !(rate > 0 && rate <= 10_000_000) { throw Invalid(description: "--rate takes more than 0 and at most 10000000 a second (got \(rate))") }
        guard duration != nil || requests != nil else { throw Invalid(description: "say how long the run is: --duration or --requests") }
        if let duration, !(duration > 0 && duration <= 86_400 * 7) { throw Invalid(description: "--duration takes more than 0 s and at most a week (got \(duration))") }
        if let requests, requests < 1 { throw Invalid(description: "--requests takes at least 1 (got \(requests))") }
        guard warmup >= 0 && warmup <= 3600 else { throw Invalid(description: "--warmup takes 0 to 3600 s (got \(warmup))") }
        guard timeout > 0 && timeout <= 3600 else { throw Invalid(description: "--timeout takes more than 0 and at most 3600 s (got \(timeout))") }
    }
}
