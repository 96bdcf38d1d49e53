import Foundation
import PekitCore

// Every error of PekitCore is a LocalizedError here, so that `error.localizedDescription` is
// pekit's message ("cannot read the public suffix list at …") rather than "The operation couldn't
// be completed. (PekitCore.CookieError error 0.)". Here, not on the types, because PekitCore does
// not import Foundation, which defines LocalizedError. PekitHTTPFoundation and
// PekitCryptoFoundation do the same for their modules; `LocalizedErrorTests` checks every public
// error type is listed in one of the three.

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
extension JSONText.ParseError: LocalizedError { public var errorDescription: String? { description } }
extension JSONText.EncodeError: LocalizedError { public var errorDescription: String? { description } }
extension MemoryBudget.Exceeded: LocalizedError { public var errorDescription: String? { description } }
extension WorkBudget.Exceeded: LocalizedError { public var errorDescription: String? { description } }
extension DotEnv.ParseError: LocalizedError { public var errorDescription: String? { description } }
extension Base64.DecodingError: LocalizedError { public var errorDescription: String? { description } }
extension Hex.DecodingError: LocalizedError { public var errorDescription: String? { description } }
extension UnixTime.ParseError: LocalizedError { public var errorDescription: String? { description } }
extension HAR.Failure: LocalizedError { public var errorDescription: String? { description } }
extension ShellWords.Failure: LocalizedError { public var errorDescription: String? { description } }
extension CharsetConversion.Failure: LocalizedError { public var errorDescription: String? { description } }
