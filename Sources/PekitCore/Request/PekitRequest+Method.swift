extension PekitRequest {
    /// A request method, as swift-http-types' `HTTPRequest.Method` has it: the common ones by
    /// name (`.get`, `.post`), any other token as written, its case kept (RFC 9110 §9.1: methods
    /// are case-sensitive, so `"get"` is not `.get`). A string literal is a method
    /// (`builder.method = "PROPFIND"`), and so is any string through `init(_:)`; the builder
    /// refuses one that is not a token when it builds the request.
    public struct Method: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The method as sent.
        public let rawValue: String

        /// The method `rawValue`, as written.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The method `token`, as written.
        public init(_ token: String) { rawValue = token }
        /// The method the literal names, as written.
        public init(stringLiteral value: String) { rawValue = value }
        /// Reads a method from a single string, as written.
        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
        /// Writes the method as a single string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public var description: String { rawValue }

        /// GET (RFC 9110 §9.3.1).
        public static let get = Method("GET")
        /// HEAD (RFC 9110 §9.3.2).
        public static let head = Method("HEAD")
        /// POST (RFC 9110 §9.3.3).
        public static let post = Method("POST")
        /// PUT (RFC 9110 §9.3.4).
        public static let put = Method("PUT")
        /// DELETE (RFC 9110 §9.3.5).
        public static let delete = Method("DELETE")
        /// CONNECT (RFC 9110 §9.3.6).
        public static let connect = Method("CONNECT")
        /// OPTIONS (RFC 9110 §9.3.7).
        public static let options = Method("OPTIONS")
        /// TRACE (RFC 9110 §9.3.8).
        public static let trace = Method("TRACE")
        /// PATCH (RFC 5789).
        public static let patch = Method("PATCH")
    }
}
