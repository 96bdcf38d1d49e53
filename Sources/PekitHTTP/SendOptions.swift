import PekitCore

/// How a request is sent. The defaults are curl's and requests' where those are safe: redirects
/// followed (at most 10), TLS verified, proxies from the environment, no total time limit.
public struct SendOptions: Sendable {
    /// Where the body of the final response goes.
    public enum Sink: Sendable {
        /// Kept in `PekitResponse.body`.
        case memory
        /// Written to a file that appears complete, or not at all (temporary file, then rename).
        case file(String)
        /// Handed over in pieces as they arrive; an error thrown stops the transfer, and
        /// `SendOptions.StopBody` stops it with no error (the response comes back `stoppedEarly`).
        case custom(@Sendable ([UInt8]) throws -> Void)
    }

    /// Thrown by a `.custom` sink that has read enough (a stream it follows ended for it): the
    /// transfer stops there and the send returns the response so far, `stoppedEarly`.
    public struct StopBody: Error, Sendable, CustomStringConvertible {
        /// The stop, to throw from a `.custom` sink.
        public init() {}
        /// What it is, for a person.
        public var description: String { "the body's sink asked to stop the transfer" }
    }

    /// Which HTTP version is asked for.
    public enum Version: String, Sendable {
        /// HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise.
        case automatic
        /// HTTP/1.0 (curl's `-0`): libcurl writes the request line so and keeps no connection.
        case http1_0 = "1.0"
        /// HTTP/1.1 only.
        case http1_1 = "1.1"
        /// HTTP/2 (over TLS by ALPN; prior knowledge on plain http).
        case http2 = "2"
    }

    /// The timeouts a caller may set, in seconds (libcurl takes milliseconds in a long: larger
    /// values would overflow the conversion). The lower bound is exclusive where callers check it.
    public static let secondsRange: ClosedRange<Double> = 0...1_000_000
    /// The redirect limits a caller may set.
    public static let redirectRange: ClosedRange<Int> = 0...1000

    /// The most response-body bytes kept or passed on; nil: 1 GiB when the body is kept in
    /// memory (`.memory`, the default), no limit when it streams to a file or a function. Counted
    /// after decompression, so a small gzip cannot expand without bound (curl's --max-filesize).
    public var maxBody: Int?
    /// Which addresses a name may resolve to (curl's -4 / -6).
    public enum IPVersion: String, Sendable {
        /// Either.
        case any
        /// IPv4 only (curl's `-4`).
        case v4 = "4"
        /// IPv6 only (curl's `-6`).
        case v6 = "6"
    }
    /// Which addresses the host's name may resolve to.
    public var ipVersion = IPVersion.any
    /// The limit for an in-memory body when `maxBody` is nil.
    public static let defaultMaxMemoryBody = 1 << 30

    /// The body limit that applies to this sink.
    public var effectiveMaxBody: Int? {
        if let maxBody { return maxBody }
        if case .memory = sink { return Self.defaultMaxMemoryBody }
        return nil
    }

    /// Cookies: each hop's Set-Cookie fields are stored for that hop's URL.
    public var jar: CookieJar?
    /// Whether each hop's Cookie header comes from the jar (false keeps a Cookie header the
    /// caller wrote by hand).
    public var cookieHeaderFromJar = true
    /// The caller's own cookie pairs (`RequestBuilder.cookie`), sent after the jar's on every hop.
    public var ownCookie: String?
    /// Whether redirects are followed (`Location` of a 3xx); false returns the redirect itself.
    public var followRedirects = true
    /// Whether a redirect to another origin keeps the credentials (Authorization, a hand-written
    /// Cookie), as curl's `--location-trusted`: only for hosts all trusted. False drops them.
    public var trustsRedirects = false
    /// Each redirect's request carries the URL it was redirected from as its `Referer` (without
    /// its user, password and fragment), as curl's `-e 'URL;auto'`.
    public var autoReferer = false
    /// The redirect statuses after which a POST stays a POST (curl's `--post301`, `--post302`,
    /// `--post303`; by default a 301 or 302 makes a POST a GET, and a 303 anything but HEAD).
    public var keepsPost: Set<Int> = []
    /// How the request's credentials (its `Authorization: Basic` from a user and password) are
    /// sent: at once (`.basic`), or only to answer a 401's challenge (`.digest`, `.any`), as
    /// curl's `--digest` and `--anyauth`.
    public var authScheme = AuthScheme.basic
    /// Credentials from a `.netrc` file for each hop's host (curl's `--netrc`: `.required`, the
    /// URL's user and password set aside for the file's; `--netrc-optional`: `.optional`, the
    /// URL's password kept when it has one); never over the caller's own (`-u`). nil: none,
    /// unless `netrcFile` is given, which alone means `.required` (curl's `--netrc-file`).
    public var netrc: NetrcMode?
    /// The `.netrc` file to read (nil: `$HOME/.netrc`).
    public var netrcFile: String?
    /// The hash a Digest answer needs, by its name in the challenge (`MD5`, `SHA-256`):
    /// PekitCrypto's, which the caller gives (the command line and the Lua host do); without it
    /// a Digest challenge is not answered.
    public var authHash: (@Sendable (String, [UInt8]) throws -> [UInt8])?
    /// The most redirects followed before `HTTPError.tooManyRedirects` (10, as requests has 30 and curl 50).
    public var maxRedirects = 10
    /// How long connecting may take (DNS, TCP, TLS); nil: curl's 300 seconds. Default 30 seconds.
    public var connectTimeout: Duration? {
        get { connectSeconds.map { .seconds($0) } }
        set { connectSeconds = newValue?.inSeconds }
    }
    /// How long the whole send may take, redirects and retries included; nil: no limit.
    public var timeout: Duration? {
        get { timeoutSeconds.map { .seconds($0) } }
        set { timeoutSeconds = newValue?.inSeconds }
    }
    /// The limits in seconds, as libcurl, scripts and the command line give them.
    package var connectSeconds: Double? = 30
    package var timeoutSeconds: Double?
    /// Turns off certificate and host name checks.
    public var insecure = false
    /// A PEM file of certificate authorities to trust instead of the system's.
    public var caCertificate: String?
    /// A proxy URL; "" for none; nil: curl's environment variables (http_proxy, HTTPS_PROXY,
    /// ALL_PROXY, NO_PROXY).
    public var proxy: String?
    /// How the proxy's credentials (`-U`, the proxy URL's) are sent: Basic at once (nil or
    /// `.basic`), or to answer its 407 challenge (`.digest`, `.any`: Digest, NTLM or Negotiate
    /// before Basic, as libcurl picks), as curl's `--proxy-basic`, `--proxy-digest`,
    /// `--proxy-anyauth`. libcurl answers the challenge.
    public var proxyAuthScheme: AuthScheme?
    /// How long an upload with `Expect: 100-continue` waits for the server's answer before it
    /// sends its body anyway (curl's `--expect100-timeout`; libcurl's default: 1 second).
    public var expectContinueSeconds: Double?
    /// Hosts reached without the proxy: curl's `--noproxy` list (names, each matching itself
    /// and its subdomains; addresses, with a `/bits` mask; `*` for all), which replaces
    /// `NO_PROXY` from the environment. nil: the environment's.
    public var noProxy: String?
    /// Through an HTTP proxy, ask it for a tunnel (`CONNECT host:port`) even for `http://`, as
    /// curl's `-p`/`--proxytunnel`.
    public var proxyTunnel = false
    /// Connect to this Unix domain socket instead of the URL's host and port (curl's
    /// `--unix-socket`); the URL still gives Host, cookies and TLS's name.
    public var unixSocket: String?
    /// The same for a socket in Linux's abstract namespace (curl's `--abstract-unix-socket`).
    public var abstractUnixSocket: String?
    /// A client certificate for TLS (curl's `-E`/`--cert`): a file, in `certificateType`'s format.
    public var clientCertificate: String?
    /// The certificate's format: `PEM` (the default), `DER` or `P12`.
    public var certificateType: String?
    /// The certificate's private key, when not in the certificate's file (curl's `--key`).
    public var privateKey: String?
    /// The key's format: `PEM` (the default), `DER` or `ENG`.
    public var privateKeyType: String?
    /// The passphrase of the key or the P12 file (curl's `--pass`, or `--cert FILE:PASSWORD`).
    public var keyPassword: String?
    /// An HSTS cache file, as curl's `--hsts`: read before the send (a host it lists is reached
    /// over https:// whatever the URL says), each https answer's `Strict-Transport-Security`
    /// taken into it, and written again at the end (`HSTSCache`).
    public var hstsFile: String?
    /// Accept an HTTP/0.9 answer (a body with no status line or headers), as curl's
    /// `--http0.9`; by default it fails, as in curl 7.66 and later.
    public var allowsHTTP09 = false
    /// Added to the request's own host mappings.
    public var connect: [HostMapping] = []
    /// The HTTP version asked for.
    public var version = Version.automatic
    /// Sends Accept-Encoding for what libcurl can decode and decodes the body.
    public var compressed = false
    /// Asks for a transfer-encoded response (`TE: gzip`, `Connection: TE`) and decodes it, as
    /// curl's `--tr-encoding` (libcurl sends and decodes it).
    public var transferEncoding = false
    /// Reads the body to the connection's end whatever its Content-Length says, as curl's
    /// `--ignore-content-length` (libcurl reads it so).
    public var ignoresContentLength = false
    /// The body as it comes, its transfer framing (chunks) and codings included, nothing decoded
    /// (curl's `--raw`).
    public var rawTransfer = false
    /// Where the final response's body goes.
    public var sink = Sink.memory
    /// Told once of the final response's head (status, fields, URL; no body yet), just before
    /// its first body byte goes to the sink: a streaming reader's status and fields before the
    /// stream (`PekitClient.stream(_:options:)`). A response without a body is not told here;
    /// the send's result is the whole of it.
    public var head: (@Sendable (PekitResponse) -> Void)?
    /// Whether a request `PlainTransfer` takes (plain HTTP/1.1, no body, no proxy…) is sent by
    /// pekit itself; false sends everything through libcurl (the tests compare the two).
    package var plainHTTP = true

    /// Polled during the transfer; true stops it with `HTTPError.cancelled`.
    public var isCancelled: (@Sendable () -> Bool)?
    /// What goes over the wire, as libcurl reports it (for curl's -v and --trace-ascii): notes,
    /// header blocks sent and received, body bytes sent and received. Called on the sending
    /// thread, for every request of a redirect chain.
    public var trace: (@Sendable (TraceEvent, [UInt8]) -> Void)?

    /// What a `trace` call carries (curl's `--trace-ascii` kinds).
    public enum TraceEvent: Sendable {
        /// libcurl's own notes (connecting, TLS).
        case text
        /// Header bytes sent.
        case headerOut
        /// Header bytes received.
        case headerIn
        /// Body bytes sent.
        case dataOut
        /// Body bytes received.
        case dataIn
    }

    /// Called after every exchange (each request of a redirect chain): the request as sent, the
    /// response as received (a followed redirect's body is not kept) and when it started (Unix
    /// seconds). What `--har` records.
    public var record: (@Sendable (PekitRequest, PekitResponse, Double) -> Void)?
    /// Told what happened that the user may not expect (`Notice.text` says it).
    public var notice: (@Sendable (Notice) -> Void)?
    /// Say, on every hop, which of the jar's cookies were sent and which held back and why, and
    /// what became of each Set-Cookie field (`Notice.cookies`, and the HAR entry's comments).
    public var explainsCookies = false
    /// Keep the header blocks as they came (`PekitResponse.heads`): every response of the
    /// conversation, redirects followed and interim 1xx included, each line with its own ending
    /// (what curl's -i and -D write).
    public var keepsHeads = false
    /// The context the jar's cookies are sent and received in: a cross-site request or
    /// response, and the top-level page (CHIPS partitions). Default: same-site, top-level.
    public var cookieContext = CookieJar.RequestContext()

    /// Something a send did as it should that the user may not expect.
    public enum Notice: Equatable, Sendable {
        /// Cookies from `address` (a request carrying `Host: name`) were stored under the
        /// address: they belong to the URL's host, whatever the Host field says.
        case cookiesUnderAddress(address: String, name: String, port: Int)
        /// One hop's cookies (with `explainsCookies`): a line for each cookie the jar sent or held
        /// back, and one for each Set-Cookie field of the response.
        case cookies(url: String, sent: [String], received: [String])

        /// The sentence, with the option that does what was meant spelt for Lua or the command line.
        public func text(_ naming: HTTPError.Naming) -> String {
            switch self {
            case .cookiesUnderAddress(let address, let name, let port):
                let mapping = SendOptions.hostMapping(name, port, address, naming)
                return "cookies from \(address) were stored under \(address), not \(name): the Host field does not change whose cookies they are; "
                    + "to reach \(name) at \(address), put \(name) in the URL and map it with \(mapping)"
            case .cookies(let url, let sent, let received):
                return (["cookies for \(url):"] + sent + received).joined(separator: "\n")
            }
        }
    }
    /// How a transfer goes, about five times a second and once at its end: bytes received and
    /// sent, with the totals when known (0 otherwise), and seconds since it started.
    public var progress: (@Sendable (Progress) -> Void)?

    /// How far a transfer has got.
    public struct Progress: Sendable, Equatable {
        /// Bytes received and sent so far, and the totals when known (0 otherwise).
        public var downloaded: Int64, downloadTotal: Int64, uploaded: Int64, uploadTotal: Int64
        /// Since the transfer started.
        public var elapsed: Duration
    }

    /// Spaces requests to each host (every request of a redirect chain and every retry counts).
    public var rate: RateLimiter?
    /// When to send again after a passing failure (nil: never).
    public var retry: SendRetryPolicy?
    /// Called before each retry: the attempt about to start, the status or error that caused it,
    /// and the wait (for -v).
    public var willRetry: (@Sendable (Int, String, Duration) -> Void)?

    /// curl's and requests' defaults, where they are safe.
    public init() {}

    /// Options that keep the cookies as `builder` set them up: its jar, and a Cookie header the
    /// caller wrote or removed by hand left alone. A send derives the same from the request the
    /// builder built (`PekitRequest.cookieSetup`, `signer`) when these options name no jar or
    /// signer of their own: this is for changing one of them before sending.
    public init(cookiesOf builder: RequestBuilder) {
        keepCookies(jar: builder.jar, headerFromJar: !builder.overridesCookie, own: builder.cookie, context: builder.cookieContext)
        sign = builder.signer
    }

    /// These options with what `request` was built with filled in where they name none: its jar
    /// and Cookie setup when no `jar` is given, its signer when no `sign` is.
    public func completed(by request: PekitRequest) -> SendOptions {
        guard (jar == nil && request.cookieSetup != nil) || (sign == nil && request.signer != nil) else { return self }
        var options = self
        if options.jar == nil, let setup = request.cookieSetup {
            options.keepCookies(jar: setup.jar, headerFromJar: setup.headerFromJar, own: setup.own, context: setup.context)
        }
        if options.sign == nil { options.sign = request.signer }
        return options
    }

    /// The four cookie options a builder's setup gives, set together.
    private mutating func keepCookies(jar: CookieJar?, headerFromJar: Bool, own: String?, context: CookieJar.RequestContext) {
        self.jar = jar
        cookieHeaderFromJar = headerFromJar
        ownCookie = own
        cookieContext = context
    }

    /// Signs each hop to the request's own origin again (a redirect to another origin carries no
    /// signature: its headers are dropped, as Authorization is).
    public var sign: (@Sendable (inout PekitRequest) throws -> Void)?
    /// The headers a signature adds.
    static let signatureHeaders = ["Authorization", "X-Amz-Date", "X-Amz-Security-Token", "X-Amz-Content-SHA256"]

    /// A mapping of `host:port` to `address:port` (the `connect` option) as a caller on that
    /// surface writes it.
    package static func hostMapping(_ host: String, _ port: Int, _ address: String, _ naming: HTTPError.Naming) -> String {
        switch naming {
        case .lua: return "connect = {[\"\(host):\(port)\"] = \"\(address):\(port)\"}"
        case .commandLine: return "--connect \(host):\(port)=\(address):\(port)"
        case .swift: return "connect = [HostMapping(host: \"\(host)\", port: \(port), address: \"\(address)\", addressPort: \(port))]"
        }
    }

    /// Every send option, one row each (SendOptions+Fields.swift), in the order errors list them.
    /// A new send option is its property above, its row here, where the libcurl transfer applies
    /// it (Transfer.swift) and which sender implements it (Transport.swift's two lists): a
    /// script's tables, `pekit request`'s flags and `pekit import curl` read the row.
    package static let fields: [Field] = [
        Field("jar", swift: "jar", .script("a cookie jar")),
        Field("same_site", swift: "cookieContext.site", .choice(CookieJar.RequestContext.Site.allCases.map(\.rawValue))) { options, value in
            options.cookieContext.site = value.text.flatMap(CookieJar.RequestContext.Site.init(rawValue:)) ?? .same
        },
        Field("site_for_cookies", swift: "cookieContext.siteForCookies", .script("the URL of the page the request is for (each hop's site is judged from it)")),
        Field("navigation", swift: "cookieContext.navigation", .flag) { $0.cookieContext.navigation = $1.flag },
        Field("top_level", swift: "cookieContext.topLevel", .script("the top-level page's URL (CHIPS partitions)")),
        Field("follow", swift: "followRedirects", .flag, flags: [
            Field.Flag("no-follow", """
                do not follow redirects (pekit follows up to 10 by default, where curl
                follows only with -L, which pekit accepts)
                """)], implied: ["no-follow": .flag(false)]) { $0.followRedirects = $1.flag },
        Field("location_trusted", swift: "trustsRedirects", .flag, flags: [
            Field.Flag("location-trusted", """
                follow redirects and send the credentials (Authorization, a written Cookie)
                to every host they lead to, as curl's --location-trusted: trusted hosts only
                """)]) { $0.trustsRedirects = $1.flag },
        Field("auto_referer", swift: "autoReferer", .flag) { $0.autoReferer = $1.flag },
        Field("post301", swift: "keepsPost", .flag, flags: [
            Field.Flag("post301", "after a 301, a POST stays a POST (curl --post301)")]) { if $1.flag { $0.keepsPost.insert(301) } else { $0.keepsPost.remove(301) } },
        Field("post302", swift: "keepsPost", .flag, flags: [
            Field.Flag("post302", "after a 302, a POST stays a POST (curl --post302)")]) { if $1.flag { $0.keepsPost.insert(302) } else { $0.keepsPost.remove(302) } },
        Field("post303", swift: "keepsPost", .flag, flags: [
            Field.Flag("post303", "after a 303, a POST stays a POST (curl --post303)")]) { if $1.flag { $0.keepsPost.insert(303) } else { $0.keepsPost.remove(303) } },
        Field("auth_scheme", swift: "authScheme", .choice(AuthScheme.allCases.map(\.rawValue)), flags: [
            Field.Flag("digest", """
                send -u's user and password only to answer a Digest challenge (RFC 7616:
                MD5, SHA-256 and their -sess forms), as curl --digest: the first request
                goes without them and without its body
                """),
            Field.Flag("anyauth", """
                answer whichever challenge a 401 makes with -u's user and password,
                Digest before Basic, as curl --anyauth (NTLM and Negotiate are not spoken)
                """),
            Field.Flag("basic", "send -u's user and password as Basic at once (the default)")],
            implied: ["digest": .text("digest"), "anyauth": .text("any"), "basic": .text("basic")]) {
                $0.authScheme = $1.text.flatMap(AuthScheme.init(rawValue:)) ?? .basic
            },
        Field("netrc", swift: "netrc", .choice(NetrcMode.allCases.map(\.rawValue)), flags: [
            Field.Flag("netrc", short: "n", """
                the user and password for each host from ~/.netrc (the URL's set aside),
                as curl --netrc reads the file; never over -u
                """),
            Field.Flag("netrc-optional", "the same, the URL's password kept when it has one")],
            implied: ["netrc": .text("required"), "netrc-optional": .text("optional")]) { $0.netrc = $1.text.flatMap(NetrcMode.init(rawValue:)) },
        Field("netrc_file", swift: "netrcFile", .text, flags: [
            Field.Flag("netrc-file", value: "FILE", "read this file instead of ~/.netrc (alone: as --netrc)")]) { $0.netrcFile = $1.text },
        Field("max_redirects", swift: "maxRedirects", .count(redirectRange), flags: [
            Field.Flag("max-redirects", value: "N", "follow at most N redirects"),
            Field.Flag("max-redirs", value: "N", "the same, by curl's name")]) { $0.maxRedirects = $1.integer ?? $0.maxRedirects },
        Field("timeout", swift: "timeout", .seconds, flags: [
            Field.Flag("timeout", value: "S", "give up after S seconds in all"),
            Field.Flag("max-time", short: "m", value: "S", "the same, by curl's name")]) { $0.timeoutSeconds = $1.number },
        Field("connect_timeout", swift: "connectTimeout", .seconds, flags: [
            Field.Flag("connect-timeout", value: "S", "give up connecting after S seconds (default 30)")]) { $0.connectSeconds = $1.number },
        Field("insecure", swift: "insecure", .flag, flags: [
            Field.Flag("insecure", short: "k", "do not check certificates")]) { $0.insecure = $1.flag },
        Field("cacert", swift: "caCertificate", .text, flags: [
            Field.Flag("cacert", value: "FILE", "trust the CAs in FILE")]) { $0.caCertificate = $1.text },
        Field("proxy", swift: "proxy", .text, flags: [
            Field.Flag("proxy", short: "x", value: "URL", "use this proxy ('' for none; default: http_proxy, HTTPS_PROXY, NO_PROXY…)"),
            Field.Flag("socks4", value: "HOST[:PORT]", "the same for a SOCKS4 proxy (socks4://HOST; the last of these and -x wins, as curl)", scheme: "socks4"),
            Field.Flag("socks4a", value: "HOST[:PORT]", "a SOCKS4a proxy, which resolves the host's name (socks4a://HOST)", scheme: "socks4a"),
            Field.Flag("socks5", value: "HOST[:PORT]", "a SOCKS5 proxy, the name resolved here (socks5://HOST)", scheme: "socks5"),
            Field.Flag("socks5-hostname", value: "HOST[:PORT]", "a SOCKS5 proxy that resolves the host's name (socks5h://HOST)", scheme: "socks5h"),
        ]) { $0.proxy = $1.text },
        Field("proxy_auth", swift: "proxyAuthScheme", .choice(AuthScheme.allCases.map(\.rawValue)), flags: [
            Field.Flag("proxy-basic", "send -U's credentials to the proxy as Basic at once (the default)"),
            Field.Flag("proxy-digest", "send -U's credentials to the proxy only to answer its Digest challenge, as curl"),
            Field.Flag("proxy-anyauth", "answer whichever challenge the proxy's 407 makes, as curl (libcurl picks)")],
            implied: ["proxy-basic": .text("basic"), "proxy-digest": .text("digest"), "proxy-anyauth": .text("any")]) {
                $0.proxyAuthScheme = $1.text.flatMap(AuthScheme.init(rawValue:))
            },
        Field("expect100_timeout", swift: "expectContinueSeconds", .seconds, flags: [
            Field.Flag("expect100-timeout", value: "S", "wait S seconds for an upload's 100 Continue before sending the body (default 1)")]) {
                $0.expectContinueSeconds = $1.number
            },
        Field("noproxy", swift: "noProxy", .text, flags: [
            Field.Flag("noproxy", value: "LIST", """
                reach these hosts without the proxy: names (each with its subdomains),
                addresses (with /bits), * for all; replaces NO_PROXY, as curl --noproxy
                """)]) { $0.noProxy = $1.text },
        Field("proxytunnel", swift: "proxyTunnel", .flag, flags: [
            Field.Flag("proxytunnel", short: "p", "through an HTTP proxy, tunnel (CONNECT) even to http:// URLs, as curl")]) { $0.proxyTunnel = $1.flag },
        Field("unix_socket", swift: "unixSocket", .text, flags: [
            Field.Flag("unix-socket", value: "PATH", "connect to this Unix domain socket instead of the URL's host and port, as curl")]) { $0.unixSocket = $1.text },
        Field("abstract_unix_socket", swift: "abstractUnixSocket", .text, flags: [
            Field.Flag("abstract-unix-socket", value: "NAME", "the same for a socket in Linux's abstract namespace")]) { $0.abstractUnixSocket = $1.text },
        Field("cert", swift: "clientCertificate", .text, flags: [
            Field.Flag("cert", short: "E", value: "FILE[:PASS]", """
                a TLS client certificate (its key too, unless --key), as curl -E: a
                colon starts the passphrase (\\: for a colon in the name)
                """)]) { options, value in
                    let (certificate, passphrase) = SendOptions.certificateAndPassphrase(value.text ?? "")
                    options.clientCertificate = certificate
                    if let passphrase { options.keyPassword = passphrase }
                },
        Field("cert_type", swift: "certificateType", .choice(["PEM", "DER", "P12"]), flags: [
            Field.Flag("cert-type", value: "TYPE", "the certificate's format: PEM (default), DER or P12")]) { $0.certificateType = $1.text },
        Field("key", swift: "privateKey", .text, flags: [
            Field.Flag("key", value: "FILE", "the client certificate's private key, when not in --cert's file")]) { $0.privateKey = $1.text },
        Field("key_type", swift: "privateKeyType", .choice(["PEM", "DER", "ENG"]), flags: [
            Field.Flag("key-type", value: "TYPE", "the key's format: PEM (default), DER or ENG")]) { $0.privateKeyType = $1.text },
        Field("pass", swift: "keyPassword", .text, flags: [
            Field.Flag("pass", value: "PHRASE", "the passphrase of the key (or of a P12 certificate)")]) { $0.keyPassword = $1.text },
        Field("hsts", swift: "hstsFile", .text, flags: [
            Field.Flag("hsts", value: "FILE", """
                an HSTS cache, as curl's: hosts it lists are reached over https://, and
                https answers' Strict-Transport-Security are added to it
                """)]) { $0.hstsFile = $1.text },
        Field("http09", swift: "allowsHTTP09", .flag, flags: [
            Field.Flag("http0.9", "accept an HTTP/0.9 answer (no status line), as curl --http0.9"),
            Field.Flag("no-http0.9", "refuse one (the default)")], implied: ["no-http0.9": .flag(false)]) { $0.allowsHTTP09 = $1.flag },
        Field("connect", swift: "connect", .script("a table {[\"host:port\"] = \"address:port\"}")),
        Field("http", swift: "version", .choice(["1.0", "1.1", "2", "auto"]), flags: [
            Field.Flag("http", value: "V", "1.0, 1.1, 2 or auto: the HTTP version to ask for"),
            Field.Flag("http1.0", short: "0", "the same as --http 1.0 (curl's flags)"),
            Field.Flag("http1.1", "the same as --http 1.1 (curl's flag)"),
            Field.Flag("http2", "the same as --http 2 (curl's flag)")], implied: ["http1.0": .text("1.0"), "http1.1": .text("1.1"), "http2": .text("2")]) { options, value in
            options.version = value.text.flatMap(Version.init(rawValue:)) ?? .automatic
        },
        Field("tr_encoding", swift: "transferEncoding", .flag, flags: [
            Field.Flag("tr-encoding", "ask for a transfer-encoded answer (TE: gzip) and decode it, as curl --tr-encoding")]) { $0.transferEncoding = $1.flag },
        Field("ignore_content_length", swift: "ignoresContentLength", .flag, flags: [
            Field.Flag("ignore-content-length", "read the body to the connection's end whatever its Content-Length says, as curl")]) { $0.ignoresContentLength = $1.flag },
        Field("compressed", swift: "compressed", .flag, flags: [
            Field.Flag("compressed", "ask for a compressed body (every coding libcurl decodes, as curl) and decode it")]) { $0.compressed = $1.flag },
        Field("raw_transfer", swift: "rawTransfer", .flag, flags: [
            Field.Flag("raw-transfer", """
                the body as it comes, chunked framing and codings included, nothing
                decoded (curl's --raw, which pekit import curl reads as this)
                """)]) { $0.rawTransfer = $1.flag },
        Field("sink", swift: "sink", .script("a file path or a function(chunk)")),
        Field("max_body", swift: "maxBody", .bytes, flags: [
            Field.Flag("max-filesize", value: "N", """
                fail when the response body is larger than N bytes (default with -i:
                1 GiB, since the body is then held in memory; none when streamed)
                """)]) { $0.maxBody = $1.integer },
        Field("ip_version", swift: "ipVersion", .choice(["4", "6", "any"]), flags: [
            Field.Flag("ipv4", short: "4", "resolve names to IPv4 addresses only"),
            Field.Flag("ipv6", short: "6", "resolve names to IPv6 addresses only")],
              implied: ["ipv4": .text("4"), "ipv6": .text("6")]) { $0.ipVersion = $1.text.flatMap(IPVersion.init(rawValue:)) ?? .any },
        Field("retry", swift: "retry", .script("true or a table of retry options")),
        Field("rate", swift: "rate", .script("\"COUNT/s\" (or /m, /h), or {\"COUNT/s\", per = \"host\" or \"all\"}")),
        Field("progress", swift: "progress", .script("true, false or a function(info)")),
    ]
}
