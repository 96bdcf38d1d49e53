import PekitCore
import PekitHTTP

/// What `pekit har replay --compare body,headers` looks at beyond the status: the body (bytes,
/// or the same JSON value however it is spaced) and the header fields, each against what the
/// file recorded. Fields that change from one response to the next whatever the server does
/// (`Date`, `Age`, request ids, the framing) are not compared.
struct HARComparison {
    var body = false
    var headers = false

    /// The fields left out of the comparison (lower case).
    static let volatileFields: Set<String> = [
        "date", "age", "expires", "set-cookie", "server-timing", "content-length", "transfer-encoding", "connection",
        "keep-alive", "alt-svc", "report-to", "nel", "via", "x-cache", "x-cache-hits", "x-served-by", "x-timer", "cf-ray",
        "x-request-id", "request-id", "x-amz-request-id", "x-amz-id-2", "x-amz-cf-id", "x-amz-cf-pop", "traceparent",
    ]

    /// `body`, `headers` or both, separated by commas.
    /// - Throws: `UsageError` naming what is not one of them.
    init(_ text: String) throws {
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            switch part.trimmingCharacters(in: .whitespaces) {
            case "body": body = true
            case "headers": headers = true
            case "status": break
            default:
                throw UsageError(command: "har", message: "--compare takes body, headers or both (body,headers), not '\(part)'")
            }
        }
    }

    /// The differences between the recorded response of `entry` and `response`, one line each.
    func differences(_ entry: HAR.Entry, _ response: PekitResponse) -> [String] {
        var lines: [String] = []
        if headers {
            var recorded: [String: [String]] = [:], now: [String: [String]] = [:], order: [String] = []
            for field in entry.responseHeaders where !Self.volatileFields.contains(field.name.lowercased()) {
                let name = field.name.lowercased()
                if recorded[name] == nil && now[name] == nil { order.append(name) }
                recorded[name, default: []].append(field.value)
            }
            for field in response.headers where !Self.volatileFields.contains(field.name.lowercased()) {
                let name = field.name.lowercased()
                if recorded[name] == nil && now[name] == nil { order.append(name) }
                now[name, default: []].append(field.value.description)
            }
            for name in order where recorded[name] != now[name] {
                let shown = { (values: [String]?) in values.map { $0.map { "\"\(printable($0))\"" }.joined(separator: ", ") } }
                switch (shown(recorded[name]), shown(now[name])) {
                case (let was?, let isNow?): lines.append("header \(printable(name)): recorded \(was), now \(isNow)")
                case (let was?, nil): lines.append("header \(printable(name)): recorded \(was), now none")
                case (nil, let isNow?): lines.append("header \(printable(name)): not recorded, now \(isNow)")
                default: break
                }
            }
        }
        if body, let recorded = entry.responseBody, recorded != response.body {
            // The same JSON value, spaced or escaped another way, is the same body.
            if let a = try? JSONText.parse(recorded), let b = try? JSONText.parse(response.body), a == b { return lines }
            let first = zip(recorded, response.body).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(recorded.count, response.body.count)
            lines.append("body: recorded \(recorded.count) bytes, now \(response.body.count); they differ from byte \(first + 1)")
        }
        return lines
    }
}
