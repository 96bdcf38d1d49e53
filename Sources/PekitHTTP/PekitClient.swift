import CCurl
import CCurlShim
import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// Sends `PekitRequest`s (pekit's own HTTP/1.1 transport for what it takes, libcurl for the rest:
/// `Transport` chooses) and follows redirects itself, so that every hop's cookies go
/// through the jar (and its filters) and the method rules are RFC 9110's.
///
/// One client holds one `HTTPEngine` and its connection cache: requests to the same host reuse
/// the connection (keep-alive, TLS sessions), one after another or many at once (`sendAll`).
///
/// A client may be shared by threads and tasks. `send(_:options:) async` runs on the client's own
/// sending thread (libcurl's multi interface, every async send of the client together) and never
/// blocks a task's thread; cancelling the task cancels the transfer. The blocking `send` runs on
/// the caller's thread, with the client's engine when no other thread is using it and a fresh
/// one (its own connections) when another is.
public final class PekitClient: @unchecked Sendable {
    /// The engine the blocking sends use; only one thread at a time (`engineLock`).
    public let engine: HTTPEngine
    private let engineLock = RecursiveLock()
    private let driverLock = RecursiveLock()
    private var driver: AsyncDriver?

    /// Makes an engine. libcurl is loaded (once) when a request first needs it; if it cannot be,
    /// that request fails with `HTTPError.setup`.
    public init() throws {
        engine = try HTTPEngine()
    }

    deinit { driver?.stop() }

    /// The sending thread of the async sends, started by the first.
    func asyncDriverForTasks() throws -> AsyncDriver {
        try driverLock.locked {
            if let driver { return driver }
            let made = try AsyncDriver()
            driver = made
            return made
        }
    }

    static func loadCurl() throws {
        if let failure = pekit_curl_load() { throw HTTPError.setup(cText(failure)) }
        HeldLibcurl.noteLoaded(pekit_curl.version().map { cText($0) } ?? "")
    }

    /// libcurl's version line ("libcurl/7.88.1 OpenSSL/3.0.19 …"), or why it cannot be loaded.
    public static var curlVersion: String {
        do { try loadCurl() } catch { return "\(error)" }
        return pekit_curl.version().map { cText($0) } ?? "unknown"
    }

    /// The `Accept-Encoding` libcurl writes for curl's `--compressed`: the codings this libcurl
    /// decodes, in its order (`deflate, gzip, br, zstd` for Debian 12's).
    public static let acceptEncoding: String = {
        let version = curlVersion
        var codings: [String] = []
        if version.contains("zlib/") { codings += ["deflate", "gzip"] }
        if version.contains("brotli/") { codings.append("br") }
        if version.contains("zstd/") { codings.append("zstd") }
        return codings.isEmpty ? "identity" : codings.joined(separator: ", ")
    }()

    /// curl's own `User-Agent` for this libcurl (`curl/7.88.1`), as an imported command sends it.
    public static var curlUserAgent: String {
        curlVersion.split(separator: " ").first.map { "curl/" + ($0.hasPrefix("libcurl/") ? $0.dropFirst(8) : $0) } ?? "curl"
    }

    /// The wall clock, in Unix seconds.
    public static func now() -> Double { UnixTime.now() }

    /// Runs `body` with the client's engine, or with a fresh one when another thread is using it
    /// or when called from a callback of a running send (a sink that sends): libcurl's multi
    /// interface cannot be entered again.
    private func withEngine<T>(_ body: (HTTPEngine) throws -> T) throws -> T {
        guard engineLock.tryLock() else { return try body(HTTPEngine()) }
        defer { engineLock.unlock() }
        return try body(engine.isRunning ? try HTTPEngine() : engine)
    }

    /// Sends `request`, following redirects by `options`, and waits for the answer, blocking the
    /// calling thread (a command line's, a Lua host's); in `async` code use `send(_:options:)`,
    /// which never blocks. Named apart from it so that `try await client.send(r)` always gets the
    /// awaited send: with two overloads of one name, Swift's top-level code picks the blocking
    /// one and only warns.
    /// - Returns: the final response; an HTTP error status (4xx, 5xx) is a response, not an error.
    /// - Throws: `HTTPError` for a failed transfer (naming the method, URL and curl's reason),
    ///   too many redirects or an unusable Location; the sink's or the jar's filters' errors.
    @available(*, noasync, message: "blocks the thread: use await send(_:options:)")
    public func sendBlocking(_ request: PekitRequest, options: consuming SendOptions = SendOptions()) throws -> PekitResponse {
        let options = options
        let result = CallbackState<Result<PekitResponse, Error>?>(nil)
        try withEngine { engine in
            engine.add(request, options: options) { result.value = $0 }
            engine.run { result.value != nil }
        }
        switch result.value.take() {
        case .success(let response): return response
        case .failure(let error): throw error
        case nil: throw HTTPError.setup("\(request.method) \(request.url): the transfer did not end")
        }
    }

    /// Sends `requests` with at most `concurrency` in flight at once, and waits for all, blocking
    /// the calling thread; in `async` code use `sendAll(_:concurrency:)`.
    /// - Parameter requests: what to send, each with its options.
    /// - Parameter concurrency: the most transfers in flight at once.
    /// - Parameter completed: told of each as it ends (its index and result), in the order they end.
    /// - Returns: each request's response or error, in the order given; one failing does not stop the rest.
    /// - Complexity: one thread; the network is the limit.
    @available(*, noasync, message: "blocks the thread: use await sendAll(_:concurrency:)")
    public func sendAllBlocking(_ requests: [(PekitRequest, SendOptions)], concurrency: Int,
                        completed: ((Int, Result<PekitResponse, Error>) -> Void)? = nil) -> [Result<PekitResponse, Error>] {
        var results = [Result<PekitResponse, Error>?](repeating: nil, count: requests.count)
        do {
            try withEngine { engine in
                var started = 0, finished = 0
                func startNext() {
                    guard started < requests.count else { return }
                    let index = started
                    started += 1
                    let (request, options) = requests[index]
                    engine.add(request, options: options) { result in
                        results[index] = result
                        finished += 1
                        completed?(index, result)
                        startNext()
                    }
                }
                for _ in 0..<min(max(1, concurrency), requests.count) { startNext() }
                engine.run { finished == requests.count }
            }
        } catch { return requests.map { _ in .failure(error) } }
        return results.enumerated().map { index, result in
            result ?? .failure(HTTPError.setup("\(requests[index].0.method) \(requests[index].0.url): the transfer did not end"))
        }
    }

    /// libcurl's milliseconds for `seconds`, clamped to what its long holds: a Swift caller may
    /// pass any Double (the Lua and CLI surfaces refuse more than `SendOptions.secondsRange`).
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return Int(1e15) }  // NaN or infinite: no meaningful limit
        return Int(min(max((seconds * 1000).rounded(.up), 1), 1e15))
    }

    /// The whole milliseconds libcurl reports for a limit of `limit` milliseconds that ran out
    /// after `elapsed` seconds: rounded down, and never fewer than the limit's own, as libcurl
    /// fires only once its own count reaches the limit.
    static func reportedMilliseconds(elapsed: Double, limit: Int) -> Int {
        max(Int((elapsed * 1000).rounded(.down)), limit)
    }

    /// A next step for the failures whose fix is clear.
    static func hint(_ code: CURLcode, _ reason: String) -> HTTPError.Hint? {
        // libcurl says "Couldn't connect" when no socket could be made: the cause is named.
        if code != CURLE_OK && (reason.contains("Too many open files") || pekit_descriptors_exhausted() != 0) { return .tooManyOpenFiles }
        switch code {
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return reason.contains("subject name") || reason.contains("host name") ? .wrongHostName : .untrustedCertificate
        case CURLE_OPERATION_TIMEDOUT: return .timeout
        case CURLE_COULDNT_RESOLVE_HOST: return .unresolvedHost
        case CURLE_UNSUPPORTED_PROTOCOL: return .unsupportedProtocol
        default: return nil
        }
    }
}

