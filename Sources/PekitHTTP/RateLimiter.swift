#if canImport(Glibc)
import Glibc
#endif

/// Requests spaced so that no host gets more than a rate: `10/s`, `600/m` (or `/min`), `2/h`.
/// The first request to a host goes at once; each next one no sooner than the interval after
/// the one before. One limiter is shared by every request that names the same rate.
public final class RateLimiter: @unchecked Sendable {
    /// The time between two requests to one host.
    public var interval: Duration { .seconds(seconds) }
    /// The same in seconds.
    package let seconds: Double
    /// The rate as given (`10/s`).
    public let text: String
    /// One pace for every request, whatever its host (curl's `--rate`), instead of one per host.
    public let acrossHosts: Bool
    private var next: [String: Double] = [:]
    private var mutex = pthread_mutex_t()

    /// A limiter for `text`.
    /// - Parameter text: the rate, COUNT/UNIT (`10/s`, `600/m`, `2/h`).
    /// - Parameter acrossHosts: one pace for all requests, not one per host.
    /// - Throws: `RateLimiter.Failure` for text that is not COUNT/UNIT.
    public init(_ text: String, acrossHosts: Bool = false) throws {
        let parts = text.split(separator: "/", maxSplits: 1).map { $0.trimmingOWS }
        let units: [String: Double] = ["s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600]
        guard parts.count == 2, let count = Double(parts[0]), count > 0, count.isFinite, let unit = units[parts[1].lowercased()] else {
            throw Failure(description: "a rate is COUNT/s, COUNT/m or COUNT/h (\"10/s\", \"600/m\"), not \"\(text)\"")
        }
        seconds = unit / count
        self.text = text
        self.acrossHosts = acrossHosts
        pthread_mutex_init(&mutex, nil)
    }

    /// Text that is not a rate: what it should be, and what it was.
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// How long the next request to `host` must wait (and books its slot).
    func reserve(_ host: String, now: Double) -> Double {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        let key = acrossHosts ? "" : host
        let slot = max(now, next[key] ?? now)
        next[key] = slot + seconds
        return slot - now
    }
}
