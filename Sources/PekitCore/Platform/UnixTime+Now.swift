#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// pekit's two clocks, the only place that asks the system for the time.
extension UnixTime {
    /// The system clock: seconds since 1970 (what a `CookieJar()` keeps time by).
    public static func now() -> Double { seconds(CLOCK_REALTIME) }

    /// Seconds on a clock that only goes forward (for durations and deadlines).
    public static func monotonic() -> Double { seconds(CLOCK_MONOTONIC) }

    private static func seconds(_ clock: clockid_t) -> Double {
        var t = timespec()
        clock_gettime(clock, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
