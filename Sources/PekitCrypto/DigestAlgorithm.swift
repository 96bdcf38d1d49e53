import CCryptoShim

/// The digests pekit computes, by the names OpenSSL and the signing schemes use.
public enum DigestAlgorithm: String, Sendable, CaseIterable {
    /// MD5, SHA-1 and the SHA-2 family (for checksums and legacy signatures: MD5 and SHA-1 are not collision-resistant).
    case md5, sha1, sha224, sha256, sha384, sha512

    /// The algorithm called `name` (case-insensitive, `SHA-256` and `sha256` alike).
    /// - Throws: `CryptoError` listing the names there are.
    public init(named name: String) throws {
        let key = String(name.lowercased().filter { $0 != "-" })
        guard let found = DigestAlgorithm(rawValue: key) else {
            throw CryptoError("unknown digest \"\(name)\" (known: \(DigestAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = found
    }

    /// The output size in bytes.
    public var size: Int {
        switch self {
        case .md5: return 16
        case .sha1: return 20
        case .sha224: return 28
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// OpenSSL's `EVP_MD` for it, loading libcrypto on first use.
    func evp() throws -> UnsafeRawPointer {
        try CryptoError.loadLibcrypto()
        guard let md = pekit_crypto_digest(rawValue) else { throw CryptoError("libcrypto has no \(rawValue)") }
        return md
    }
}
