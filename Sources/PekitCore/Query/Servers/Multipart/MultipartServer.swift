/// How a real server reads a multipart/form-data body: each server's own parser, ported from its
/// code and held to it by `multipart-vectors.json` (generated from the servers themselves by
/// `Tests/PekitCoreTests/Fixtures/multipart-servers/make_multipart_vectors.py`).
public enum MultipartServer: String, CaseIterable, Sendable {
    /// PHP 8.2's `$_POST` and `$_FILES`: `{"post": …, "files": …}`, each file's `tmp_name`
    /// (a temporary path in PHP) given as the file's content.
    case php
    /// Rack 2.2's `Multipart.parse_multipart` (`Rack::Request#POST`; Rails, Sinatra): the parts
    /// as nested params, a file as `{filename, type, name, head, content}`.
    case rack
    /// Python 3.11's `cgi.FieldStorage`: every part in order, a value as text, a file as
    /// `{filename, type, content}`.
    case python
    /// Go 1.19's `Request.ParseMultipartForm`: the values and the files by name.
    case go

    /// The library and version modelled.
    public var modelled: String {
        switch self {
        case .php: return "PHP 8.2 $_POST and $_FILES (rfc1867)"
        case .rack: return "Rack 2.2 Multipart.parse_multipart"
        case .python: return "Python 3.11 cgi.FieldStorage"
        case .go: return "Go 1.19 net/http ParseMultipartForm"
        }
    }

    /// The multipart parser of a server model (`QueryServer.models`), or nil where its server
    /// reads no multipart body by itself (Express needs a middleware such as multer; `whatwg` and
    /// `node-querystring` are no server's body parser).
    public static func reading(for model: String) -> MultipartServer? { MultipartServer(rawValue: model) }

    /// The class a server's error is reported under, where the model's error has none.
    var errorKind: String {
        switch self {
        case .php: return ""
        case .rack: return "EOFError"
        case .python: return "ValueError"
        case .go: return "ParseMultipartForm"
        }
    }

    /// What the server reads from a body sent with `contentType`.
    /// - Parameters:
    ///   - contentType: the request's Content-Type field (its boundary parameter says where parts begin).
    ///   - body: the body as received.
    /// - Throws: `QueryServerError` with the server's words where it refuses the body.
    /// - Complexity: O(n) in the body's length.
    public func read(contentType: [UInt8], body: [UInt8]) throws -> PekitValue {
        switch self {
        case .php: return PHPMultipart.parse(contentType: contentType, body: body)
        case .rack: return try RackMultipart.parse(contentType: contentType, body: body)
        case .python: return try PythonMultipart.parse(contentType: contentType, body: body)
        case .go: return try GoMultipart.parse(contentType: contentType, body: body)
        }
    }
}
