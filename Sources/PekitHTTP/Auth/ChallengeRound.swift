import PekitCore

/// How a request's credentials (`-u`, the URL's own: the builder's `Authorization: Basic`) are
/// sent.
public enum AuthScheme: String, Sendable, CaseIterable {
    /// At once, as Basic (the default).
    case basic
    /// Only to answer a 401's Digest challenge (RFC 7616), as curl's `--digest`: the first
    /// request goes without them, and without its body.
    case digest
    /// To answer whichever challenge a 401 makes, Digest before Basic, as curl's `--anyauth`:
    /// the first request goes whole, without them.
    case any
}

/// The challenge round of `--digest` and `--anyauth`, as curl 7.88 has it (http.c's auth
/// negotiation): the credentials held back from the first request, one answer to a 401 whose
/// `WWW-Authenticate` offers a scheme allowed, and that scheme again on the later hops it may go
/// to (a redirect to the same origin, or anywhere with `--location-trusted`).
struct ChallengeRound {
    let scheme: AuthScheme
    private(set) var user: String
    private(set) var password: String
    /// Where the Authorization field stood among the request's fields (curl's place: after Host).
    let place: Int
    let hash: (@Sendable (String, [UInt8]) throws -> [UInt8])?
    /// What was answered: nothing yet, Basic's value, or the Digest challenge (and its count).
    enum Answer { case none, basic(String), digest(DigestChallenge, cnonce: String, count: Int) }
    private(set) var answer = Answer.none
    /// The first exchange is over (answered, or not: then the request goes whole, unanswered).
    private(set) var negotiated = false

    /// The round for a request sent with `scheme`, its Basic field taken out; nil for Basic or a
    /// request without credentials (curl's --anyauth with no -u: nothing to answer with).
    init?(_ request: inout PekitRequest, scheme: AuthScheme, hash: (@Sendable (String, [UInt8]) throws -> [UInt8])?) {
        guard scheme != .basic, let credentials = request.basicCredentials, credentials.count == 2,
              let place = request.headers.fields.firstIndex(where: { PekitHeaders.sameName($0.name, "Authorization") }) else { return nil }
        request.headers.remove("Authorization")
        request.basicCredentials = nil
        self.scheme = scheme
        user = credentials[0]
        password = credentials[1]
        self.place = place
        self.hash = hash
    }

    /// Another user and password from here on: a `.netrc`'s for the host a redirect led to,
    /// answered with the challenge already taken, as curl answers it (its test 1966).
    mutating func use(user: String, password: String) {
        self.user = user
        self.password = password
    }

    var answered: Bool { if case .none = answer { return false }; return true }

    /// The first request as it goes: with `--digest`, a body is held back for the answer (curl's
    /// "authneg": `Content-Length: 0`, no `Expect`), since the server will refuse it unread.
    func firstHop(_ request: PekitRequest) -> PekitRequest {
        guard !negotiated, scheme == .digest, request.body != .empty || request.headers.contains("Content-Length") else { return request }
        var hop = request
        hop.body = .bytes([])
        hop.headers.remove("Expect")
        if hop.headers.contains("Content-Length") { try? hop.headers.set("Content-Length", "0") }
        return hop
    }

    /// The first exchange ended without a challenge answered: what follows goes as it is.
    mutating func endNegotiation() { negotiated = true }

    /// Whether a response of `status` with these fields is answered (its body is then not the
    /// caller's).
    func answers(status: Int, challenges: [String]) -> Bool {
        guard !answered, status == 401 else { return false }
        let offered = HTTPChallenge(challenges)
        return (offered.digest != nil && hash != nil) || (scheme == .any && offered.offersBasic)
    }

    /// Takes the 401's challenges: whether one is answered (the request then goes again, and
    /// `authorized` puts the answer on it and on the later hops it may go to).
    mutating func answer(_ challenges: [String]) -> Bool {
        guard !answered else { return false }
        negotiated = true
        let offered = HTTPChallenge(challenges)
        if let digest = offered.digest, hash != nil {
            answer = .digest(digest, cnonce: Self.cnonce(), count: 1)
        } else if scheme == .any, offered.offersBasic {
            answer = .basic("Basic " + String(decoding: Base64.encode(Array("\(user):\(password)".utf8), alphabet: .standard), as: UTF8.self))
        } else {
            return false
        }
        return true
    }

    /// The request with the answered scheme's Authorization field in its place (Digest's
    /// computed for its method and target, the nonce count going up with each).
    mutating func authorized(_ request: PekitRequest) throws -> PekitRequest {
        let value: String
        switch answer {
        case .none: return request
        case .basic(let basic): value = basic
        case .digest(let challenge, let cnonce, let count):
            guard let hash else { return request }
            value = try challenge.authorization(user: user, password: password, method: request.method.rawValue, uri: request.target,
                                                nc: count, cnonce: cnonce, hash: hash)
            if challenge.qop != nil { answer = .digest(challenge, cnonce: cnonce, count: count + 1) }
        }
        var out = request
        out.headers.remove("Authorization")
        try out.headers.insert("Authorization", value, at: min(place, out.headers.fields.count))
        // Basic's field is the builder's own again, which libcurl writes in its place (a proxy).
        if case .basic = answer { out.basicCredentials = [user, password] }
        return out
    }

    /// curl's client nonce: base64 of 32 random hex digits.
    static func cnonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        let hex = (0..<32).map { _ in digits[Int(generator.next() % 16)] }
        return String(decoding: Base64.encode(hex, alphabet: .standard), as: UTF8.self)
    }
}
