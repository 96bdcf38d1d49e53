import CCryptoShim
import PekitCore

/// Why a cryptographic operation could not run: libcrypto missing, or an unknown algorithm.
public struct CryptoError: Error, Equatable, CustomStringConvertible {
    public let description: String
    /// An error with this message.
    public init(_ description: String) { self.description = description }

    /// Loads libcrypto (once; later calls cost a check).
    /// - Throws: `CryptoError` saying why it cannot be loaded.
    static func loadLibcrypto() throws {
        if let failure = pekit_crypto_load() { throw CryptoError(cText(failure)) }
    }
}
