/// How a real server hands a request's header fields to the program: the names it gives them,
/// how it joins a field sent twice, what it trims, drops or refuses. Held to the servers
/// themselves by `header-vectors.json` (`Tests/PekitCoreTests/Fixtures/header-servers/make_header_vectors.py`
/// runs each one here and sends it every request).
///
/// CGI-style servers name a field `HTTP_` and its name upper-cased with `-` as `_`: `X-A` and
/// `X_A` are then one entry, which PHP and WEBrick give the last of and wsgiref joins; node and
/// Go keep them apart. A field sent twice is joined with ", " (PHP, WEBrick, node), "," (wsgiref),
/// kept as a list (Go), or only its first kept (node, for `Authorization`, `User-Agent`,
/// `Referer` and the other fields it knows to be single).
public enum HeaderServer: String, CaseIterable, Sendable {
    /// PHP 8.2's built-in server: `$_SERVER`'s `HTTP_*` entries.
    case php
    /// Rack 2.2 on WEBrick (what `rackup` starts by default): the env's `HTTP_*` entries.
    case rack
    /// Python 3.11's wsgiref (the WSGI reference server): the environ's `HTTP_*` entries.
    case python
    /// Go 1.19's net/http: `r.Header`, canonical names to lists (names sorted; `Host` is `r.Host`).
    case go
    /// node's http module (Express runs on it): `req.headers`, lower-case names.
    case node

    /// The server and version modelled.
    public var modelled: String {
        switch self {
        case .php: return "PHP 8.2 built-in server $_SERVER"
        case .rack: return "Rack 2.2 on WEBrick env"
        case .python: return "Python 3.11 wsgiref environ"
        case .go: return "Go 1.19 net/http Request.Header"
        case .node: return "node http IncomingMessage.headers"
        }
    }

    /// The header reading of a server model (`QueryServer.models`), or nil (`whatwg`).
    public static func reading(for model: String) -> HeaderServer? {
        switch model {
        case "qs", "node-querystring": return .node
        default: return HeaderServer(rawValue: model)
        }
    }

    /// What the program is given for the request's header fields, in order as received.
    /// - Parameter fields: each field's name and value as sent, the spaces and tabs after the
    ///   colon left out (PHP keeps the ones at the end; the others trim them, each its own way).
    /// - Throws: `QueryServerError` (its `kind` the status, `HTTP 417`) where the server answers
    ///   the request itself instead of giving it to the program.
    /// - Complexity: O(n) in the fields' size (a field's merge into an earlier one is a lookup).
    public func read(_ fields: [(name: [UInt8], value: [UInt8])]) throws -> PekitValue {
        func refused(_ status: String, _ why: String) -> QueryServerError {
            QueryServerError(server: modelled, kind: status, message: why)
        }
        switch self {
        case .php:
            // The server's table is keyed by the lower-cased name, a repeat joined with ", "; then
            // each entry is registered as HTTP_NAME (a later one over an earlier of the same name).
            let table = Self.joined(fields, separator: ", ", key: { $0.map(ASCII.lower) })
            let server = PHPArray()
            for (name, value) in table where name.map(ASCII.lower) != Array("proxy".utf8) {
                server.update(.string(ByteString(Self.cgiName(name))), .string(ByteString(value)))
            }
            return server.value
        case .rack:
            let fields: [(name: [UInt8], value: [UInt8])] = fields.map { ($0.name, Self.trimmingEnd($0.value) { $0 == 0x20 || (0x09...0x0D).contains($0) }) }
            let table = Self.joined(fields, separator: ", ", key: { $0.map(ASCII.lower) })
            var entries = Self.cgiEntries(table.filter { !Self.isContentField($0.name) }, merge: { _, later in later })
            entries.append(.init(key: "HTTP_VERSION", value: .string("HTTP/1.1")))
            return .map(PekitMap(ordered: entries))
        case .python:
            // str.strip() on the latin-1 text: ASCII's whitespace, U+001C–U+001F, U+0085 and U+00A0.
            let space: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) || (0x1C...0x1F).contains($0) || $0 == 0x85 || $0 == 0xA0 }
            let latin1 = fields.filter { !Self.isContentField($0.name) }.map { ($0.name, CookieServer.latin1ToUTF8(Self.trimmingEnd(Array($0.value.drop(while: space)), space))) }
            return .map(PekitMap(ordered: Self.cgiEntries(latin1, merge: { earlier, later in earlier + [0x2C] + later })))
        case .go:
            let fields: [(name: [UInt8], value: [UInt8])] = fields.map { ($0.name, Self.trimmingEnd($0.value) { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) }
            if let expect = Self.expectation(fields) { throw refused("HTTP 417", "Go answers 417 to Expect: \(expect)") }
            var lists: [[UInt8]: [PekitValue]] = [:]
            for (name, value) in fields {
                let key = Self.canonical(name)
                if key == Array("Host".utf8) { continue }
                lists[key, default: []].append(.string(ByteString(value)))
            }
            return .map(PekitMap(ordered: lists.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { .init(key: ByteString($0), value: .array(lists[$0] ?? [])) }))
        case .node:
            let fields: [(name: [UInt8], value: [UInt8])] = fields.map { ($0.name, Self.trimmingEnd($0.value) { $0 == 0x20 || $0 == 0x09 }) }
            if let expect = Self.expectation(fields) { throw refused("HTTP 417", "node answers 417 to Expect: \(expect)") }
            var names: [[UInt8]] = [], values: [[UInt8]: [UInt8]] = [:]
            for (name, value) in fields {
                let key = name.map(ASCII.lower)
                let text = CookieServer.latin1ToUTF8(value)
                guard let earlier = values[key] else { names.append(key); values[key] = text; continue }
                if Self.nodeSingle.contains(key) { continue }
                values[key] = earlier + (key == Array("cookie".utf8) ? Array("; ".utf8) : Array(", ".utf8)) + text
            }
            return .map(PekitMap(ordered: names.map { .init(key: ByteString($0), value: .string(ByteString(values[$0] ?? []))) }))
        }
    }

    static func trimmingEnd(_ value: [UInt8], _ space: (UInt8) -> Bool) -> [UInt8] {
        var end = value.count
        while end > 0, space(value[end - 1]) { end -= 1 }
        return Array(value[..<end])
    }

    /// The fields node keeps only the first of (`matchKnownFields` in `_http_incoming.js`).
    static let nodeSingle: Set<[UInt8]> = Set(["age", "authorization", "content-length", "content-type", "etag", "expires", "from", "host",
                                               "if-modified-since", "if-unmodified-since", "last-modified", "location", "max-forwards",
                                               "proxy-authorization", "referer", "retry-after", "server", "user-agent"].map { Array($0.utf8) })

    /// An Expect other than `100-continue` (any case), which Go and node answer 417.
    static func expectation(_ fields: [(name: [UInt8], value: [UInt8])]) -> String? {
        guard let expect = fields.first(where: { $0.name.map(ASCII.lower) == Array("expect".utf8) })?.value,
              expect.map(ASCII.lower) != Array("100-continue".utf8) else { return nil }
        return String(decoding: expect, as: UTF8.self)
    }

    /// Content-Type and Content-Length, which CGI-style servers give as CONTENT_TYPE and CONTENT_LENGTH.
    static func isContentField(_ name: [UInt8]) -> Bool {
        let lower = name.map(ASCII.lower)
        return lower == Array("content-type".utf8) || lower == Array("content-length".utf8)
    }

    /// `HTTP_` and the name upper-cased, `-` as `_`.
    static func cgiName(_ name: [UInt8]) -> [UInt8] {
        Array("HTTP_".utf8) + name.map { $0 == 0x2D ? 0x5F : ($0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0) }
    }

    /// The fields by `key` in order of first appearance, a repeat's value joined to the first's.
    static func joined(_ fields: [(name: [UInt8], value: [UInt8])], separator: String, key: ([UInt8]) -> [UInt8]) -> [(name: [UInt8], value: [UInt8])] {
        var order: [[UInt8]] = [], table: [[UInt8]: (name: [UInt8], value: [UInt8])] = [:]
        for (name, value) in fields {
            let k = key(name)
            if let earlier = table[k] { table[k] = (earlier.name, earlier.value + Array(separator.utf8) + value) } else { order.append(k); table[k] = (name, value) }
        }
        return order.compactMap { table[$0] }
    }

    /// Each field as its CGI name, in order of first appearance; a name met again merged as `merge` says.
    static func cgiEntries(_ fields: [(name: [UInt8], value: [UInt8])], merge: ([UInt8], [UInt8]) -> [UInt8]) -> [PekitMap.Entry] {
        var order: [[UInt8]] = [], values: [[UInt8]: [UInt8]] = [:]
        for (name, value) in fields {
            let key = cgiName(name)
            if let earlier = values[key] { values[key] = merge(earlier, value) } else { order.append(key); values[key] = value }
        }
        return order.map { .init(key: ByteString($0), value: .string(ByteString(values[$0] ?? []))) }
    }

    /// Go's `CanonicalMIMEHeaderKey`: upper case first and after each `-`, lower case elsewhere;
    /// a name with a byte that is no token as it is.
    static func canonical(_ name: [UInt8]) -> [UInt8] { GoMultipart.Reader.canonicalKey(name[...]) }
}
