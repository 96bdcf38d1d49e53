import PekitCrypto
import PekitHTTP

extension SendOptions {
    /// The options with PekitCrypto's hashes for a Digest answer (`authHash`), as every send of
    /// the command line and of a script has them: PekitHTTP computes the answer, PekitCrypto the
    /// hash, by the challenge's algorithm name (`MD5`, `SHA-256`).
    public mutating func hashingDigestAnswers() {
        authHash = { name, bytes in try Digest.hash(DigestAlgorithm(named: name), bytes) }
    }
}
