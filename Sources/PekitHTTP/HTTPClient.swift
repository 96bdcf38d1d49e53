import CCurl
import CCurlShim
import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// Sends `HTTPRequest`s with libcurl and follows redirects itself, so that every hop's cookies go
/// through the jar (and its filters) and the method rules are RFC 9110's.
///
/// One client holds one curl handle and its connection cache: sequential requests to the same
/// host reuse the connection (keep-alive, TLS sessions). Not thread-safe: one client per thread.
public final class HTTPClient {
    private let handle: UnsafeMutableRawPointer

    /// Loads libcurl (once) and makes a handle.
    /// - Throws: `HTTPError.setup` when libcurl cannot be loaded or initialised.
    public init() throws {
        try Self.loadCurl()
        guard let handle = pekit_curl.easy_init() else { throw HTTPError.setup("cannot initialise libcurl") }
        self.handle = handle
    }

    deinit { pekit_curl.easy_cleanup(handle) }

    static func loadCurl() throws {
        if let failure = pekit_curl_load() { throw HTTPError.setup(cText(failure)) }
    }

    /// libcurl's version line ("libcurl/7.88.1 OpenSSL/3.0.19 …"), or why it cannot be loaded.
    public static var curlVersion: String {
        do { try loadCurl() } catch { return "\(error)" }
        return pekit_curl.version().map { cText($0) } ?? "unknown"
    }

    /// The wall clock, in Unix seconds.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Sends `request`, following redirects by `options`.
    /// - Returns: the final response; an HTTP error status (4xx, 5xx) is a response, not an error.
    /// - Throws: `HTTPError` for a failed transfer (naming the method, URL and curl's reason),
    ///   too many redirects or an unusable Location; the sink's or the jar's filters' errors.
    public func send(_ request: HTTPRequest, options: SendOptions = SendOptions()) throws -> HTTPResponse {
        guard let retry = options.retry, retry.applies(to: request.method) else { return try sendOnce(request, options: options, lastTry: true) }
        let started = Self.now()
        var attempt = 1
        while true {
            let lastTry = attempt >= retry.attempts
            var cause: String, wait: Double
            do {
                var response = try sendOnce(request, options: options, lastTry: lastTry)
                response.attempts = attempt
                guard !lastTry, retry.statuses.contains(response.status) else { return response }
                cause = "status \(response.status)"
                wait = retry.delay(before: attempt + 1, retryAfter: response.header("Retry-After")?.description, now: Self.now())
                if let maxTime = retry.maxTime, Self.now() + wait - started > maxTime { return response }
            } catch {
                guard !lastTry, retry.retries(error) else { throw error }
                cause = "\(error)"
                wait = retry.delay(before: attempt + 1, retryAfter: nil, now: Self.now())
                if let maxTime = retry.maxTime, Self.now() + wait - started > maxTime { throw error }
            }
            attempt += 1
            options.willRetry?(attempt, cause, wait)
            try pause(wait, options: options, url: request.url)
        }
    }

    /// Waits `seconds`, a little at a time, so that Ctrl-C (`isCancelled`) stops it at once.
    private func pause(_ seconds: Double, options: SendOptions, url: String) throws {
        let end = Self.now() + seconds
        while Self.now() < end {
            if options.isCancelled?() == true { throw HTTPError.cancelled(url: url) }
            var t = timespec(tv_sec: 0, tv_nsec: Int(min(0.05, max(0, end - Self.now())) * 1e9))
            nanosleep(&t, nil)
        }
    }

    /// One try: the request and its redirects. Unless it is the last try, a response a retry
    /// would replace has its body dropped (it is not the caller's).
    private func sendOnce(_ request: HTTPRequest, options: SendOptions, lastTry: Bool) throws -> HTTPResponse {
        let retryable = lastTry ? [] : options.retry?.statuses ?? []
        var current = request
        var hops: [HTTPResponse.Hop] = []
        let origin = try? RequestURL(request.url)
        while true {
            let url: RequestURL
            do { url = try RequestURL(current.url) } catch { throw RequestError.invalidURL("\(error)") }
            if let jar = options.jar, options.cookieHeaderFromJar {
                if let cookie = try jar.header(for: url) { try current.headers.set("Cookie", cookie) } else { current.headers.remove("Cookie") }
            }
            // Signed again on every hop (a fresh time and nonce; the URL may have changed).
            if let sign = options.sign {
                if let origin, Redirect.sameOrigin(origin, url) {
                    try sign(&current)
                } else {
                    for name in SendOptions.signatureHeaders { current.headers.remove(name) }
                }
            }
            let canFollow = options.followRedirects
            if let rate = options.rate { try pause(rate.reserve(url.host, now: Self.now()), options: options, url: current.url) }
            let started = Self.now()
            var response = try exchange(current, options: options) { response in
                (canFollow && Redirect.statuses.contains(response.status) && response.header("Location") != nil) || retryable.contains(response.status)
            }
            if let record = options.record {
                var recorded = response
                recorded.url = current.url
                recorded.method = current.method
                record(current, recorded, started)
            }
            if let jar = options.jar {
                for value in response.headers(named: "Set-Cookie") { _ = try jar.receive(value.description, from: url) }
            }
            guard canFollow, Redirect.statuses.contains(response.status), let location = response.header("Location") else {
                response.url = current.url
                response.method = current.method
                response.redirects = hops
                return response
            }
            guard hops.count < options.maxRedirects else { throw HTTPError.tooManyRedirects(url: request.url, limit: options.maxRedirects) }
            hops.append(.init(method: current.method, url: current.url, status: response.status, location: location.description))
            current = try Redirect.next(after: current, status: response.status, location: location)
        }
    }

    /// One request and response on the wire.
    private func exchange(_ request: HTTPRequest, options: SendOptions, willFollow: @escaping (HTTPResponse) -> Bool) throws -> HTTPResponse {
        pekit_curl.easy_reset(handle)  // keeps the connection cache
        let segments = request.segments
        let exchange = Exchange(body: BodyStream(segments), sink: options.sink, maxBody: options.effectiveMaxBody, url: request.url,
                                willFollow: willFollow, isCancelled: options.isCancelled)
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        var connectList: UnsafeMutablePointer<curl_slist>?
        defer {
            pekit_curl.slist_free_all(headerList)
            pekit_curl.slist_free_all(connectList)
            errorBuffer.deallocate()
        }
        let context = Unmanaged.passUnretained(exchange).toOpaque()

        var failed: CURLoption?
        func set(_ option: CURLoption, _ value: Int) { if pekit_curl_setopt_long(handle, option, value) != CURLE_OK { failed = failed ?? option } }
        func set(_ option: CURLoption, _ value: String) { if pekit_curl_setopt_string(handle, option, value) != CURLE_OK { failed = failed ?? option } }
        func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) { if pekit_curl_setopt_pointer(handle, option, pointer) != CURLE_OK { failed = failed ?? option } }
        func set(_ option: CURLoption, callback: curl_write_callback) { if pekit_curl_setopt_data_callback(handle, option, callback) != CURLE_OK { failed = failed ?? option } }

        set(CURLOPT_URL, request.url)
        if let target = request.requestTarget { set(CURLOPT_REQUEST_TARGET, target) }
        set(CURLOPT_PATH_AS_IS, 1)  // the URL's text is sent as built: no dot-segment removal
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        set(CURLOPT_HEADERFUNCTION, callback: headerCallback)
        set(CURLOPT_HEADERDATA, pointer: context)
        set(CURLOPT_WRITEFUNCTION, callback: writeCallback)
        set(CURLOPT_WRITEDATA, pointer: context)
        if options.trace != nil {
            exchange.trace = options.trace
            set(CURLOPT_VERBOSE, 1)
            if pekit_curl_setopt_debug_callback(handle, debugCallback) != CURLE_OK { failed = failed ?? CURLOPT_DEBUGFUNCTION }
            set(CURLOPT_DEBUGDATA, pointer: context)
        }
        if options.progress != nil { exchange.progress = options.progress }
        if options.isCancelled != nil || options.progress != nil {
            set(CURLOPT_NOPROGRESS, 0)
            if pekit_curl_setopt_xferinfo_callback(handle, progressCallback) != CURLE_OK { failed = failed ?? CURLOPT_XFERINFOFUNCTION }
            set(CURLOPT_XFERINFODATA, pointer: context)
        }

        // The method, and the body pulled from the stream (never copied whole).
        let hasBody = !segments.isEmpty || request.headers["Content-Length"] != nil
        if request.method == "HEAD" {
            set(CURLOPT_NOBODY, 1)
        } else if hasBody {
            set(CURLOPT_POST, 1)
            let length = try BodyStream.length(of: segments)
            if pekit_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(length)) != CURLE_OK { failed = failed ?? CURLOPT_POSTFIELDSIZE_LARGE }
            set(CURLOPT_READFUNCTION, callback: readCallback)
            set(CURLOPT_READDATA, pointer: context)
            if pekit_curl_setopt_seek_callback(handle, seekCallback) != CURLE_OK { failed = failed ?? CURLOPT_SEEKFUNCTION }
            set(CURLOPT_SEEKDATA, pointer: context)
            if request.method != "POST" { set(CURLOPT_CUSTOMREQUEST, request.method) }
        } else if request.method != "GET" {
            set(CURLOPT_CUSTOMREQUEST, request.method)
        }

        // Exactly the request's header fields: curl's own defaults are removed ("Name:") unless
        // the request has that field; an empty value is written "Name;" in curl's syntax.
        for field in request.headers.fields {
            headerList = pekit_curl.slist_append(headerList, field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        for name in ["Host", "Accept", "Expect", "Content-Type"] where request.headers[name] == nil {
            headerList = pekit_curl.slist_append(headerList, "\(name):")
        }
        set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(headerList))

        for mapping in request.connect + options.connect {
            connectList = pekit_curl.slist_append(connectList, mapping.curlArgument)
        }
        if connectList != nil { set(CURLOPT_CONNECT_TO, pointer: UnsafeMutableRawPointer(connectList)) }

        if let seconds = options.connectTimeout { set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(seconds)) }
        if let seconds = options.timeout { set(CURLOPT_TIMEOUT_MS, Self.milliseconds(seconds)) }
        if options.insecure {
            set(CURLOPT_SSL_VERIFYPEER, 0)
            set(CURLOPT_SSL_VERIFYHOST, 0)
        }
        if let path = options.caCertificate { set(CURLOPT_CAINFO, path) }
        if let proxy = options.proxy { set(CURLOPT_PROXY, proxy) }
        switch options.version {
        case .automatic: break
        case .http1_1: set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        case .http2: set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2_0)
        }
        if options.compressed { set(CURLOPT_ACCEPT_ENCODING, "") }
        if let failed {
            throw HTTPError.setup("\(request.method) \(request.url): libcurl refused option \(failed.rawValue) (this libcurl: \(Self.curlVersion))")
        }

        let code = withExtendedLifetime(exchange) { pekit_curl.easy_perform(handle) }
        if let error = exchange.error { exchange.abandon(); throw error }
        if exchange.cancelled { exchange.abandon(); throw HTTPError.cancelled(url: request.url) }
        guard code == CURLE_OK else {
            exchange.abandon()
            let detail = cText(errorBuffer)
            var reason = detail.isEmpty ? pekit_curl.easy_strerror(code).map { cText($0) } ?? "curl error" : detail
            if code == CURLE_OUT_OF_MEMORY && exchange.inHeaders {
                // What libcurl 7.88 says when a header line passes its limit (CURL_MAX_HTTP_HEADER).
                reason = "a response header line is longer than libcurl accepts (100 KiB; libcurl reports \"\(reason)\")"
            }
            throw HTTPError.transfer(method: request.method, url: request.url, code: Int(code.rawValue), reason: reason,
                                     hint: Self.hint(code, reason))
        }
        exchange.finishProgress()
        try exchange.finish()

        var response = exchange.response
        if response.status == 0 {
            var status = 0
            _ = pekit_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            response.status = status
        }
        func seconds(_ info: CURLINFO) -> Double {
            var micro: curl_off_t = 0
            _ = pekit_curl_getinfo_off(handle, info, &micro)
            return Double(micro) / 1_000_000
        }
        response.timing.dns = seconds(CURLINFO_NAMELOOKUP_TIME_T)
        response.timing.connect = seconds(CURLINFO_CONNECT_TIME_T)
        response.timing.tls = seconds(CURLINFO_APPCONNECT_TIME_T)
        response.timing.firstByte = seconds(CURLINFO_STARTTRANSFER_TIME_T)
        response.timing.total = seconds(CURLINFO_TOTAL_TIME_T)
        var ip: UnsafeMutablePointer<CChar>?
        if pekit_curl_getinfo_string(handle, CURLINFO_PRIMARY_IP, &ip) == CURLE_OK, let ip { response.remoteAddress = cText(ip) }
        var port = 0
        if pekit_curl_getinfo_long(handle, CURLINFO_PRIMARY_PORT, &port) == CURLE_OK { response.remotePort = port }
        return response
    }

    /// libcurl's milliseconds for `seconds`, clamped to what its long holds: a Swift caller may
    /// pass any Double (the Lua and CLI surfaces refuse more than `SendOptions.secondsRange`).
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return Int(1e15) }  // NaN or infinite: no meaningful limit
        return Int(min(max((seconds * 1000).rounded(.up), 1), 1e15))
    }

    /// A next step for the failures whose fix is clear.
    static func hint(_ code: CURLcode, _ reason: String) -> HTTPError.Hint? {
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

/// A NUL-terminated C string from libcurl (messages, the version line) as text.
func cText(_ pointer: UnsafePointer<CChar>) -> String {
    String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
}

private func exchange(_ userdata: UnsafeMutableRawPointer?) -> Exchange? {
    userdata.map { Unmanaged<Exchange>.fromOpaque($0).takeUnretainedValue() }
}

private let headerCallback: curl_write_callback = { buffer, size, count, userdata in
    guard let buffer, let exchange = exchange(userdata) else { return 0 }
    exchange.headerLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
    return size * count
}

private let writeCallback: curl_write_callback = { buffer, size, count, userdata in
    guard let buffer, let exchange = exchange(userdata) else { return 0 }
    return exchange.bodyBytes(UnsafeRawBufferPointer(start: buffer, count: size * count)) ? size * count : 0
}

private let readCallback: curl_write_callback = { buffer, size, count, userdata in
    guard let buffer, let exchange = exchange(userdata) else { return Int(CURL_READFUNC_ABORT) }
    return exchange.uploadBytes(into: UnsafeMutableRawPointer(buffer), capacity: size * count) ?? Int(CURL_READFUNC_ABORT)
}

private let seekCallback: curl_seek_callback = { userdata, offset, origin in
    // curl only rewinds to the start (a retried connection); anything else cannot be done.
    guard let exchange = exchange(userdata), offset == 0, origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
    exchange.body.rewind()
    return Int32(CURL_SEEKFUNC_OK)
}

private let debugCallback: curl_debug_callback = { _, kind, data, size, userdata in
    guard let exchange = exchange(userdata), let trace = exchange.trace, let data else { return 0 }
    let event: SendOptions.TraceEvent
    switch kind {
    case CURLINFO_TEXT: event = .text
    case CURLINFO_HEADER_OUT: event = .headerOut
    case CURLINFO_HEADER_IN: event = .headerIn
    case CURLINFO_DATA_OUT: event = .dataOut
    case CURLINFO_DATA_IN: event = .dataIn
    default: return 0  // TLS records
    }
    trace(event, Array(UnsafeRawBufferPointer(start: data, count: size)))
    return 0
}

private let progressCallback: curl_xferinfo_callback = { userdata, dltotal, dlnow, ultotal, ulnow in
    guard let exchange = exchange(userdata) else { return 0 }
    exchange.reportProgress(downloadTotal: Int64(dltotal), downloaded: Int64(dlnow), uploadTotal: Int64(ultotal), uploaded: Int64(ulnow), now: HTTPClient.now())
    return exchange.shouldStop() ? 1 : 0
}
