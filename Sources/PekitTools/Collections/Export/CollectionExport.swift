import PekitCore

/// Requests (a HAR file's: what `pekit test --har`, `pekit run --har` and browsers record) written
/// as a file another tool runs: curl commands, a `.http` file, a Hurl file or a Postman
/// collection, each holding what was sent exactly, so that running it sends the same bytes
/// again. A request a format cannot hold exactly is refused with its entry and the reason,
/// never written approximately.
public enum CollectionExport {
    public enum Format: String, CaseIterable, Sendable {
        case curl, http, hurl, postman
    }

    /// An entry the format cannot hold exactly: its number (1-based) and why.
    public struct Refusal: Error, CustomStringConvertible, Equatable, Sendable {
        public let entry: Int
        public let reason: String
        public var description: String { "entry \(entry): \(reason)" }
    }

    /// One request as it went on the wire: every header field in order (Host and
    /// Content-Length too, so they keep their places) and the body's bytes (nil: none).
    struct Sent {
        var method: String
        var url: String
        var fields: [(name: String, value: String)]
        var body: [UInt8]?
        var number: Int

        func refuse(_ reason: String) -> Refusal { Refusal(entry: number, reason: reason) }
    }

    /// The file for `entries` in `format`.
    /// - Parameter name: the collection's name (Postman's `info.name`) and the file's title.
    /// - Throws: `Refusal` for the first entry the format cannot hold exactly.
    public static func write(_ entries: [HAR.Entry], as format: Format, name: String) throws -> String {
        let sent = try entries.enumerated().map { index, entry in try Self.sent(entry, number: index + 1) }
        switch format {
        case .curl:
            return try zip(entries, sent).map { entry, request -> String in
                do { return try entry.builder().build().curl() } catch { throw request.refuse("\(error)") }
            }.joined(separator: "\n") + "\n"
        case .http: return try sent.map { try httpRequest(toolDefaults($0, "a .http file's tool")) }.joined(separator: "\n")
        case .hurl: return try sent.map { try hurlEntry(toolDefaults($0, "Hurl")) }.joined(separator: "\n")
        case .postman: return try postmanCollection(sent.map { try toolDefaults($0, "Postman's curl command") }, name: name)
        }
    }

    /// The request, when it has the fields every one of these tools adds of its own where a
    /// request has none (User-Agent and Accept: a file can give them, not take them away).
    static func toolDefaults(_ request: Sent, _ tool: String) throws -> Sent {
        for name in ["User-Agent", "Accept"] where !has(request, name) {
            throw request.refuse("it was sent with no \(name) field, and \(tool) sends one of its own (export as curl, which can leave it out)")
        }
        return request
    }

    /// What an entry sent: the request it builds, its fields and body as they go out.
    static func sent(_ entry: HAR.Entry, number: Int) throws -> Sent {
        let request: PekitRequest
        do { request = try entry.builder().build() } catch { throw Refusal(entry: number, reason: "\(error)") }
        if request.headers.fields.contains(where: { $0.rawValue != nil }) {
            throw Refusal(entry: number, reason: "a header field's value is not UTF-8 (only curl commands carry it: pekit export curl)")
        }
        let body: [UInt8]
        do { body = try request.bodyBytes() } catch { throw Refusal(entry: number, reason: "\(error)") }
        let hasBody = entry.body != nil || request.headers.contains("Content-Length") || request.headers.contains("Transfer-Encoding")
        return Sent(method: request.method.rawValue, url: request.url, fields: request.headers.fields.map { ($0.name, $0.value) },
                    body: hasBody ? body : nil, number: number)
    }

    /// Whether a field of that name is among the request's.
    static func has(_ request: Sent, _ name: String) -> Bool { request.fields.contains { PekitHeaders.sameName($0.name, name) } }
}
