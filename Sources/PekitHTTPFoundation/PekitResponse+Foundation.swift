import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PekitCore
import PekitHTTP

extension PekitResponse {
    /// A response from `URLSession`'s: status, header fields, final URL and the body.
    ///
    /// Foundation keeps fields in a dictionary and has joined repeated ones (several Set-Cookie
    /// fields become one, split again here only where a cookie's comma cannot be confused with an
    /// Expires date's: not at all, so read cookies from `HTTPCookie` instead). Fields are kept in
    /// the order of their names; the reason phrase and HTTP version are not known.
    public init(_ response: HTTPURLResponse, data: Data) {
        self.init()
        status = response.statusCode
        url = response.url?.absoluteString ?? ""
        let fields = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String else { return nil }
            return (name, "\(value)")
        }
        headers = fields.sorted { $0.0.lowercased() < $1.0.lowercased() }.map { Field(name: $0.0, value: ByteString($0.1)) }
        body = Array(data)
        bodyLength = body.count
    }
}
