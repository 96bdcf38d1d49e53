import PekitCore

/// OAuth 1.0a request signing (RFC 5849 §3.4–3.5) as oauthlib's `Client.sign` computes it: the
/// protocol parameters in oauthlib's order with `oauth_version="1.0"`, the signature base string
/// from the method, the base URI and the query, form-body and protocol parameters, and the
/// `Authorization: OAuth …` header. A JSON or other non-form body is not signed, but its SHA-1 is
/// sent as `oauth_body_hash` (the OAuth Request Body Hash extension), as oauthlib does.
public struct OAuth1: Sendable {
    /// The signature methods of RFC 5849 §3.4, and HMAC-SHA256.
    public enum Method: String, Sendable, CaseIterable {
        /// By the names `oauth_signature_method` carries.
        case hmacSHA1 = "HMAC-SHA1", hmacSHA256 = "HMAC-SHA256", plaintext = "PLAINTEXT", rsaSHA1 = "RSA-SHA1"
    }

    /// The client's key (`oauth_consumer_key`).
    public var consumerKey: String
    /// The client's shared secret.
    public var consumerSecret = ""
    /// The PEM private key for RSA-SHA1.
    public var rsaKey: [UInt8]?
    /// The token (`oauth_token`); nil before one is issued.
    public var token: String?
    /// The token's shared secret.
    public var tokenSecret: String?
    /// The signature method.
    public var method = Method.hmacSHA1
    /// A fixed `oauth_nonce` (tests); nil: a random one each time.
    public var nonce: String?
    /// A fixed `oauth_timestamp`; nil: the time of signing.
    public var timestamp: Int?
    /// The `realm` of the Authorization field (not signed).
    public var realm: String?
    /// `oauth_callback`, for a temporary-credentials request.
    public var callback: String?
    /// `oauth_verifier`, for a token request.
    public var verifier: String?
    /// Send `oauth_body_hash` for bodies that are not form-encoded (oauthlib's default: true).
    public var bodyHash = true

    /// A signer for the client `consumerKey`, HMAC-SHA1, no token.
    public init(consumerKey: String) { self.consumerKey = consumerKey }

    /// What was signed, for debugging a rejected signature.
    public struct Explanation: Sendable, Equatable {
        /// The signature base string (§3.4.1).
        public let baseString: String
        /// The signature, as `oauth_signature` carries it before encoding.
        public let signature: String
    }

    /// Escaping of RFC 5849 §3.6: everything but the unreserved characters.
    static func escape(_ s: String) -> String { PercentEncoder.rfc3986.encode(s) }

    /// Signs `request` in place (adds `Authorization`) at `now` when no timestamp is set.
    /// - Throws: `CryptoError` for a missing or bad RSA key, or a form body with a query that
    ///   cannot be read.
    @discardableResult
    public func sign(_ request: inout PekitRequest, now: Double) throws -> Explanation {
        let url = try request.requestURL()
        let contentType = request.headers["Content-Type"]
        let mediaType = contentType.map { String($0.split(separator: ";", maxSplits: 1)[0]).trimmingOWS.lowercased() }
        let isForm = mediaType == "application/x-www-form-urlencoded"
        let body = try request.bodyBytes()
        let freshNonce = nonce == nil ? String(decoding: Hex.encode(try Digest.random(16)), as: UTF8.self) : ""
        var oauth: [(String, String)] = [
            ("oauth_nonce", nonce ?? freshNonce),
            ("oauth_timestamp", String(timestamp ?? Int(now.rounded(.down)))),
            ("oauth_version", "1.0"),
            ("oauth_signature_method", method.rawValue),
            ("oauth_consumer_key", consumerKey),
        ]
        if let token { oauth.append(("oauth_token", token)) }
        if let callback { oauth.append(("oauth_callback", callback)) }
        if let verifier { oauth.append(("oauth_verifier", verifier)) }
        if bodyHash, !body.isEmpty, contentType != nil, !isForm {
            oauth.append(("oauth_body_hash", String(decoding: Base64.encode(try Digest.hash(.sha1, body), alphabet: .standard), as: UTF8.self)))
        }
        // The request's parameters: the query and a form body, decoded as oauthlib reads them.
        var params: [(String, String)] = []
        if let query = url.query, !query.isEmpty { params.append(contentsOf: try Self.decodePairs(query)) }
        if isForm, !body.isEmpty { params.append(contentsOf: try Self.decodePairs(String(decoding: body, as: UTF8.self))) }
        params += oauth
        let normalized = params.map { (Self.escape($0.0), Self.escape($0.1)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let defaultPort = url.scheme == "https" ? 443 : url.scheme == "http" ? 80 : nil
        let authority = (request.headers["Host"] ?? url.authority).lowercased()
        var host = authority
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]"), let port = Int(authority[authority.index(after: colon)...]), port == defaultPort {
            host = String(authority[..<colon])
        }
        let baseURI = "\(url.scheme.lowercased())://\(host)\(url.path.isEmpty ? "/" : url.path)".replacingSpaces
        let baseString = [Self.escape(request.method.rawValue.uppercased()), Self.escape(baseURI), Self.escape(normalized)].joined(separator: "&")
        let key = Self.escape(consumerSecret) + "&" + Self.escape(tokenSecret ?? "")
        let signature: String
        switch method {
        case .plaintext:
            signature = key
        case .hmacSHA1, .hmacSHA256:
            let mac = try Digest.hmac(method == .hmacSHA1 ? .sha1 : .sha256, key: Array(key.utf8), Array(baseString.utf8))
            signature = String(decoding: Base64.encode(mac, alphabet: .standard), as: UTF8.self)
        case .rsaSHA1:
            guard let rsaKey else { throw CryptoError("RSA-SHA1 needs rsa_key (a PEM private key)") }
            let pem = try CryptoKey.privateKey(pem: rsaKey)
            guard pem.kind == .rsa else { throw CryptoError("RSA-SHA1 needs an RSA key, not an EC one") }
            signature = String(decoding: Base64.encode(try pem.sign(Array(baseString.utf8), digest: .sha1), alphabet: .standard), as: UTF8.self)
        }
        // The realm is a quoted-string (RFC 5849 §3.5.1, after RFC 2617): a quote or backslash
        // in it would end it early and let its text add parameters, so it is refused.
        if let realm, let bad = realm.unicodeScalars.first(where: { $0 == "\"" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }) {
            throw CryptoError("realm: \(bad == "\"" ? "a quote" : bad == "\\" ? "a backslash" : "a control character") cannot be written in the Authorization field's quoted realm")
        }
        oauth.append(("oauth_signature", signature))
        var header = oauth.map { "\(Self.escape($0.0))=\"\(Self.escape($0.1))\"" }.joined(separator: ", ")
        if let realm, !realm.isEmpty { header = "realm=\"\(realm)\", " + header }
        request.headers.remove("Authorization")
        try request.headers.add("Authorization", "OAuth " + header)
        return Explanation(baseString: baseString, signature: signature)
    }

    /// oauthlib's `urldecode`: `parse_qsl(keep_blank_values=True)`, refusing what is not
    /// form-encoded text.
    static func decodePairs(_ text: String) throws -> [(String, String)] {
        if let bad = text.utf8.firstIndex(where: { b in !(AllowedSet.unreserved.contains(b) || Array("=&;:%+~,*@!()/?'$".utf8).contains(b)) }) {
            throw CryptoError("OAuth 1.0: the query or form body holds \"\(Character(Unicode.Scalar(text.utf8[bad])))\", which is not form-encoded (oauthlib refuses it too)")
        }
        var python = PythonParser()
        python.keepBlankValues = true
        // parse_qsl keeps every pair in order (parse_qs would group them): one piece at a time.
        var pairs: [(String, String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let read = try python.parse(ByteString(String(part)))
            if case .map(let one) = read, let entry = one.entries.first, case .array(let values) = entry.value {
                for case .string(let v) in values { pairs.append((entry.key.description, v.description)) }
            }
        }
        return pairs
    }
}

extension String {
    /// Spaces as %20 (oauthlib's base string URI).
    var replacingSpaces: String { split(separator: " ", omittingEmptySubsequences: false).joined(separator: "%20") }
}
