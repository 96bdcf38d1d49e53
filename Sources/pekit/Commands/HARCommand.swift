import Foundation
import PekitCore
import PekitHTTP

let harCommand = Command(
    name: "har",
    summary: "list or replay the requests of a HAR file (browsers' and proxies' exports)",
    help: """
    usage: pekit har list FILE
           pekit har replay FILE [--filter PATTERN] [--connect N:P=A:Q]... [-k] [--cacert FILE]

    Reads an HTTP Archive (HAR 1.2) as Chrome, Firefox, Safari and proxies export it.
      list     one line per entry: its number, method, URL and the status recorded
      replay   sends each request again (method, URL, recorded headers and body; pekit adds
               only Host and Content-Length) in order, and prints each status next to the
               recorded one; the exit status is 1 if any differs or fails

    options:
      --filter PATTERN  only the entries whose URL contains PATTERN
      --connect N:P=A:Q send requests for host N port P to address A port Q (repeat)
      -k, --insecure    do not check TLS certificates;  --cacert FILE  trust the CAs in FILE
      -h, --help        show this help

    examples:
      pekit har list session.har
      pekit har replay session.har --filter /api/
    """,
    run: runHAR
)

private func runHAR(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try Arguments(args, command: "har", options: [
        .init(name: "filter", short: nil, takesValue: true), .init(name: "connect", short: nil, takesValue: true),
        .init(name: "insecure", short: "k", takesValue: false), .init(name: "cacert", short: nil, takesValue: true),
        .init(name: "help", short: "h", takesValue: false),
    ])
    if parsed.has("help") { Output.stdout.line(harCommand.help); return 0 }
    guard parsed.positionals.count == 2, ["list", "replay"].contains(parsed.positionals[0]) else {
        throw UsageError(command: "har", message: "give list FILE or replay FILE")
    }
    let path = parsed.positionals[1]
    guard let bytes = Files.read(path) else { throw CommandFailure(message: "pekit har: \(path): cannot read the file") }
    var entries: [(Int, HAR.Entry)]
    do { entries = Array(try HAR.entries(bytes).enumerated()).map { ($0.offset + 1, $0.element) } } catch {
        throw CommandFailure(message: "pekit har: \(path): \(error)")
    }
    if let pattern = parsed.value("filter") { entries = entries.filter { $0.1.url.contains(pattern) } }
    if parsed.positionals[0] == "list" {
        for (n, e) in entries { Output.stdout.line("\(n)\t\(e.method)\t\(printable(e.url))\t\(e.status.map(String.init) ?? "-")") }
        return 0
    }
    let connect = try parsed.all("connect").map { spec -> HostMapping in
        guard let eq = spec.firstIndex(of: "=") else { throw UsageError(command: "har", message: "--connect takes NAME:PORT=ADDRESS:PORT, not '\(spec)'") }
        return try HostMapping(String(spec[..<eq]), String(spec[spec.index(after: eq)...]), written: "--connect \(spec)")
    }
    let client = try HTTPClient()
    var differs = false
    for (n, e) in entries {
        var builder = e.builder()
        builder.connect = connect
        var options = SendOptions()
        options.connect = connect
        options.followRedirects = false  // each hop was recorded as its own entry
        options.insecure = parsed.has("insecure")
        options.caCertificate = parsed.value("cacert")
        do {
            let response = try client.send(try builder.build(), options: options)
            let same = e.status == nil || e.status == response.status
            if !same { differs = true }
            Output.stdout.line("\(n)\t\(e.method)\t\(printable(e.url))\t\(response.status)\t\(same ? "as recorded" : "recorded \(e.status ?? 0)")")
        } catch {
            differs = true
            Output.stdout.line("\(n)\t\(e.method)\t\(printable(e.url))\tfailed: \(printable("\(error)"))")
        }
    }
    return differs ? 1 : 0
}
