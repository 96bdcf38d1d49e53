import PekitCore
import PekitHTTP
import PekitCrypto

/// What `pekit.cookies` keeps for one runtime: the jars its scripts hold (by the id in their
/// userdata; a handle's `__gc` drops its entry), their clocks, and the public suffix list, read once.
final class CookiesState {
    var jars: [Int: CookieJar] = [:]
    var clocks: [Int: JarClock] = [:]
    var suffixes: PublicSuffixList?
}

/// What `pekit.request` keeps for one runtime: the built requests its scripts hold.
final class RequestState {
    var requests: [Int: StoredRequest] = [:]
}

/// What `pekit.http` keeps for one runtime: the connection cache (made on first send), whether a
/// transfer is running (a sink that sends again gets a handle of its own), and whether the
/// `insecure = true` warning was given.
final class HTTPState {
    var client: HTTPClient?
    var busy = false
    var warnedInsecure = false
}

/// What `pekit.crypto` keeps for one runtime: the streaming hashes its scripts hold.
final class CryptoState {
    var hashes: [Int: HashStream] = [:]
}

/// What `pekit.url` keeps for one runtime: the URLs its scripts hold (values the setters change).
final class URLState {
    var urls: [Int: WHATWGURL] = [:]
}
