import Foundation
import PekitCore
import PekitHTTP

// Every error of PekitHTTP is a LocalizedError here, so that `error.localizedDescription` is pekit's
// message; here, not on the types, because PekitHTTP does not import Foundation. `LocalizedErrorTests`
// checks every public error type is listed.

extension HTTPError: LocalizedError { public var errorDescription: String? { description } }
extension SendOptions.StopBody: LocalizedError { public var errorDescription: String? { description } }
extension ContentDecoding.Failure: LocalizedError { public var errorDescription: String? { description } }
extension RateLimiter.Failure: LocalizedError { public var errorDescription: String? { description } }
extension PekitResponse.DecodingFailure: LocalizedError { public var errorDescription: String? { description } }
extension LatencyHistogram.Failure: LocalizedError { public var errorDescription: String? { description } }
extension LoadPlan.Invalid: LocalizedError { public var errorDescription: String? { description } }
