import Foundation
import PekitCore
import PekitCrypto

// The signing schemes' instants as `Date`s, for Swift code that has them (PekitCrypto keeps them
// as seconds since 1970, as it has no Foundation).

extension JWT.Options {
    /// Checks against the time `now`.
    public init(now: Date) { self.init(now: now.timeIntervalSince1970) }
}

extension AWSSigV4 {
    /// Signs `request` as of `date` (`X-Amz-Date`, and the key of that day).
    /// - Throws: `CryptoError` as `sign(_:at:)` with seconds does.
    @discardableResult
    public func sign(_ request: inout PekitRequest, at date: Date) throws -> Explanation {
        try sign(&request, at: date.timeIntervalSince1970)
    }
}

extension OAuth1 {
    /// Signs `request` with `date` as its `oauth_timestamp`.
    /// - Throws: `CryptoError` as `sign(_:now:)` with seconds does.
    @discardableResult
    public func sign(_ request: inout PekitRequest, now date: Date) throws -> Explanation {
        try sign(&request, now: date.timeIntervalSince1970)
    }
}
