import PekitCore

/// Requests as a Postman collection (format v2.1.0) holds them: each an item named by its entry,
/// method and URL, the URL as text and in the pieces Postman keeps, the fields as headers and the
/// body raw. What Postman sends for it (its curl code generator's command, as `PostmanCollection`
/// sends it) is what was sent, or the request is refused: the generator encodes each query name
/// and value (all but letters, digits and `-_.!~*()[]{}+%`), reads `{{…}}` as variables, needs a
/// body to be text and gives a body with no Content-Type one.
extension CollectionExport {
    static func postmanCollection(_ requests: [Sent], name: String) throws -> String {
        var items: [PekitValue] = []
        for request in requests {
            if request.url.contains("{{") || request.fields.contains(where: { $0.name.contains("{{") || $0.value.contains("{{") }) {
                throw request.refuse("it holds {{, which Postman reads as a variable")
            }
            let url = PostmanURLParser.parse(request.url)
            if url.user != nil { throw request.refuse("the URL holds credentials, which a Postman URL does not carry (its auth does)") }
            let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!~*()[]{}+%")
            for parameter in url.query where !(parameter.key + (parameter.value ?? "")).allSatisfy(kept.contains) {
                throw request.refuse("the query parameter '\(parameter.key)' holds a character Postman's code generator would encode (only letters, digits and -_.!~*()[]{}+% go as written)")
            }
            var requestFields: [(String, PekitValue)] = [("method", .text(request.method)),
                                                         ("header", .array(request.fields.map { object([("key", .text($0.name)), ("value", .text($0.value))]) })),
                                                         ("url", postmanURL(url, raw: request.url))]
            if let body = request.body {
                guard let text = ByteString(body).utf8String else { throw request.refuse("the body is not UTF-8 text, which a Postman raw body must be (export as hurl or curl)") }
                guard has(request, "Content-Type") || body.isEmpty else {
                    throw request.refuse("a body sent with no Content-Type: Postman's command would send application/x-www-form-urlencoded (export as hurl or curl)")
                }
                if body.isEmpty && request.method == "GET" { throw request.refuse("an empty body on a GET, which Postman's command would send as a POST") }
                requestFields.append(("body", object([("mode", .text("raw")), ("raw", .text(text))])))
            }
            items.append(object([("name", .text("entry \(request.number): \(request.method) \(request.url)")), ("request", object(requestFields))]))
        }
        let collection = object([
            ("info", object([("name", .text(name)), ("schema", .text("https://schema.getpostman.com/json/collection/v2.1.0/collection.json"))])),
            ("item", .array(items)),
        ])
        return String(decoding: try JSONText.encodePretty(collection), as: UTF8.self) + "\n"
    }

    static func object(_ entries: [(String, PekitValue)]) -> PekitValue {
        .map(PekitMap(ordered: entries.map { .init(key: ByteString($0.0), value: $0.1) }))
    }

    /// A URL as Postman exports one: its text and its pieces.
    static func postmanURL(_ url: PostmanCollection.URL, raw: String) -> PekitValue {
        var entries: [(String, PekitValue)] = [("raw", .text(raw))]
        if let scheme = url.protocol { entries.append(("protocol", .text(scheme))) }
        if let host = url.host { entries.append(("host", .array(host.split(separator: ".", omittingEmptySubsequences: false).map { .text(String($0)) }))) }
        if let port = url.port { entries.append(("port", .text(port))) }
        if let path = url.path { entries.append(("path", .array(path.map { .text($0) }))) }
        if !url.query.isEmpty {
            entries.append(("query", .array(url.query.map { object([("key", .text($0.key)), ("value", $0.value.map { .text($0) } ?? .null)]) })))
        }
        if let hash = url.hash { entries.append(("hash", .text(hash))) }
        return object(entries)
    }
}
