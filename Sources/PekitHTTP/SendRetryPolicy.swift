import PekitCore

/// When a request is sent again: after a status or a transfer error that is likely to pass,
/// waiting as the server says (`Retry-After`, seconds or an HTTP-date) or with exponential
/// backoff. Only idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS, TRACE) unless
/// `allMethods`: sending a POST twice may do it twice.
public struct SendRetryPolicy: Sendable, Equatable {
    /// Tries in all, the first included (3: two retries).
    public var attempts: Int
    /// The statuses that are retried.
    public var statuses: Set<Int>
    /// Retry when the connection fails (refused, reset, nothing received) or times out.
    public var onConnectFailure: Bool
    /// Retry when the transfer times out.
    public var onTimeout: Bool
    /// Every transfer error (curl's --retry-all-errors).
    public var onAnyError = false
    /// The first wait, doubled each time up to `maxDelay`; with `jitter` each wait is a random
    /// part (half to all) of that, so clients do not retry in step.
    public var baseDelay: Duration {
        get { .seconds(baseSeconds) }
        set { baseSeconds = newValue.inSeconds }
    }
    /// The longest wait, a `Retry-After` included.
    public var maxDelay: Duration {
        get { .seconds(maxSeconds) }
        set { maxSeconds = newValue.inSeconds }
    }
    /// The waits in seconds, as scripts and the command line give them.
    package var baseSeconds: Double
    package var maxSeconds: Double
    /// Whether each wait is a random part (half to all) of the backoff.
    public var jitter: Bool
    /// Retry POST and PATCH too.
    public var allMethods = false
    /// No retry starts later than this after the first try (curl's --retry-max-time).
    public var maxTime: Duration? {
        get { maxTimeSeconds.map { .seconds($0) } }
        set { maxTimeSeconds = newValue?.inSeconds }
    }
    package var maxTimeSeconds: Double?

    /// A script's default: `retry = {}` in pekit.http.
    public init(attempts: Int = 3, statuses: Set<Int> = [429, 502, 503, 504], onConnectFailure: Bool = true, onTimeout: Bool = true,
                baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30), jitter: Bool = true) {
        self.attempts = attempts; self.statuses = statuses; self.onConnectFailure = onConnectFailure; self.onTimeout = onTimeout
        baseSeconds = baseDelay.inSeconds; maxSeconds = maxDelay.inSeconds; self.jitter = jitter
    }

    /// curl's --retry N: N retries on a timeout and on 408, 429, 500, 502, 503 and 504, waiting
    /// 1 second and doubling up to 10 minutes (or as Retry-After says).
    public static func curl(retries: Int) -> SendRetryPolicy {
        SendRetryPolicy(attempts: retries + 1, statuses: [408, 429, 500, 502, 503, 504], onConnectFailure: false, onTimeout: true,
                    baseDelay: .seconds(1), maxDelay: .seconds(600), jitter: false)
    }

    static let idempotent: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]

    func applies(to method: String) -> Bool { attempts > 1 && (allMethods || Self.isIdempotent(method)) }

    /// Whether a method may be sent again without asking (RFC 9110 §9.2.2).
    public static func isIdempotent(_ method: String) -> Bool { idempotent.contains(method.uppercased()) }

    /// The wait a `Retry-After` value asks for (RFC 9110 §10.2.3: seconds or an HTTP-date), or
    /// nil when it is neither.
    public static func retryAfterSeconds(_ text: String, now: Double) -> Double? {
        let value = String(text.trimmingOWS)
        if let seconds = Double(value), seconds >= 0 { return seconds }
        if let date = try? UnixTime.parse(value, .http) { return max(0, date - now) }
        return nil
    }

    /// libcurl's codes for a connection that failed or broke: could not connect, got nothing,
    /// send and receive failures, an SSL handshake that failed.
    static let connectCodes: Set<Int> = [7, 35, 52, 55, 56]

    func retries(_ error: Error) -> Bool {
        guard case HTTPError.transfer(_, _, let code, _, _) = error else { return false }
        return onAnyError || (onTimeout && code == 28) || (onConnectFailure && Self.connectCodes.contains(code))
    }

    /// The wait before attempt `next` (2 for the first retry): what Retry-After says, else the
    /// backoff; never more than `maxDelay`.
    func delay(before next: Int, retryAfter: String?, now: Double) -> Double {
        if let text = retryAfter, let seconds = Self.retryAfterSeconds(text, now: now) { return min(seconds, maxSeconds) }
        let full = min(baseSeconds * Double(1 << min(max(0, next - 2), 30)), maxSeconds)
        return jitter ? full * Double.random(in: 0.5...1.0) : full
    }
}
