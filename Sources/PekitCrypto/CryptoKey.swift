import CCryptoShim

/// An RSA or EC key read from PEM text, for RS*/ES* JWTs and RSA-SHA1 OAuth signatures.
/// Encrypted PEM keys are refused (pekit never prompts for a password).
public final class CryptoKey {
    /// The key's family.
    public enum Kind: Sendable, Equatable {
        /// RSA (RS256/384/512, RSA-SHA1).
        case rsa
        /// Elliptic curve (ES256 on P-256, ES384 on P-384).
        case ec
    }

    let pointer: UnsafeMutableRawPointer
    /// Whether the key is RSA or EC.
    public let kind: Kind
    /// The key's size in bits (2048, 256).
    public let bits: Int
    /// Whether the PEM held the private key (it signs) or only the public one (it verifies).
    public let isPrivate: Bool

    private init(pointer: UnsafeMutableRawPointer, isPrivate: Bool) throws {
        self.pointer = pointer
        self.isPrivate = isPrivate
        bits = Int(pekit_crypto_key_bits(pointer))
        switch pekit_crypto_key_type(pointer) {
        case 6: kind = .rsa
        case 408: kind = .ec
        default:
            pekit_crypto_key_free(pointer)
            throw CryptoError("the key is neither RSA nor EC")
        }
    }

    deinit { pekit_crypto_key_free(pointer) }

    /// A private key (PKCS#8, PKCS#1 RSA or SEC1 EC PEM).
    /// - Throws: `CryptoError` when the text holds no unencrypted private key.
    public static func privateKey(pem: [UInt8]) throws -> CryptoKey {
        try CryptoError.loadLibcrypto()
        let key = pem.withUnsafeBytes { pekit_crypto_private_key($0.baseAddress?.assumingMemoryBound(to: CChar.self), pem.count) }
        guard let key else { throw CryptoError("not a PEM private key (an unencrypted PKCS#8, RSA or EC key: -----BEGIN PRIVATE KEY-----)") }
        return try CryptoKey(pointer: key, isPrivate: true)
    }

    /// A public key (SubjectPublicKeyInfo PEM: -----BEGIN PUBLIC KEY-----).
    /// - Throws: `CryptoError` when the text holds no public key.
    public static func publicKey(pem: [UInt8]) throws -> CryptoKey {
        try CryptoError.loadLibcrypto()
        let key = pem.withUnsafeBytes { pekit_crypto_public_key($0.baseAddress?.assumingMemoryBound(to: CChar.self), pem.count) }
        guard let key else { throw CryptoError("not a PEM public key (-----BEGIN PUBLIC KEY-----)") }
        return try CryptoKey(pointer: key, isPrivate: false)
    }

    /// The signature of `data` (RSA: PKCS#1 v1.5; EC: DER ECDSA).
    public func sign(_ data: [UInt8], digest: DigestAlgorithm) throws -> [UInt8] {
        guard isPrivate else { throw CryptoError("signing needs a private key") }
        let md = try digest.evp()
        var out = [UInt8](repeating: 0, count: 1024)
        var count = out.count
        let ok = data.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { o in
            pekit_crypto_sign(pointer, md, d.baseAddress, data.count, o.baseAddress, &count)
        } }
        guard ok == 1 else { throw CryptoError("libcrypto could not sign with this \(kind == .rsa ? "RSA" : "EC") key") }
        return Array(out.prefix(count))
    }

    /// Whether `signature` (as `sign` makes it) is valid for `data`.
    public func verify(_ signature: [UInt8], _ data: [UInt8], digest: DigestAlgorithm) throws -> Bool {
        let md = try digest.evp()
        return data.withUnsafeBufferPointer { d in signature.withUnsafeBufferPointer { s in
            pekit_crypto_verify(pointer, md, d.baseAddress, data.count, s.baseAddress, signature.count) == 1
        } }
    }

    /// DER ECDSA to JOSE's fixed-size r || s.
    public static func ecdsaRaw(fromDER der: [UInt8], size: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size * 2)
        let ok = der.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { pekit_crypto_ecdsa_der_to_raw(d.baseAddress, der.count, $0.baseAddress, Int32(size)) } }
        guard ok == 1 else { throw CryptoError("not a DER ECDSA signature") }
        return out
    }

    /// JOSE's r || s to DER ECDSA.
    public static func ecdsaDER(fromRaw raw: [UInt8]) throws -> [UInt8] {
        guard raw.count % 2 == 0, !raw.isEmpty else { throw CryptoError("an ECDSA signature has an even number of bytes") }
        var out = [UInt8](repeating: 0, count: raw.count + 16)
        var count = out.count
        let ok = raw.withUnsafeBufferPointer { r in out.withUnsafeMutableBufferPointer { pekit_crypto_ecdsa_raw_to_der(r.baseAddress, Int32(raw.count / 2), $0.baseAddress, &count) } }
        guard ok == 1 else { throw CryptoError("not an ECDSA signature") }
        return Array(out.prefix(count))
    }
}
