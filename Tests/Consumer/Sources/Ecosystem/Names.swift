// Stand-ins for the names the Swift HTTP ecosystem declares, so that a program importing one of
// those libraries beside pekit compiles: main.swift uses each unqualified, which is ambiguous
// (a build error) if a pekit module declares the same name.
//   swift-http-types: HTTPRequest, HTTPResponse, HTTPField, HTTPFields
//   AsyncHTTPClient:  HTTPClient, HTTPClientRequest, HTTPClientResponse, HTTPClientError
//   swift-nio:        HTTPHeaders, HTTPMethod, HTTPVersion, HTTPRequestHead, HTTPResponseStatus
//   Alamofire:        HTTPHeaders, HTTPHeader, HTTPMethod, Session, URLEncoding, JSONEncoding,
//                     ParameterEncoding, URLEncodedFormEncoder, AFError, DataRequest
public struct HTTPRequest: Sendable { public init() {} }
public struct HTTPResponse: Sendable { public init() {} }
public struct HTTPField: Sendable { public init() {} }
public struct HTTPFields: Sendable { public init() {} }
public struct HTTPClient: Sendable { public init() {} }
public struct HTTPClientRequest: Sendable { public init() {} }
public struct HTTPClientResponse: Sendable { public init() {} }
public struct HTTPClientError: Error { public init() {} }
public struct HTTPHeaders: Sendable { public init() {} }
public struct HTTPHeader: Sendable { public init() {} }
public struct HTTPMethod: Sendable { public init() {} }
public struct HTTPVersion: Sendable { public init() {} }
public struct HTTPRequestHead: Sendable { public init() {} }
public struct HTTPResponseStatus: Sendable { public init() {} }
public struct Session: Sendable { public init() {} }
public struct URLEncoding: Sendable { public init() {} }
public struct JSONEncoding: Sendable { public init() {} }
public struct ParameterEncoding: Sendable { public init() {} }
public struct URLEncodedFormEncoder: Sendable { public init() {} }
public struct AFError: Error { public init() {} }
public struct DataRequest: Sendable { public init() {} }

/// Every stand-in, by its unqualified name.
public let ecosystemNames: [any Sendable] = [
    HTTPRequest(), HTTPResponse(), HTTPField(), HTTPFields(), HTTPClient(), HTTPClientRequest(), HTTPClientResponse(),
    HTTPHeaders(), HTTPHeader(), HTTPMethod(), HTTPVersion(), HTTPRequestHead(), HTTPResponseStatus(), Session(),
    URLEncoding(), JSONEncoding(), ParameterEncoding(), URLEncodedFormEncoder(), DataRequest(),
]
