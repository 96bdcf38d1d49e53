/// What `pekit request --describe` and `req:json()` print: the request as data.
extension PekitRequest {
    /// `{method, url, headers: [[name, value], …], body: {length, text} | null}`; `text` is the
    /// body when it is UTF-8 of at most 64 KiB, else null (the length still says how much).
    public var summary: PekitValue {
        var body: PekitValue = .null
        if let bytes = try? bodyBytes(), !bytes.isEmpty {
            body = .map(PekitMap(ordered: [.init(key: "length", value: .integer(Int64(bytes.count))),
                                           .init(key: "text", value: UTF8Validation.isValid(bytes) && bytes.count <= 65536 ? .string(ByteString(bytes)) : .null)]))
        }
        return .map(PekitMap(ordered: [
            .init(key: "method", value: .text(method.rawValue)), .init(key: "url", value: .text(url)),
            .init(key: "headers", value: .array(headers.fields.map { .array([.text($0.name), .text($0.value)]) })),
            .init(key: "body", value: body),
        ]))
    }
}
