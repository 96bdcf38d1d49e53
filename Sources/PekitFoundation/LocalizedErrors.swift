import Foundation
import PekitCore
import PekitCrypto
import PekitHTTP

// Every error of PekitCore, PekitHTTP and PekitCrypto is a LocalizedError here, so that
// `error.localizedDescription` is pekit's message ("cannot read the public suffix list at …")
// rather than "The operation couldn't be completed. (PekitHTTP.HTTPError error 0.)". Here, not on
// the types, because PekitCore does not import Foundation, which defines LocalizedError.
// `LocalizedErrorTests` checks every public error type is listed.

extension CookieError: LocalizedError { public var errorDescription: String? { description } }
extension RequestError: LocalizedError { public var errorDescription: String? { description } }
extension PercentDecodingError: LocalizedError { public var errorDescription: String? { description } }
extension AllowedSetError: LocalizedError { public var errorDescription: String? { description } }
extension QueryError: LocalizedError { public var errorDescription: String? { description } }
extension QueryServerError: LocalizedError { public var errorDescription: String? { description } }
extension QueryServer.OptionError: LocalizedError { public var errorDescription: String? { description } }
extension CommandLineParameters.Failure: LocalizedError { public var errorDescription: String? { description } }
extension JSONPath.ParseError: LocalizedError { public var errorDescription: String? { description } }
extension WHATWGURL.ParseError: LocalizedError { public var errorDescription: String? { description } }
extension RequestURL.ParseError: LocalizedError { public var errorDescription: String? { description } }
extension CurlURL.Malformed: LocalizedError { public var errorDescription: String? { description } }
extension ShellCommand.Failure: LocalizedError { public var errorDescription: String? { description } }
extension IDNA.Failure: LocalizedError { public var errorDescription: String? { description } }
extension JSON.ParseError: LocalizedError { public var errorDescription: String? { description } }
extension JSON.EncodeError: LocalizedError { public var errorDescription: String? { description } }
extension MemoryBudget.Exceeded: LocalizedError { public var errorDescription: String? { description } }
extension WorkBudget.Exceeded: LocalizedError { public var errorDescription: String? { description } }
extension DotEnv.ParseError: LocalizedError { public var errorDescription: String? { description } }
extension Base64.DecodingError: LocalizedError { public var errorDescription: String? { description } }
extension Hex.DecodingError: LocalizedError { public var errorDescription: String? { description } }
extension Timestamp.ParseError: LocalizedError { public var errorDescription: String? { description } }
extension HAR.Failure: LocalizedError { public var errorDescription: String? { description } }
extension ShellWords.Failure: LocalizedError { public var errorDescription: String? { description } }
extension HTTPError: LocalizedError { public var errorDescription: String? { description } }
extension SendOptions.StopBody: LocalizedError { public var errorDescription: String? { description } }
extension ContentDecoding.Failure: LocalizedError { public var errorDescription: String? { description } }
extension CharsetConversion.Failure: LocalizedError { public var errorDescription: String? { description } }
extension RateLimiter.Failure: LocalizedError { public var errorDescription: String? { description } }
extension CryptoError: LocalizedError { public var errorDescription: String? { description } }
extension JWT.VerificationError: LocalizedError { public var errorDescription: String? { description } }
