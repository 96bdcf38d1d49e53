import Foundation
import PekitHTTP

/// curl's -w/--write-out, the variables people use: `%{http_code}` (also `%{response_code}`),
/// `%{http_version}`, `%{method}`, `%{url_effective}`, `%{num_redirects}`, `%{content_type}`,
/// `%{size_download}`, `%{size_header}`, `%{remote_ip}`, `%{remote_port}`, and the times
/// `%{time_namelookup}`, `%{time_connect}`, `%{time_appconnect}`, `%{time_starttransfer}`,
/// `%{time_total}` (seconds, six decimals, as curl writes them); `\n`, `\r`, `\t`, `\\` and `%%`.
/// An unknown variable is an error before anything is sent (curl warns and writes nothing).
struct WriteOut {
    enum Piece { case text(String), variable(String) }
    let pieces: [Piece]

    static let variables = ["http_code", "response_code", "http_version", "method", "url_effective", "num_redirects", "content_type",
                            "size_download", "size_header", "remote_ip", "remote_port", "time_namelookup", "time_connect",
                            "time_appconnect", "time_starttransfer", "time_total"]

    static func parse(_ format: String) throws -> WriteOut {
        var pieces: [Piece] = []
        var text = ""
        var rest = Substring(format)
        while let c = rest.first {
            rest = rest.dropFirst()
            if c == "%", rest.first == "%" { text.append("%"); rest = rest.dropFirst(); continue }
            if c == "%", rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    throw UsageError(command: "request", message: "-w: '%{' without its '}' in '\(format)'")
                }
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                guard variables.contains(name) else {
                    throw UsageError(command: "request", message: "-w: unknown variable %{\(name)} (known: \(variables.joined(separator: ", ")))")
                }
                if !text.isEmpty { pieces.append(.text(text)); text = "" }
                pieces.append(.variable(name))
                rest = rest[rest.index(after: close)...]
                continue
            }
            if c == "\\", let next = rest.first, let escaped = ["n": "\n", "r": "\r", "t": "\t", "\\": "\\"][next] {
                text.append(escaped)
                rest = rest.dropFirst()
                continue
            }
            text.append(c)
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return WriteOut(pieces: pieces)
    }

    func render(_ r: HTTPResponse) -> String {
        func seconds(_ t: Double) -> String { String(format: "%.6f", t) }
        return pieces.map { piece -> String in
            switch piece {
            case .text(let text): return text
            case .variable(let name):
                switch name {
                case "http_code", "response_code": return String(format: "%03d", r.status)
                case "http_version": return r.httpVersion
                case "method": return r.method
                case "url_effective": return r.url
                case "num_redirects": return String(r.redirects.count)
                case "content_type": return r.headers.last { $0.name.lowercased() == "content-type" }?.value.description ?? ""
                case "size_download": return String(r.bodyLength)
                case "size_header":
                    let statusLine: Int = "HTTP/\(r.httpVersion) \(r.status) \(r.reason)\r\n".utf8.count
                    var fields = 0
                    for field in r.headers { fields += field.name.utf8.count + field.value.count + 4 }
                    return String(statusLine + fields + 2)
                case "remote_ip": return r.remoteAddress
                case "remote_port": return String(r.remotePort)
                case "time_namelookup": return seconds(r.timing.dns)
                case "time_connect": return seconds(r.timing.connect)
                case "time_appconnect": return seconds(r.timing.tls)
                case "time_starttransfer": return seconds(r.timing.firstByte)
                default: return seconds(r.timing.total)
                }
            }
        }.joined()
    }
}
