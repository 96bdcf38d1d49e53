import PekitCore
import PekitTools

let exportCommand = Command(
    name: "export",
    summary: "write the requests of a HAR file as curl commands, a .http file, a Hurl file or a Postman collection",
    synopsis: """
    usage: pekit export curl|http|hurl|postman FILE.har [--name NAME]

    Writes each request of a HAR file (what pekit test --har, pekit run --har and pekit request
    --har record, and what browsers export) to standard output in the format named, holding
    exactly what was sent: running the output (curl in a shell, pekit test on the file, or the
    file's own tool) sends the same bytes again. Every header field is written as recorded,
    Host and Content-Length included, so each keeps its place.
      curl     one command a request, as req:curl() writes it (the body from printf, any byte)
      http     a .http file (JetBrains' HTTP Client, VS Code's REST Client, pekit test)
      hurl     a Hurl file, each body as base64,…; (any byte)
      postman  a Postman collection (v2.1), each body raw
    A request a format cannot hold exactly (a {{ that would read as a variable, a body that is
    not text, whitespace a .http file trims, a query Postman would encode) is refused with its
    entry and the reason, and nothing is written.
    """,
    sections: { [HelpSection("options:", ExportOptions.all)] },
    epilogue: """
    examples:
      pekit test --har run.har tests/ && pekit export hurl run.har > run.hurl
      pekit export postman session.har --name "Checkout" > checkout.postman_collection.json
      pekit export curl session.har | head -1

    exit status: 0 when written, 1 when a request is refused or the file is not HAR, 2 on a
    usage error.
    """,
    run: runExport
)

enum ExportOptions {
    static let name = Option("name", value: "NAME", "the collection's name (Postman's info.name; default: the file's name)")
    static let all: [Option] = [name, .help]
}

private func runExport(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try exportCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(exportCommand.help); return 0 }
    let formats = CollectionExport.Format.allCases.map(\.rawValue)
    guard parsed.positionals.count == 2, let format = CollectionExport.Format(rawValue: parsed.positionals[0]) else {
        throw UsageError(command: "export", message: "give a format (\(formats.joined(separator: ", "))) and a HAR file: pekit export hurl run.har")
    }
    let path = parsed.positionals[1]
    let entries = try harEntries(path, command: "export")
    let base = path.split(separator: "/").last.map(String.init) ?? path
    let name = parsed.value(ExportOptions.name) ?? (base.hasSuffix(".har") ? String(base.dropLast(4)) : base)
    do {
        Output.stdout.write(Array(try CollectionExport.write(entries, as: format, name: name).utf8))
    } catch let refusal as CollectionExport.Refusal {
        throw CommandFailure(message: "pekit export: \(path): \(refusal.description)")
    }
    return 0
}
