import CCurl
import CCurlShim
import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// One request and its response on the wire, on an easy handle: the handle is set up from the
/// request and the send options, run by an `HTTPEngine`, and read back into a response.
final class Transfer {
    let easy: EasyHandle
    var handle: UnsafeMutableRawPointer { easy.pointer }
    let request: PekitRequest
    let exchange: Exchange
    /// When it was started (Unix seconds): what a HAR log records.
    let started: Double
    private var connectList: UnsafeMutablePointer<curl_slist>?

    /// Sets `handle` (reset first: its connection cache stays) up for `request`.
    /// - Parameter willFollow: whether a response is one a redirect or a retry replaces (its body is dropped).
    /// - Parameter timeout: what is left of `options.timeout` for this hop (the whole send's bound).
    /// - Throws: `HTTPError.setup` when libcurl refuses an option; `BodyStream`'s errors.
    init(easy: EasyHandle, request: consuming PekitRequest, options: borrowing SendOptions, timeout: Double?, started: Double,
         willFollow: @escaping Exchange.WillFollow) throws {
        self.easy = easy
        let handle = easy.pointer
        self.request = request
        self.started = started
        pekit_curl.easy_reset(handle)
        let segments = request.segments
        exchange = Exchange(body: BodyStream(segments), options: options, url: request.url, willFollow: willFollow)
        easy.errorBuffer[0] = 0
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
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(easy.errorBuffer))
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        set(CURLOPT_HEADERFUNCTION, callback: headerCallback)
        set(CURLOPT_HEADERDATA, pointer: context)
        set(CURLOPT_WRITEFUNCTION, callback: writeCallback)
        set(CURLOPT_WRITEDATA, pointer: context)
        // Over TLS, bytes on an idle connection are the server's own (session tickets); over
        // plain HTTP they may be an answer no request asked for.
        if request.url.utf8.starts(with: "http:".utf8), pekit_curl_setopt_idle_check(handle) != CURLE_OK { failed = failed ?? CURLOPT_PREREQFUNCTION }
        if options.trace != nil {
            exchange.trace = options.trace
            set(CURLOPT_VERBOSE, 1)
            if pekit_curl_setopt_debug_callback(handle, debugCallback) != CURLE_OK { failed = failed ?? CURLOPT_DEBUGFUNCTION }
            set(CURLOPT_DEBUGDATA, pointer: context)
        }
        // Ctrl-C is noticed by the engine between waits; the progress callback only reports
        // (libcurl calls it on every pass over a transfer, which costs when there are many).
        if options.progress != nil {
            exchange.progress = options.progress
            set(CURLOPT_NOPROGRESS, 0)
            if pekit_curl_setopt_xferinfo_callback(handle, progressCallback) != CURLE_OK { failed = failed ?? CURLOPT_XFERINFOFUNCTION }
            set(CURLOPT_XFERINFODATA, pointer: context)
        }

        // Which of the fields curl would add itself the request has: one pass, no lookups.
        var has = CurlDefaults()
        for field in request.headers.fields { has.note(field.name) }

        // The method, and the body pulled from the stream (never copied whole).
        // A chunked request is sent with a body even when it is empty: its last chunk ends it.
        let hasBody = !segments.isEmpty || has.contentLength || request.isChunked
        if request.method == "HEAD" {
            set(CURLOPT_NOBODY, 1)
        } else if hasBody {
            set(CURLOPT_POST, 1)
            // Chunked: the size is left unknown, so libcurl reads until the body ends and then
            // writes the last chunk (with a known size of 0 it writes nothing at all).
            let length = request.isChunked ? -1 : try BodyStream.length(of: segments)
            if pekit_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(length)) != CURLE_OK { failed = failed ?? CURLOPT_POSTFIELDSIZE_LARGE }
            set(CURLOPT_READFUNCTION, callback: readCallback)
            set(CURLOPT_READDATA, pointer: context)
            if pekit_curl_setopt_seek_callback(handle, seekCallback) != CURLE_OK { failed = failed ?? CURLOPT_SEEKFUNCTION }
            set(CURLOPT_SEEKDATA, pointer: context)
            if request.method != "POST" { set(CURLOPT_CUSTOMREQUEST, request.method.rawValue) }
        } else if request.method != "GET" {
            set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }

        // Exactly the request's header fields: curl's own defaults are removed ("Name:") unless
        // the request has that field; an empty value is written "Name;" in curl's syntax. curl
        // adds Expect and Content-Type only to a request with a body.
        var lines: [UInt8] = []
        lines.reserveCapacity(256)
        // libcurl writes some fields of its own after its User-Agent and Accept and before the
        // request's fields: Proxy-Connection through an HTTP proxy (not a tunnel; -x or the
        // environment's http_proxy), the upgrade fields (Connection, Upgrade, HTTP2-Settings)
        // asking for HTTP/2 over http://. There curl's User-Agent and Accept are given as
        // libcurl's own, so that they come first as in curl (its tests 63, 898, 1704, 1800).
        let plainURL = request.url.utf8.starts(with: "http://".utf8)
        let proxy = ProxyChoice.choose(for: request.url, options)
        // Through a tunnel the request is the origin's: libcurl writes its fields after Host,
        // the credentials and the range there too (curl's User-Agent as libcurl's own, which it
        // also gives the CONNECT). Over SOCKS the request is as without a proxy.
        let httpProxy = proxy.map { !$0.isSOCKS } ?? false
        // With --tr-encoding libcurl writes Connection: TE and TE: gzip after its Accept too.
        let libcurlLeads = plainURL && (options.version == .http2 || options.transferEncoding
                                        || (httpProxy && (options.proxyTunnel || !request.headers.contains("Proxy-Connection"))))
        var leading = true
        // In HTTP/1.0 libcurl asks for no 100 Continue, and cannot frame a body in chunks.
        let http10 = options.version == .http1_0
        if http10 && request.isChunked {
            throw HTTPError.transfer(method: request.method.rawValue, url: request.url, code: 25, reason: "Chunky upload is not supported by HTTP 1.0", hint: nil)
        }
        for field in request.headers.fields {
            if http10 && request.continueExpected && PekitHeaders.sameName(field.name, "Expect") { continue }
            // Only while the fields are still curl's own leading ones (Host, then these).
            if libcurlLeads && leading {
                if PekitHeaders.sameName(field.name, "User-Agent"), !field.value.isEmpty {
                    set(CURLOPT_USERAGENT, field.value); continue
                }
                if PekitHeaders.sameName(field.name, "Accept"), field.value == "*/*" { continue }
                // Basic credentials the builder wrote: libcurl writes the same field after Host.
                if PekitHeaders.sameName(field.name, "Authorization"), let credentials = request.basicCredentials, credentials.count == 2,
                   field.value == RequestBuilder.basicAuthorization(user: credentials[0], password: credentials[1]) {
                    set(CURLOPT_USERNAME, credentials[0])
                    set(CURLOPT_PASSWORD, credentials[1])
                    set(CURLOPT_HTTPAUTH, 1)  // CURLAUTH_BASIC (a macro Swift does not import)
                    continue
                }
                // A bearer token and a byte range: libcurl writes them in curl's places too
                // (after Host and the credentials, before User-Agent).
                if PekitHeaders.sameName(field.name, "Authorization"), field.value.hasPrefix("Bearer "), field.spacing == " " {
                    set(CURLOPT_XOAUTH2_BEARER, String(field.value.dropFirst(7)))
                    set(CURLOPT_HTTPAUTH, 64)  // CURLAUTH_BEARER
                    continue
                }
                if PekitHeaders.sameName(field.name, "Range"), field.value.hasPrefix("bytes="), field.name == "Range", field.spacing == " " {
                    set(CURLOPT_RANGE, String(field.value.dropFirst(6)))
                    continue
                }
                if !PekitHeaders.sameName(field.name, "Host") { leading = false }
            }
            lines += field.name.utf8
            if field.value.isEmpty { lines.append(0x3B) } else { lines.append(0x3A); lines += field.spacing.utf8; field.appendValue(to: &lines) }
            lines.append(0)
        }
        if !has.host { lines += "Host:\0".utf8 }
        if !has.accept { lines += "Accept:\0".utf8 }
        if hasBody && !has.expect { lines += "Expect:\0".utf8 }
        if hasBody && !has.contentType { lines += "Content-Type:\0".utf8 }
        set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(easy.headerList(for: lines)))

        for mapping in request.connect + options.connect {
            connectList = pekit_curl.slist_append(connectList, mapping.curlArgument)
        }
        if connectList != nil { set(CURLOPT_CONNECT_TO, pointer: UnsafeMutableRawPointer(connectList)) }

        if let seconds = options.connectSeconds { set(CURLOPT_CONNECTTIMEOUT_MS, PekitClient.milliseconds(seconds)) }
        if let seconds = timeout { set(CURLOPT_TIMEOUT_MS, PekitClient.milliseconds(seconds)) }
        switch options.ipVersion {
        case .any: break
        case .v4: set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V4))
        case .v6: set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V6))
        }
        if options.insecure {
            set(CURLOPT_SSL_VERIFYPEER, 0)
            set(CURLOPT_SSL_VERIFYHOST, 0)
        }
        if let path = options.caCertificate { set(CURLOPT_CAINFO, path) }
        if let proxy = options.proxy { set(CURLOPT_PROXY, proxy) }
        if let list = options.noProxy { set(CURLOPT_NOPROXY, list) }
        switch options.proxyAuthScheme {
        case nil, .basic?: break
        case .digest?: set(CURLOPT_PROXYAUTH, 2)  // CURLAUTH_DIGEST
        // CURLAUTH_ANY (~CURLAUTH_DIGEST_IE), a macro Swift does not import.
        case .any?: set(CURLOPT_PROXYAUTH, Int(bitPattern: ~UInt(16)))
        }
        if let seconds = options.expectContinueSeconds { set(CURLOPT_EXPECT_100_TIMEOUT_MS, PekitClient.milliseconds(seconds)) }
        if options.proxyTunnel { set(CURLOPT_HTTPPROXYTUNNEL, 1) }
        if let path = options.unixSocket { set(CURLOPT_UNIX_SOCKET_PATH, path) }
        if let name = options.abstractUnixSocket { set(CURLOPT_ABSTRACT_UNIX_SOCKET, name) }
        if let path = options.clientCertificate { set(CURLOPT_SSLCERT, path) }
        if let type = options.certificateType { set(CURLOPT_SSLCERTTYPE, type) }
        if let path = options.privateKey { set(CURLOPT_SSLKEY, path) }
        if let type = options.privateKeyType { set(CURLOPT_SSLKEYTYPE, type) }
        if let passphrase = options.keyPassword { set(CURLOPT_KEYPASSWD, passphrase) }
        if options.allowsHTTP09 { set(CURLOPT_HTTP09_ALLOWED, 1) }
        switch options.version {
        case .automatic: break
        case .http1_0: set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_0)
        case .http1_1: set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        case .http2:
            set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2_0)
            // Wait for a connection being set up to the same host and share it (multiplexing),
            // rather than opening one per request.
            set(CURLOPT_PIPEWAIT, 1)
        }
        // libcurl decodes what it can; the request's own Accept-Encoding (the builder writes it in
        // curl's place) replaces the one libcurl would add.
        if options.compressed || request.decodesBody { set(CURLOPT_ACCEPT_ENCODING, "") }
        if options.transferEncoding { set(CURLOPT_TRANSFER_ENCODING, 1) }
        if options.ignoresContentLength { set(CURLOPT_IGNORE_CONTENT_LENGTH, 1) }
        if options.rawTransfer {
            set(CURLOPT_HTTP_TRANSFER_DECODING, 0)
            set(CURLOPT_HTTP_CONTENT_DECODING, 0)
        }
        if let failed {
            throw HTTPError.setup("\(request.method) \(request.url): libcurl refused option \(failed.rawValue) (this libcurl: \(PekitClient.curlVersion))")
        }
    }

    deinit {
        pekit_curl.slist_free_all(connectList)
    }

    /// The response, once libcurl says the transfer ended with `code`.
    /// - Throws: the error a callback kept, `HTTPError.cancelled`, `HTTPError.transfer` with
    ///   curl's reason; a partial file is removed.
    func finish(_ code: CURLcode) throws -> PekitResponse {
        try exchange.throwIfStopped()
        // A sink that asked to stop ends the transfer with libcurl's write error: not a failure.
        guard code == CURLE_OK || (code == CURLE_WRITE_ERROR && exchange.stoppedEarly) else {
            exchange.abandon()
            let detail = cText(easy.errorBuffer)
            var reason = detail.isEmpty ? pekit_curl.easy_strerror(code).map { cText($0) } ?? "curl error" : detail
            if code == CURLE_OUT_OF_MEMORY && exchange.inHeaders {
                // What libcurl 7.88 says when a header line passes its limit (CURL_MAX_HTTP_HEADER).
                reason = ResponseReader.tooLong.reason
            }
            throw HTTPError.transfer(method: request.method.rawValue, url: request.url, code: Int(code.rawValue), reason: reason,
                                     hint: PekitClient.hint(code, reason))
        }
        var response = try exchange.complete()
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
        response.timing.pretransfer = seconds(CURLINFO_PRETRANSFER_TIME_T)
        response.timing.firstByte = seconds(CURLINFO_STARTTRANSFER_TIME_T)
        response.timing.total = seconds(CURLINFO_TOTAL_TIME_T)
        var ip: UnsafeMutablePointer<CChar>?
        if pekit_curl_getinfo_string(handle, CURLINFO_PRIMARY_IP, &ip) == CURLE_OK, let ip { response.remoteAddress = cText(ip) }
        var port = 0
        if pekit_curl_getinfo_long(handle, CURLINFO_PRIMARY_PORT, &port) == CURLE_OK { response.remotePort = port }
        var local: UnsafeMutablePointer<CChar>?
        if pekit_curl_getinfo_string(handle, CURLINFO_LOCAL_IP, &local) == CURLE_OK, let local { response.localAddress = cText(local) }
        var localPort = 0
        if pekit_curl_getinfo_long(handle, CURLINFO_LOCAL_PORT, &localPort) == CURLE_OK { response.localPort = localPort }
        var uploaded: curl_off_t = 0
        if pekit_curl_getinfo_off(handle, CURLINFO_SIZE_UPLOAD_T, &uploaded) == CURLE_OK { response.uploadedBytes = Int(uploaded) }
        var requestSize = 0
        if pekit_curl_getinfo_long(handle, CURLINFO_REQUEST_SIZE, &requestSize) == CURLE_OK { response.requestHeadBytes = requestSize }
        // curl sends a small -d body (under 64 KiB, no Expect: 100-continue) in one piece with
        // its head and counts it in %{size_request} (http.c, MAX_INITIAL_POST_SIZE); pekit hands
        // every body to libcurl as a stream, which it counts apart.
        if !request.isChunked, !request.headers.contains("Expect"), !(request.headers["Content-Type"]?.hasPrefix("multipart/") ?? false),
           let length = try? BodyStream.length(of: request.segments), length > 0, length < 65_536 {
            response.requestHeadBytes += length
        }
        var verify = 0
        if pekit_curl_getinfo_long(handle, CURLINFO_SSL_VERIFYRESULT, &verify) == CURLE_OK { response.tlsVerifyResult = verify }
        var connects = 0
        if pekit_curl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK { response.connections = connects }
        return response
    }
}

/// Which of the fields curl writes by default (or for a body) a request has, found in one pass.
private struct CurlDefaults {
    var host = false, accept = false, expect = false, contentType = false, contentLength = false

    mutating func note(_ name: String) {
        switch name.utf8.count {
        case 4: host = host || PekitHeaders.sameName(name, "Host")
        case 6: accept = accept || PekitHeaders.sameName(name, "Accept"); expect = expect || PekitHeaders.sameName(name, "Expect")
        case 12: contentType = contentType || PekitHeaders.sameName(name, "Content-Type")
        case 14: contentLength = contentLength || PekitHeaders.sameName(name, "Content-Length")
        default: break
        }
    }
}

private func exchange(_ userdata: UnsafeMutableRawPointer?) -> Exchange? {
    userdata.map { Unmanaged<Exchange>.fromOpaque($0).takeUnretainedValue() }
}

private let headerCallback: curl_write_callback = { buffer, size, count, userdata in
    guard let buffer, let exchange = exchange(userdata) else { return 0 }
    exchange.headerLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
    // Taking less than given stops libcurl; the exchange's error is what is reported.
    return exchange.stopsAfterHead ? 0 : size * count
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
    exchange.reportProgress(downloadTotal: Int64(dltotal), downloaded: Int64(dlnow), uploadTotal: Int64(ultotal), uploaded: Int64(ulnow),
                            now: PekitClient.now())
    return exchange.shouldStop() ? 1 : 0
}
