/// What a request built by `RequestBuilder` carries after its head: one body, so there is one
/// place that decides its bytes, its `Content-Type` and its framing.
public enum RequestBody: Sendable {
    /// No body: no `Content-Length` (as curl sends a POST with no data).
    case none
    /// Parameters encoded with the policy, as `application/x-www-form-urlencoded; charset=utf-8`.
    case form(PekitValue)
    /// A JSON document, its keys in the policy's order, as `application/json`.
    case json(PekitValue)
    /// Bytes as they are (an empty body still has `Content-Length: 0`), with their type
    /// (`application/octet-stream` when nil).
    case bytes([UInt8], contentType: String?)
    /// The bytes of a file, read while sending (an upload of any size in bounded memory).
    case file(String, contentType: String?)
    /// `multipart/form-data`: the parameters become text fields before these parts.
    case multipart([MultipartBody.Part])

    /// Whether there is no body.
    public var isNone: Bool { if case .none = self { return true }; return false }

    /// Whether the body is multipart/form-data.
    public var isMultipart: Bool { if case .multipart = self { return true }; return false }
}
