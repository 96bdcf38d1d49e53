import PekitCore

/// What came back: the final response after any redirects that were followed.
public struct PekitResponse: Sendable {
    /// One response header field; the value is kept as the bytes that arrived.
    public struct Field: Equatable, Sendable {
        /// The field's name, as it arrived.
        public let name: String
        /// The field's value, as bytes.
        public internal(set) var value: ByteString
        /// A field.
        public init(name: String, value: ByteString) { self.name = name; self.value = value }
    }

    /// A redirect that was followed: the request that got it and where it pointed.
    public struct Hop: Equatable, Sendable {
        /// The method of the request that got the redirect.
        public let method: PekitRequest.Method
        /// That request's URL.
        public let url: String
        /// The redirect's status (301, 302, 303, 307, 308).
        public let status: Int
        /// Its `Location`, as sent.
        public let location: String
        /// A hop.
        public init(method: PekitRequest.Method, url: String, status: Int, location: String) {
            self.method = method; self.url = url; self.status = status; self.location = location
        }
    }

    /// Seconds from the start of the final exchange to each phase (curl's `*_TIME_T` values);
    /// 0 for a phase that did not happen (no DNS for an address, no TLS for http).
    public struct Timing: Equatable, Sendable {
        /// Name resolution done.
        public var dns = 0.0
        /// TCP connected.
        public var connect = 0.0
        /// TLS handshake done.
        public var tls = 0.0
        /// About to send the request (connected, TLS done).
        public var pretransfer = 0.0
        /// The first byte of the response received.
        public var firstByte = 0.0
        /// The exchange over.
        public var total = 0.0
        /// The exchanges of the redirects followed before the final one, in all (curl's
        /// `time_redirect`), 0 without redirects.
        public var redirect = 0.0
        /// All phases at 0.
        public init() {}
    }

    /// The status code (200).
    public var status = 0
    /// The reason phrase ("" for HTTP/2, which has none).
    public var reason = ""
    /// "1.0", "1.1", "2" or "3".
    public var httpVersion = ""
    /// Every field in order, repeated ones (Set-Cookie) each kept.
    public var headers: [Field] = []
    /// With `SendOptions.keepsHeads`: the header blocks of the conversation as they came, byte
    /// for byte (each line with its own ending, LF alone included): every redirect followed and
    /// every interim 1xx response, then the final one. Empty otherwise.
    public var heads: [UInt8] = []
    /// With `SendOptions.keepsHeads`: the trailer's lines after a chunked body as they came
    /// (without the empty line that ends them), which curl's -i writes after the body.
    public var trailerHeads: [UInt8] = []
    /// Fields sent after a chunked body (RFC 9110 §6.5), in order: metadata about the body,
    /// never read for cookies, the status or a redirect. Kept up to 300 KiB.
    public var trailers: [Field] = []
    /// The body as received (empty when it went to a sink).
    public var body: [UInt8] = []
    /// Body bytes received, wherever they went.
    public var bodyLength = 0
    /// A copy of a body that went to a file or a callback, kept for the HAR record
    /// (`SendOptions.record`) up to `Exchange.recordedBodyLimit`; nil otherwise.
    package var recordedBody: [UInt8]?
    /// With `SendOptions.explainsCookies`: this hop's cookie lines (what was sent or held back,
    /// what became of each Set-Cookie), which the HAR entry keeps as its comments.
    package var cookieNotes: CookieNotes?
    /// One hop's cookies, for `-v` and the HAR: the lines, and the cookies themselves (those the
    /// jar sent, in the Cookie field's order, and those it stored from the response).
    package struct CookieNotes {
        package var sent: [String] = [], received: [String] = []
        package var sentCookies: [Cookie] = [], storedCookies: [Cookie] = []
    }
    /// The URL of the final request.
    public var url = ""
    /// The method of the final request (a 303 turns POST into GET).
    public var method: PekitRequest.Method = ""
    /// The redirects followed on the way, in order.
    public var redirects: [Hop] = []
    /// How many times the request was sent (more than 1 after retries).
    public var attempts = 1
    /// Whether the body was cut short because its sink asked to stop (`SendOptions.StopBody`).
    public var stoppedEarly = false
    /// When each phase of the final exchange ended.
    public var timing = Timing()
    /// The address and port the final exchange was sent to (after any `connect` mapping).
    public var remoteAddress = ""
    /// The port of `remoteAddress`.
    public var remotePort = 0
    /// The local address and port of the final exchange's connection (curl's `%{local_ip}`,
    /// `%{local_port}`).
    public var localAddress = ""
    /// The port of `localAddress`.
    public var localPort = 0
    /// Body bytes the final request sent (curl's `%{size_upload}`).
    public var uploadedBytes = 0
    /// Bytes of request heads sent, every hop of the last try (curl's `%{size_request}`).
    public var requestHeadBytes = 0
    /// The TLS certificate check's result, 0 when it passed or there was no TLS (curl's
    /// `%{ssl_verify_result}`, OpenSSL's X509_V_ERR code).
    public var tlsVerifyResult = 0
    /// The `Referer` the final request carried (curl's `%{referer}`), nil when none.
    public var referer: String?
    /// The connections the send opened, every hop of its last try included (0 for a hop sent on
    /// a kept one): curl's `%{num_connects}`.
    public var connections = 0

    /// An empty response (a status of 0), to fill in.
    public init() {}

    /// The first value of `name` (ASCII case-insensitive, as field names compare).
    public func header(_ name: String) -> ByteString? { Self.first(name, in: headers) }

    /// The first value of `name` among `fields`.
    static func first(_ name: String, in fields: [Field]) -> ByteString? {
        fields.first { PekitHeaders.sameName($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func headers(named name: String) -> [ByteString] {
        headers.filter { PekitHeaders.sameName($0.name, name) }.map(\.value)
    }
}
