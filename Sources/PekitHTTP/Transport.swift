#if canImport(Glibc)
import Glibc
#endif
import PekitCore

/// Which of the two senders takes a request, and why: pekit's own HTTP/1.1 transfer
/// (`PlainTransfer`, the fast path) or libcurl (the reference). This is the one place that
/// chooses; the engine asks it once per hop, and `-v` says what it answered.
///
/// The plain transfer takes only what it implements as libcurl does: a bodiless request over
/// `http://`, with the options in `implementedOptions` at any value. Every other option of
/// `SendOptions` is in `libcurlOptions` and sends through libcurl whenever it is set; a test
/// reads SendOptions' stored properties and fails when one is in neither list, so an option added
/// later goes to libcurl until the plain transfer implements it.
enum Transport: Equatable, CustomStringConvertible {
    case plain
    /// libcurl, and the reason (a phrase: "a request body", "option proxy").
    case libcurl(String)

    var description: String {
        switch self {
        case .plain: return "pekit's HTTP/1.1 transfer"
        case .libcurl(let reason): return "libcurl (\(reason))"
        }
    }

    /// Options the plain transfer implements (or that work above either sender: the jar, the
    /// signer, redirects, retries, the rate limit, the HAR record, the sink, Ctrl-C; TLS options
    /// mean nothing to an `http://` URL).
    static let implementedOptions: Set<String> = [
        "maxBody", "jar", "cookieHeaderFromJar", "ownCookie", "followRedirects", "maxRedirects", "connectSeconds", "timeoutSeconds", "insecure",
        "caCertificate", "sink", "isCancelled", "record", "notice", "rate", "retry", "willRetry", "sign", "plainHTTP", "trustsRedirects",
        "explainsCookies", "cookieContext", "trace", "keepsHeads", "head", "authScheme", "authHash", "keepsPost",
        // The plain transfer never goes through a proxy; TLS's client certificate means nothing to http://.
        "netrc", "netrcFile", "hstsFile", "autoReferer", "noProxy", "proxyAuthScheme", "expectContinueSeconds", "clientCertificate", "certificateType", "privateKey", "privateKeyType", "keyPassword",
    ]
    /// Options only libcurl implements: set, they send through it.
    static let libcurlOptions: Set<String> = ["ipVersion", "proxy", "connect", "version", "compressed", "rawTransfer", "progress", "transferEncoding", "ignoresContentLength",
                                                  "proxyTunnel", "unixSocket", "abstractUnixSocket", "allowsHTTP09"]

    /// The options' part of the choice, made once per send: why libcurl must send, or nil.
    static func reason(_ options: borrowing SendOptions) -> String? {
        if !options.plainHTTP { return "asked for" }
        if let reason = HeldLibcurl.reason { return reason }
        if options.progress != nil { return "option progress" }
        if options.compressed { return "option compressed" }
        if options.transferEncoding { return "option transferEncoding" }
        if options.ignoresContentLength { return "option ignoresContentLength" }
        if options.rawTransfer { return "option rawTransfer" }
        if options.version == .http2 { return "HTTP/2" }
        if options.version == .http1_0 { return "HTTP/1.0" }
        if options.allowsHTTP09 { return "option allowsHTTP09" }
        if options.unixSocket != nil || options.abstractUnixSocket != nil { return "a Unix socket" }
        if options.proxyTunnel { return "option proxyTunnel" }
        if options.ipVersion != .any { return "option ipVersion" }
        if !options.connect.isEmpty { return "option connect" }
        if let proxy = options.proxy, !proxy.isEmpty { return "option proxy" }
        return nil
    }

    /// The choice for one request (a hop), given the options' part (`reason(_:)`) and whether
    /// they name a proxy (an empty one: none, whatever the environment says).
    static func choose(_ request: PekitRequest, options reason: String?, proxySet: Bool) -> Transport {
        if let reason { return .libcurl(reason) }
        guard request.url.hasPrefix("http://") else { return .libcurl("not http://") }
        guard case .empty = request.body else { return .libcurl("a request body") }
        if request.decodesBody { return .libcurl("a body to decode") }
        if !request.connect.isEmpty { return .libcurl("a connect mapping") }
        if request.method == "CONNECT" { return .libcurl("CONNECT") }
        // libcurl sends through the proxy its environment names (http_proxy, all_proxy).
        if !proxySet, hasEnvironment("http_proxy") || hasEnvironment("all_proxy") || hasEnvironment("ALL_PROXY") {
            return .libcurl("a proxy in the environment")
        }
        var host = false
        for field in request.headers.fields {
            switch field.name.utf8.count {
            case 4 where PekitHeaders.sameName(field.name, "Host"):
                // libcurl writes its own Host for an empty one.
                if !host && field.value.isEmpty { return .libcurl("an empty Host field") }
                host = true
            case 14 where PekitHeaders.sameName(field.name, "Content-Length"): return .libcurl("a Content-Length field")
            // A request framed in chunks has a body, if only the last chunk.
            case 17 where PekitHeaders.sameName(field.name, "Transfer-Encoding"): return .libcurl("a Transfer-Encoding field")
            default: break
            }
        }
        return .plain
    }

    /// The choice for `request` under `options` (tests, and callers with both at hand).
    static func choose(_ request: PekitRequest, _ options: borrowing SendOptions) -> Transport {
        choose(request, options: reason(options), proxySet: options.proxy != nil)
    }

    static func hasEnvironment(_ name: String) -> Bool {
        guard let value = getenv(name) else { return false }
        return value.pointee != 0
    }
}
