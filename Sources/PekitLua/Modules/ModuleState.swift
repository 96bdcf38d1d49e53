import PekitCore
import PekitHTTP
import PekitCrypto

/// What `pekit.cookies` keeps for one runtime: the jars its scripts hold (by the id in their
/// userdata; a handle's `__gc` drops its entry), their clocks, and the public suffix list, read once.
final class CookiesState {
    var jars: [Int: CookieJar] = [:]
    var clocks: [Int: JarClock] = [:]
    var suffixes: PublicSuffixList?
    /// Jars bound to a file (`jar{file = …}`), saved on `jar:flush()` and when the script ends.
    var bound: [(jar: CookieJar, path: String)] = []
}

/// What `pekit.request` keeps for one runtime: the built requests its scripts hold.
final class RequestState {
    var requests: [Int: StoredRequest] = [:]
}

/// What `pekit.http` keeps for one runtime: the client and its connection cache (made on first
/// send), and whether the `insecure = true` warning was given.
final class HTTPState {
    var client: HTTPClient?
    var warnedInsecure = false
    /// The warnings said once on standard error (a short JWT key…).
    var warned: Set<String> = []
    /// The rate limiters by their text ("10/s"): every request naming a rate shares its limiter.
    var limiters: [String: RateLimiter] = [:]
}

