/// HTTP Archive (HAR 1.2) files, as Chrome, Firefox, Safari and proxies (Charles, Proxyman)
/// export them: the requests of each entry, ready to build and send again.
public enum HAR {
    /// One entry: the request as recorded, and the response that came back then (its status,
    /// header fields and body, where the file has them).
    public struct Entry: Sendable {
        /// The request's method.
        public var method: String
        /// The request's URL.
        public var url: String
        /// The header fields as recorded, HTTP/2 pseudo-headers (`:authority`) left out.
        public var headers: [(name: String, value: String)]
        /// The request's body (`postData.text`), nil where the entry has none.
        public var body: [UInt8]?
        /// The body's media type (`postData.mimeType`).
        public var mimeType: String?
        /// The status that came back then.
        public var status: Int?
        /// When the request was sent, as the file writes it (ISO 8601).
        public var startedDateTime: String?
        /// The response's header fields as recorded (HTTP/2 pseudo-headers left out).
        public var responseHeaders: [(name: String, value: String)] = []
        /// The response's body as recorded (`content.text`, decoded from base64 where the file
        /// says so); nil where the file has none.
        public var responseBody: [UInt8]?

        /// A builder for sending it again: the method, URL, the recorded fields in their order
        /// (repeats kept) and the body with its type; pekit adds no field of its own but the
        /// framing: `Content-Length` where the recording has none, or one that is not the
        /// body's length, or one beside `Transfer-Encoding` (never both on the wire).
        public func builder() -> RequestBuilder {
            var b = RequestBuilder(url: url)
            b.method = .init(method)
            b.userAgent = nil
            b.accept = nil
            let length = String(body?.count ?? 0)
            let chunked = headers.contains { PekitHeaders.sameName($0.name, "Transfer-Encoding") }
            b.headers = headers.filter { field in
                !PekitHeaders.sameName(field.name, "Content-Length") || (!chunked && field.value.trimmingOWS == length)
            }.map { RequestBuilder.Header($0.name, $0.value) }
            if let body {
                b.body = .bytes(body, contentType: mimeType.flatMap { $0.isEmpty ? nil : $0 })
            }
            return b
        }
    }

    /// Why a file is not a HAR file, naming the place.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The entries of a HAR file.
    /// - Throws: `Failure` naming the entry and field that is missing or of the wrong type;
    ///   `JSONText.ParseError` for text that is not JSON.
    public static func entries(_ bytes: [UInt8]) throws -> [Entry] {
        let document = try JSONText.parse(bytes)
        guard case .map(let root) = document, case .map(let log)? = root["log"] else {
            throw Failure(description: "not a HAR file: no \"log\" object at the top")
        }
        guard case .array(let list)? = log["entries"] else { throw Failure(description: "log.entries: missing, or not a list") }
        return try list.enumerated().map { index, item in
            let place = "log.entries[\(index)]"
            guard case .map(let entry) = item, case .map(let request)? = entry["request"] else {
                throw Failure(description: "\(place).request: missing, or not an object")
            }
            func text(_ map: PekitMap, _ key: ByteString, _ at: String) throws -> String {
                guard case .string(let s)? = map[key] else { throw Failure(description: "\(at).\(key): missing, or not a string") }
                return s.description
            }
            let method = try text(request, "method", "\(place).request")
            let url = try text(request, "url", "\(place).request")
            func fields(_ map: PekitMap, _ at: String) throws -> [(name: String, value: String)] {
                guard case .array(let list)? = map["headers"] else { return [] }
                var fields: [(name: String, value: String)] = []
                for (i, h) in list.enumerated() {
                    guard case .map(let field) = h else { throw Failure(description: "\(at).headers[\(i)]: not an object") }
                    let name = try text(field, "name", "\(at).headers[\(i)]")
                    if name.hasPrefix(":") { continue }  // HTTP/2 pseudo-headers: the request line says them
                    fields.append((name, try text(field, "value", "\(at).headers[\(i)]")))
                }
                return fields
            }
            let headers = try fields(request, "\(place).request")
            var body: [UInt8]?
            var mimeType: String?
            if case .map(let post)? = request["postData"] {
                if case .string(let m)? = post["mimeType"] { mimeType = m.description }
                if case .string(let t)? = post["text"] {
                    // Some tools mark a binary body as base64 (HAR 1.2 has this for responses).
                    if case .string(let e)? = post["encoding"], e.description == "base64" {
                        do { body = try Base64.decode(t.bytes, alphabet: .standard) } catch { throw Failure(description: "\(place).request.postData.text: \(error)") }
                    } else {
                        body = t.bytes
                    }
                } else if case .array(let params)? = post["params"] {
                    // Only params (a form, as some exporters write it): written back as the form.
                    let pairs = try params.enumerated().map { i, p -> String in
                        guard case .map(let param) = p else { throw Failure(description: "\(place).request.postData.params[\(i)]: not an object") }
                        let name = try text(param, "name", "\(place).request.postData.params[\(i)]")
                        let value = (try? text(param, "value", "")) ?? ""
                        return WHATWGFormParser.serialize([(name, value)])
                    }
                    body = Array(pairs.joined(separator: "&").utf8)
                }
            }
            var status: Int?, responseHeaders: [(name: String, value: String)] = [], responseBody: [UInt8]?
            if case .map(let response)? = entry["response"] {
                if case .integer(let n)? = response["status"] { status = Int(n) }
                responseHeaders = try fields(response, "\(place).response")
                if case .map(let content)? = response["content"], case .string(let t)? = content["text"] {
                    if case .string(let e)? = content["encoding"], e.description == "base64" {
                        do { responseBody = try Base64.decode(t.bytes, alphabet: .standard) } catch { throw Failure(description: "\(place).response.content.text: \(error)") }
                    } else {
                        responseBody = t.bytes
                    }
                }
            }
            var started: String?
            if case .string(let s)? = entry["startedDateTime"] { started = s.description }
            var result = Entry(method: method, url: url, headers: headers, body: body, mimeType: mimeType, status: status, startedDateTime: started)
            result.responseHeaders = responseHeaders
            result.responseBody = responseBody
            return result
        }
    }
}

extension HAR.Entry {
    // In an extension, so that the memberwise initializer `HAR.entries` uses stays.
    /// An entry of a request alone, as a server received it (no response).
    /// - Parameter method: the method, as sent.
    /// - Parameter url: the URL.
    /// - Parameter headers: the header fields in order, repeats kept.
    /// - Parameter body: the body's bytes; nil: none.
    /// - Parameter mimeType: the body's media type.
    public init(method: String, url: String, headers: [(name: String, value: String)], body: [UInt8]?, mimeType: String? = nil) {
        self.init(method: method, url: url, headers: headers, body: body, mimeType: mimeType, status: nil, startedDateTime: nil)
    }
}
