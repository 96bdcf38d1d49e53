import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PekitCore

extension URLRequest {
    /// The request for `URLSession`: method, URL, every header field and the body.
    ///
    /// What a `URLRequest` cannot say is not silently changed: repeated fields are joined with
    /// ", " (as `addValue` does, RFC 9110 §5.3), a file body is streamed from the file, and a
    /// multipart body is made whole in memory.
    /// - Throws: `RequestError.invalid` when Foundation's `URL` refuses the URL;
    ///   `RequestError.file` when a multipart file part cannot be read.
    public init(_ request: PekitRequest) throws {
        guard let url = URL(string: request.url) else {
            throw RequestError.invalid("Foundation's URL cannot hold \(request.url)")
        }
        self.init(url: url)
        httpMethod = request.method.rawValue
        for field in request.headers.fields { addValue(field.value, forHTTPHeaderField: field.name) }
        switch request.body {
        case .empty: httpBody = nil
        case .bytes(let bytes): httpBody = Data(bytes)
        case .file(let path): httpBodyStream = InputStream(fileAtPath: path)
        case .multipart(let multipart): httpBody = Data(try multipart.bytes())
        }
    }
}

extension PekitRequest {
    /// A request from Foundation's: its method (GET when none), URL, header fields and body.
    ///
    /// `URLRequest` keeps fields in a dictionary, so their order is lost: they are written in the
    /// order of their names. A body stream is read whole.
    /// - Throws: `RequestError.invalid` for a request without a URL or with a field pekit would
    ///   refuse to send (a name that is not a token, a control byte in a value).
    public init(_ request: URLRequest) throws {
        guard let url = request.url?.absoluteString else { throw RequestError.invalid("the URLRequest has no URL") }
        var headers = PekitHeaders()
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            try headers.add(name, value)
        }
        var body = Body.empty
        if let data = request.httpBody {
            body = .bytes(Array(data))
        } else if let stream = request.httpBodyStream {
            body = .bytes(Self.readAll(stream))
        }
        self.init(method: .init(request.httpMethod ?? "GET"), url: url, headers: headers, body: body)
    }

    private static func readAll(_ stream: InputStream) -> [UInt8] {
        stream.open()
        defer { stream.close() }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = stream.read(&chunk, maxLength: chunk.count)
            if n <= 0 { return out }
            out += chunk[0..<n]
        }
    }
}
