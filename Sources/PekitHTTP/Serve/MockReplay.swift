import PekitCore

/// `pekit serve --mock FILE.har`: each request answered with a recorded response whose request
/// a chosen server reads the same, as mitmproxy's server replay matches (method, path, query,
/// form body; the host not compared, since the mock is the host now). Under a server model,
/// the order of parameter names and `a[]` against `a%5B%5D` do not matter where that server's
/// application would not see them (it looks parameters up by name; a list keeps its order);
/// `bytes` compares the query and body exactly. Each recorded response is served once,
/// in the file's order (mitmproxy pops a flow it replays), unless `reuse` keeps serving the
/// first that matches (mitmproxy's `server_replay_reuse`). Parameters named in `ignored` are
/// left out of the comparison (`server_replay_ignore_params`).
package final class MockReplay {
    /// How a request is compared with a recorded one.
    package enum MatchBy {
        /// The query and an urlencoded body as this server reads them; other bodies by bytes.
        case server(name: String, QueryServer)
        /// The query and body bytes exactly.
        case bytes
        /// As mitmproxy's server replay hashes a request with its default options and the host
        /// and port ignored: the method, the path (up to a `;` after its last `/`, as
        /// `urlparse` splits it), the body's bytes, and the query's pairs as `parse_qsl` reads
        /// them (blank values kept, `+` a space, escapes decoded) in their order.
        case mitmproxy
    }

    /// A recorded exchange, as the matcher reads its request.
    struct Recorded {
        let number: Int
        let entry: HAR.Entry
        let method: String, path: [UInt8], query: [UInt8]?, body: [UInt8], isForm: Bool
        /// Its query and form body as the --match-by server reads them, read once.
        var readings: Readings?
        var used = false
    }

    /// A request's query and form body as a server reads them (nil: not a form).
    struct Readings {
        let query: PekitValue, body: PekitValue?
    }

    /// What an incoming request gets.
    package enum Outcome {
        /// The answer recorded for entry `entry` (1-based, as the file orders them).
        case mocked(entry: Int, ServeListener.Answer)
        /// No recorded request matches: a 404 naming the nearest candidates and why each differs.
        case unmatched(ServeListener.Answer)
    }

    private var recorded: [Recorded]
    private let matchBy: MatchBy
    private let ignored: Set<ByteString>
    private let reuse: Bool
    private let lock = RecursiveLock()

    /// - Parameter entries: the HAR file's entries (`HAR.entries`).
    package init(entries: [HAR.Entry], matchBy: MatchBy, ignored: [String] = [], reuse: Bool = false) {
        self.matchBy = matchBy
        self.ignored = Set(ignored.map { ByteString($0) })
        self.reuse = reuse
        recorded = entries.enumerated().map { index, entry in
            // The target of the recorded URL: its path and query, as a server sees them.
            let url = Array(entry.url.utf8)
            var rest = url[...]
            if let colon = rest.firstIndex(of: 0x3A), rest[colon...].starts(with: Array("://".utf8)) {
                rest = rest[(colon + 3)...].drop { $0 != 0x2F && $0 != 0x3F }
            }
            let target = rest.prefix { $0 != 0x23 }
            let mark = target.firstIndex(of: 0x3F)
            let path = Array(target[..<(mark ?? target.endIndex)])
            let type = entry.mimeType ?? entry.headers.first { PekitHeaders.sameName($0.name, "Content-Type") }?.value ?? ""
            return Recorded(number: index + 1, entry: entry, method: entry.method, path: path.isEmpty ? [0x2F] : path,
                            query: mark.map { Array(target[($0 + 1)...]) }, body: entry.body ?? [], isForm: ServedRequest.isFormType(type))
        }
        for index in recorded.indices {
            recorded[index].readings = readings(query: recorded[index].query, body: recorded[index].body, isForm: recorded[index].isForm)
        }
    }

    /// What the --match-by server reads from a query and a form body; nil under `bytes`.
    private func readings(query: [UInt8]?, body: [UInt8], isForm: Bool) -> Readings? {
        guard case .server(_, let model) = matchBy else { return nil }
        return Readings(query: reading(query ?? [], model), body: isForm ? reading(body, model) : nil)
    }

    /// The answer to `request`, taking the recorded response it uses (unless `reuse`).
    package func answer(_ request: ServedRequest) -> Outcome {
        lock.lock(); defer { lock.unlock() }
        let path = request.path.isEmpty ? [0x2F] : request.path
        let read = readings(query: request.query, body: request.body, isForm: request.isForm)
        var nearest: [(index: Int, differences: [String])] = []
        for index in recorded.indices {
            let differences = self.differences(request, path: path, read, recorded[index])
            if differences.isEmpty && !(recorded[index].used && !reuse) {
                if !reuse { recorded[index].used = true }
                return .mocked(entry: recorded[index].number, Self.answer(from: recorded[index].entry))
            }
            nearest.append((index, differences.isEmpty ? ["its recorded response was served already (each is served once; --mock-reuse serves it again)"] : differences))
        }
        let candidates = nearest.sorted { $0.differences.count < $1.differences.count }.prefix(3).map { candidate -> PekitValue in
            let entry = recorded[candidate.index]
            return .map(PekitMap(ordered: [
                .init(key: "entry", value: .integer(Int64(entry.number))),
                .init(key: "request", value: .string(ByteString("\(entry.method) \(entry.entry.url)"))),
                .init(key: "differs", value: .array(candidate.differences.map { .string(ByteString($0)) })),
            ]))
        }
        let body = JSONText.write(.map(PekitMap(ordered: [
            .init(key: "error", value: .string("no recorded request matches this one")),
            .init(key: "request", value: .string(ByteString("\(request.method) \(PercentDecodingError.printable(request.target))"))),
            .init(key: "match_by", value: .string(ByteString(matchName))),
            .init(key: "nearest", value: .array(candidates)),
        ]))) + [0x0A]
        return .unmatched(.init(status: 404, headers: [("Content-Type", "application/json")], body: body))
    }

    private var matchName: String {
        switch matchBy { case .server(let name, _): return name; case .bytes: return "bytes"; case .mitmproxy: return "mitmproxy" }
    }

    /// Why `recorded` is not `request`'s, one reason each; empty when it matches.
    private func differences(_ request: ServedRequest, path: [UInt8], _ read: Readings?, _ recorded: Recorded) -> [String] {
        func text(_ bytes: [UInt8]?) -> String { bytes.map { PercentDecodingError.printable($0) } ?? "none" }
        var out: [String] = []
        if request.method != recorded.method { out.append("the method: \(request.method), recorded \(recorded.method)") }
        if case .mitmproxy = matchBy {
            if Self.urlparsePath(path) != Self.urlparsePath(recorded.path) { out.append("the path as urlparse splits it: \(text(Self.urlparsePath(path))), recorded \(text(Self.urlparsePath(recorded.path)))") }
        } else if path != recorded.path {
            out.append("the path: \(text(path)), recorded \(text(recorded.path))")
        }
        switch matchBy {
        case .bytes:
            if (request.query ?? []) != (recorded.query ?? []) { out.append("the query: \(text(request.query)), recorded \(text(recorded.query))") }
            if request.body != recorded.body { out.append("the body: \(request.body.count) bytes, recorded \(recorded.body.count), not the same") }
        case .mitmproxy:
            let now = mitmproxyPairs(request.query), then = mitmproxyPairs(recorded.query)
            if !now.elementsEqual(then, by: { $0.name == $1.name && $0.value == $1.value }) {
                out.append("the query's pairs in order, as parse_qsl reads them: \(text(request.query)), recorded \(text(recorded.query))")
            }
            if request.body != recorded.body { out.append("the body: \(request.body.count) bytes, recorded \(recorded.body.count), not the same") }
        case .server(let name, _):
            guard let now = read, let then = recorded.readings else { break }
            if now.query != then.query { out.append("the query as \(name) reads it: \(show(now.query)), recorded \(show(then.query))") }
            if let nowBody = now.body, let thenBody = then.body {
                if nowBody != thenBody { out.append("the form body as \(name) reads it: \(show(nowBody)), recorded \(show(thenBody))") }
            } else if request.body != recorded.body {
                out.append("the body: \(request.body.count) bytes, recorded \(recorded.body.count), not the same")
            }
        }
        return out
    }

    /// What `model` reads from `bytes`, the ignored parameters left out, its maps by their keys
    /// (an application looks a parameter up by name: the order of names is not what it sees;
    /// a list's order is); a refusal in words.
    private func reading(_ bytes: [UInt8], _ model: QueryServer) -> PekitValue {
        func byKeys(_ value: PekitValue) -> PekitValue {
            switch value {
            case .map(let map): return .map(PekitMap(unordered: map.entries.map { .init(key: $0.key, value: byKeys($0.value)) }))
            case .array(let items): return .array(items.map(byKeys))
            default: return value
            }
        }
        do {
            let value = try model.reading(ByteString(bytes)).value
            guard case .map(let map) = value else { return value }
            return byKeys(.map(PekitMap(ordered: map.entries.filter { !ignored.contains($0.key) })))
        } catch {
            return .map(PekitMap(ordered: [.init(key: "error", value: .string(ByteString("\(error)")))]))
        }
    }

    /// `urlparse(url).path`: the path without the parameters after a `;` in its last segment.
    static func urlparsePath(_ path: [UInt8]) -> [UInt8] {
        let lastSlash = path.lastIndex(of: 0x2F) ?? 0
        guard let semicolon = path[lastSlash...].firstIndex(of: 0x3B) else { return path }
        return Array(path[..<semicolon])
    }

    /// `parse_qsl(query, keep_blank_values=True)`, the ignored names left out.
    private func mitmproxyPairs(_ query: [UInt8]?) -> [(name: ByteString, value: ByteString)] {
        var parser = PythonParser()
        parser.keepBlankValues = true
        return ((try? parser.pairs(ByteString(query ?? []))) ?? []).filter { !ignored.contains($0.name) }
    }

    private func show(_ value: PekitValue) -> String { String(decoding: JSONText.write(value), as: UTF8.self) }

    /// The recorded response as this server sends it: its status, its fields but those of the
    /// framing and of the encoding (a HAR file keeps the body decoded), and each Set-Cookie
    /// made to stick to the local host (no Domain, no Secure: the mock is plain HTTP on it).
    static func answer(from entry: HAR.Entry) -> ServeListener.Answer {
        let dropped = ["content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding"]
        let fields = entry.responseHeaders.compactMap { field -> (String, String)? in
            let name = field.name.lowercased()
            if dropped.contains(name) { return nil }
            return (field.name, name == "set-cookie" ? localCookie(field.value) : field.value)
        }
        return .init(status: entry.status ?? 200, headers: fields, body: entry.responseBody ?? [])
    }

    /// A Set-Cookie value without its Domain and Secure attributes (and SameSite=None, which
    /// needs Secure, made Lax), so that a browser keeps it for the local host.
    static func localCookie(_ value: String) -> String {
        let parts = value.split(separator: ";", omittingEmptySubsequences: false).map { String($0.trimmingOWS) }
        guard let first = parts.first else { return value }
        var kept = [first]
        for attribute in parts.dropFirst() {
            let name = attribute.split(separator: "=", maxSplits: 1).first.map { $0.trimmingOWS.lowercased() } ?? ""
            if name == "domain" || name == "secure" { continue }
            if name == "samesite", attribute.split(separator: "=", maxSplits: 1).last.map({ $0.trimmingOWS.lowercased() }) == "none" {
                kept.append("SameSite=Lax")
                continue
            }
            kept.append(attribute)
        }
        return kept.joined(separator: "; ")
    }
}
