/// Why a cryptographic operation could not run: libcrypto missing, or an unknown algorithm.
public struct CryptoError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
