import Foundation
import PekitCore
import PekitCrypto

// Every error of PekitCrypto is a LocalizedError here, so that `error.localizedDescription` is pekit's
// message; here, not on the types, because PekitCrypto does not import Foundation. `LocalizedErrorTests`
// checks every public error type is listed.

extension CryptoError: LocalizedError { public var errorDescription: String? { description } }
extension JWT.VerificationError: LocalizedError { public var errorDescription: String? { description } }
