import PekitCore

/// JSON Web Tokens (RFC 7519) signed as JWS compact serialization (RFC 7515) with HS256/384/512,
/// RS256/384/512 and ES256/384, written as PyJWT writes them (header keys sorted, `typ` "JWT",
/// compact JSON with non-ASCII escaped) and verified strictly: the algorithm must be one allowed,
/// `none` never is, an RSA or EC key is never used as an HMAC secret, and `exp`, `nbf`, `iat`,
/// `aud` and `iss` are checked as PyJWT checks them.
public enum JWT {
    /// The algorithms of RFC 7518 that pekit signs and verifies with (`none` is never one).
    public enum Algorithm: String, Sendable, CaseIterable {
        /// HMAC with SHA-2, keyed by a secret.
        case hs256 = "HS256", hs384 = "HS384", hs512 = "HS512"
        /// RSASSA-PKCS1-v1_5 with SHA-2, keyed by an RSA key.
        case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
        /// ECDSA on P-256 and P-384, keyed by an EC key.
        case es256 = "ES256", es384 = "ES384"

        var digest: DigestAlgorithm {
            switch self {
            case .hs256, .rs256, .es256: return .sha256
            case .hs384, .rs384, .es384: return .sha384
            case .hs512, .rs512: return .sha512
            }
        }
        /// "HS", "RS" or "ES".
        public var family: String { String(rawValue.prefix(2)) }
        /// ES256 signs on P-256 (32-byte r and s), ES384 on P-384 (48).
        var curveBytes: Int { self == .es256 ? 32 : 48 }
    }

    /// A check that failed: which (`signature`, `exp`, `nbf`, `iat`, `aud`, `iss`, `alg`,
    /// `format`, `key`) and why.
    public struct VerificationError: Error, Equatable, CustomStringConvertible {
        /// The check that failed.
        public let check: String
        /// Why, in words.
        public let message: String
        public var description: String { "\(check): \(message)" }
    }

    /// The token for `claims` (a map), signed with `key` (an HMAC secret, or a PEM private key).
    /// - Parameter claims: the claims, a map.
    /// - Parameter key: an HMAC secret, or a PEM private key.
    /// - Parameter algorithm: the signing algorithm (`alg`).
    /// - Parameter extra: extra header fields (`kid`, `typ`…), merged over `alg` and `typ`.
    /// - Throws: `VerificationError` (`key`) for a key that does not fit the algorithm, `CryptoError`.
    public static func encode(claims: PekitValue, key: [UInt8], algorithm: Algorithm, header extra: PekitMap? = nil) throws -> String {
        guard case .map = claims else { throw VerificationError(check: "format", message: "the claims must be a map") }
        var fields: [String: PekitValue] = ["alg": .text(algorithm.rawValue), "typ": .text("JWT")]
        for entry in extra?.entries ?? [] { fields[entry.key.description] = entry.value }
        let header = PekitValue.map(PekitMap(ordered: fields.keys.sorted().map { .init(key: ByteString($0), value: fields[$0] ?? .null) }))
        let input = segment(try asciiJSON(header)) + "." + segment(try asciiJSON(claims))
        return input + "." + segment(try signature(Array(input.utf8), key: key, algorithm: algorithm))
    }

    /// The header and claims of a token, not verified.
    /// - Throws: `VerificationError` (`format`) naming the part that is not base64url JSON.
    public static func decode(_ token: String) throws -> (header: PekitValue, claims: PekitValue) {
        let parts = try split(token)
        return (parts.header, parts.claims)
    }

    /// What `verify` checks besides the signature.
    public struct Options: Sendable {
        /// The algorithms accepted; nil: every one of the key's family (HS* for a secret,
        /// RS* for an RSA key, ES* for an EC key).
        public var algorithms: [Algorithm]?
        /// The clock skew allowed for `exp`, `nbf` and `iat`.
        public var leeway: Duration {
            get { .seconds(leewaySeconds) }
            set { leewaySeconds = newValue.inSeconds }
        }
        /// The same in seconds, as a script gives it.
        package var leewaySeconds = 0.0
        /// The `aud` values accepted; nil: any (a token with `aud` is then refused, as PyJWT refuses it).
        public var audience: [String]?
        /// The `iss` values accepted; nil: any.
        public var issuer: [String]?
        /// The time to check against (Unix seconds).
        public var now: Double
        /// Checks against `now`, seconds since the epoch.
        public init(now: Double) { self.now = now }
    }

    /// The claims of a token whose signature and times check out.
    /// - Throws: `VerificationError` naming the failed check.
    public static func verify(_ token: String, key: [UInt8], options: Options) throws -> PekitValue {
        let parts = try split(token)
        guard case .map(let header) = parts.header, case .string(let name)? = header["alg"] else {
            throw VerificationError(check: "alg", message: "the header has no alg")
        }
        guard let algorithm = Algorithm(rawValue: name.description) else {
            throw VerificationError(check: "alg", message: name.description.lowercased() == "none"
                ? "an unsigned token (alg none) is never accepted" : "unsupported algorithm \"\(name)\"")
        }
        // RFC 7515 §4.1.11: an extension marked critical must be understood, and pekit knows none.
        if let crit = header["crit"] {
            guard case .array(let names) = crit, !names.isEmpty, names.allSatisfy({ if case .string = $0 { return true }; return false }) else {
                throw VerificationError(check: "crit", message: "crit must be a non-empty list of header member names (RFC 7515 §4.1.11)")
            }
            let listed = names.compactMap { if case .string(let s) = $0 { return s.description }; return nil }
            throw VerificationError(check: "crit", message: "the header marks \(listed.map { "\"\($0)\"" }.joined(separator: ", ")) critical, an extension pekit does not understand (RFC 7515 §4.1.11)")
        }
        if algorithm.family == "HS" { try checkSecret(key) }
        let publicKey = try verificationKey(key, for: algorithm)
        let allowed = options.algorithms ?? Algorithm.allCases.filter { $0.family == algorithm.family && (publicKey == nil) == ($0.family == "HS") }
        guard allowed.contains(algorithm) else {
            throw VerificationError(check: "alg", message: "\(algorithm.rawValue) is not an allowed algorithm (allowed: \(allowed.map(\.rawValue).joined(separator: ", ")))")
        }
        let valid: Bool
        switch algorithm.family {
        case "HS":
            valid = try Digest.constantTimeEqual(try Digest.hmac(algorithm.digest, key: key, parts.input), parts.signature)
        case "RS":
            guard let publicKey else { throw VerificationError(check: "key", message: "\(algorithm.rawValue) needs a PEM RSA key") }
            valid = try publicKey.verify(parts.signature, parts.input, digest: algorithm.digest)
        default:
            guard let publicKey else { throw VerificationError(check: "key", message: "\(algorithm.rawValue) needs a PEM EC key") }
            guard parts.signature.count == algorithm.curveBytes * 2 else { valid = false; break }
            valid = try publicKey.verify(try CryptoKey.ecdsaDER(fromRaw: parts.signature), parts.input, digest: algorithm.digest)
        }
        guard valid else { throw VerificationError(check: "signature", message: "the signature does not match (\(algorithm.rawValue))") }
        try checkClaims(parts.claims, options)
        return parts.claims
    }

    // MARK: -

    static func segment(_ bytes: [UInt8]) -> String { String(decoding: Base64.encode(bytes, alphabet: .url), as: UTF8.self) }

    static func split(_ token: String) throws -> (header: PekitValue, claims: PekitValue, input: [UInt8], signature: [UInt8]) {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3 else { throw VerificationError(check: "format", message: "a JWS has 3 parts separated by \".\", this has \(pieces.count)") }
        func part(_ i: Int, _ name: String) throws -> [UInt8] {
            do { return try Base64.decode(Array(pieces[i].utf8), alphabet: .url) } catch {
                throw VerificationError(check: "format", message: "the \(name): \(error)")
            }
        }
        // A member given twice would be checked on one copy and read from another (RFC 7515 §4
        // and RFC 7519 §4 let a parser refuse it): refused, naming it.
        func json(_ bytes: [UInt8], _ name: String) throws -> PekitValue {
            do { return try JSONText.parse(bytes, duplicates: .error) } catch { throw VerificationError(check: "format", message: "the \(name) is not JSON: \(error)") }
        }
        let header = try json(try part(0, "header"), "header"), claims = try json(try part(1, "claims"), "claims")
        guard case .map = header else { throw VerificationError(check: "format", message: "the header is not a JSON object") }
        guard case .map = claims else { throw VerificationError(check: "format", message: "the claims are not a JSON object") }
        return (header, claims, Array("\(pieces[0]).\(pieces[1])".utf8), try part(2, "signature"))
    }

    static func signature(_ input: [UInt8], key: [UInt8], algorithm: Algorithm) throws -> [UInt8] {
        switch algorithm.family {
        case "HS":
            try checkSecret(key)
            try refuseAsymmetric(key)
            return try Digest.hmac(algorithm.digest, key: key, input)
        default:
            let pem = try CryptoKey.privateKey(pem: key)
            try check(pem, for: algorithm)
            let der = try pem.sign(input, digest: algorithm.digest)
            return algorithm.family == "ES" ? try CryptoKey.ecdsaRaw(fromDER: der, size: algorithm.curveBytes) : der
        }
    }

    /// An empty HMAC secret is no secret: anyone can sign with it.
    static func checkSecret(_ key: [UInt8]) throws {
        guard !key.isEmpty else { throw VerificationError(check: "key", message: "an empty HMAC key signs nothing (anyone can make the signature)") }
    }

    /// The warning for an HMAC secret shorter than the hash's output (RFC 7518 §3.2; PyJWT warns
    /// with InsecureKeyLengthWarning), or nil.
    public static func keyWarning(_ key: [UInt8], _ algorithm: Algorithm) -> String? {
        let needed = algorithm.digest.size
        guard algorithm.family == "HS", !key.isEmpty, key.count < needed else { return nil }
        return "the \(algorithm.rawValue) key is \(key.count) byte\(key.count == 1 ? "" : "s"), shorter than the \(needed) RFC 7518 §3.2 asks for"
    }

    /// PyJWT's rule: a PEM key, certificate or SSH public key is never an HMAC secret.
    static func refuseAsymmetric(_ key: [UInt8]) throws {
        let text = String(decoding: key.prefix(64), as: UTF8.self)
        if text.contains("-----BEGIN") || text.hasPrefix("ssh-rsa") || text.hasPrefix("ecdsa-sha2-") || text.hasPrefix("ssh-ed25519") {
            throw VerificationError(check: "key", message: "an RSA or EC key or certificate is never used as an HMAC secret")
        }
    }

    /// The key for RS*/ES* (public, or the public half of a private key); nil for HS*.
    static func verificationKey(_ key: [UInt8], for algorithm: Algorithm) throws -> CryptoKey? {
        if algorithm.family == "HS" { try refuseAsymmetric(key); return nil }
        let pem: CryptoKey
        if let publicKey = try? CryptoKey.publicKey(pem: key) { pem = publicKey } else {
            do { pem = try CryptoKey.privateKey(pem: key) } catch {
                throw VerificationError(check: "key", message: "\(algorithm.rawValue) needs a PEM public key (-----BEGIN PUBLIC KEY-----)")
            }
        }
        try check(pem, for: algorithm)
        return pem
    }

    static func check(_ key: CryptoKey, for algorithm: Algorithm) throws {
        switch algorithm.family {
        case "RS" where key.kind != .rsa: throw VerificationError(check: "key", message: "\(algorithm.rawValue) needs an RSA key, not an EC one")
        case "ES" where key.kind != .ec: throw VerificationError(check: "key", message: "\(algorithm.rawValue) needs an EC key, not an RSA one")
        case "ES" where key.bits != algorithm.curveBytes * 8:
            throw VerificationError(check: "key", message: "\(algorithm.rawValue) needs a P-\(algorithm.curveBytes * 8) key, not a \(key.bits)-bit one")
        default: break
        }
    }

    static func number(_ value: PekitValue?) -> Double? { value?.doubleValue }

    static func checkClaims(_ claims: PekitValue, _ options: Options) throws {
        guard case .map(let map) = claims else { return }
        let now = options.now, leeway = options.leewaySeconds
        func time(_ t: Double) -> String { UnixTime.format(t, .iso8601) ?? String(t) }
        if let value = map["exp"] {
            guard let exp = number(value) else { throw VerificationError(check: "exp", message: "exp must be a number") }
            if exp <= now - leeway { throw VerificationError(check: "exp", message: "the token expired at \(time(exp)) (now \(time(now)))") }
        }
        if let value = map["nbf"] {
            guard let nbf = number(value) else { throw VerificationError(check: "nbf", message: "nbf must be a number") }
            if nbf > now + leeway { throw VerificationError(check: "nbf", message: "the token is not valid before \(time(nbf)) (now \(time(now)))") }
        }
        if let value = map["iat"] {
            guard let iat = number(value) else { throw VerificationError(check: "iat", message: "iat must be a number") }
            if iat > now + leeway { throw VerificationError(check: "iat", message: "the token was issued in the future, at \(time(iat)) (now \(time(now)))") }
        }
        // RFC 7519 §4.1.3: a string or a list of strings; anything else is refused (as PyJWT
        // does), never read as no audience or as the strings it happens to hold.
        let aud: [String]?
        switch map["aud"] {
        case .string(let s)?: aud = [s.description]
        case .array(let list)?:
            aud = try list.map { item in
                guard case .string(let s) = item else { throw VerificationError(check: "aud", message: "aud must be a string or a list of strings (RFC 7519 §4.1.3)") }
                return s.description
            }
        case nil, .null?: aud = nil
        default: throw VerificationError(check: "aud", message: "aud must be a string or a list of strings (RFC 7519 §4.1.3)")
        }
        if let audience = options.audience {
            guard let aud, !aud.isEmpty else { throw VerificationError(check: "aud", message: "the token has no aud claim") }
            guard aud.contains(where: audience.contains) else {
                throw VerificationError(check: "aud", message: "the audience \(aud.joined(separator: ", ")) is not \(audience.joined(separator: " or "))")
            }
        } else if let aud, !aud.isEmpty {
            throw VerificationError(check: "aud", message: "the token is for \(aud.joined(separator: ", ")); say which audience to accept (audience =)")
        }
        if let issuer = options.issuer {
            guard case .string(let iss)? = map["iss"] else { throw VerificationError(check: "iss", message: "the token has no iss claim") }
            guard issuer.contains(iss.description) else {
                throw VerificationError(check: "iss", message: "the issuer \"\(iss)\" is not \(issuer.map { "\"\($0)\"" }.joined(separator: " or "))")
            }
        }
    }

    /// Compact JSON with every non-ASCII character as \uXXXX, as Python's json.dumps writes it.
    static func asciiJSON(_ value: PekitValue) throws -> [UInt8] {
        let json = try JSONText.encode(value, root: "claims")
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        var i = 0
        func escape(_ unit: UInt16) { out += Array("\\u\(hexDigits(UInt32(unit), width: 4))".utf8) }
        while i < json.count {
            let b = json[i]
            if b < 0x80 {
                // Python writes \b and \f by name.
                if b == 0x5C, i + 5 < json.count, json[i + 1] == 0x75, json[i + 2] == 0x30, json[i + 3] == 0x30 {
                    let code = String(decoding: json[(i + 4)...(i + 5)], as: UTF8.self).lowercased()
                    if code == "08" { out += [0x5C, 0x62]; i += 6; continue }
                    if code == "0c" { out += [0x5C, 0x66]; i += 6; continue }
                }
                out.append(b); i += 1; continue
            }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            let scalar = String(decoding: json[i..<min(i + length, json.count)], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
            for unit in String(scalar).utf16 { escape(unit) }
            i += length
        }
        return out
    }
}

/// Lower-case hex of `value`, zero-padded to `width` digits.
func hexDigits(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
