import PekitCore
import PekitLua

let queryCommand = Command(
    name: "query",
    summary: "flatten JSON parameters into a query string, or parse one",
    help: """
    usage: pekit query [--policy NAME] [--as A,B,...] [--check SERVER] [--plugins DIR] [JSON | -]
           pekit query --decode [--policy NAME | --server SERVER] [--strict] [STRING | -]

    Flattens a JSON object (an argument, or standard input for '-' or none) into a query string
    under a policy; JSON objects keep their key order. With --decode, parses a query string into
    JSON the way a server would.

    options:
      --policy NAME    the encoding rules: a plugin or built-in policy (default rfc3986); shipped:
                       afnetworking, alamofire, qs, qs-brackets, qs-repeat, qs-comma, php, rack,
                       jquery, form, foundation-query, aws-sigv4, oauth1, rfc3986
      --as A,B,...     the same parameters through several policies, one line each, with ^ under
                       the pairs that differ from the first policy's
      --check SERVER   re-parse the output as SERVER would (qs, php, rack) and report what does
                       not survive the round trip; exit status 1 when something does not
      --decode         parse STRING instead (JSON out)
      --server NAME    with --decode: parse as qs, php or rack do (default: as --policy writes)
      --strict         with --decode: fail when a limit is passed (depth 5, 1000 parameters,
                       array index 20, 16 MB) instead of applying the lenient rule
      --plugins DIR    search DIR for plugins first
      -h, --help       show this help

    examples:
      pekit query --policy afnetworking '{"b": [1, 2], "a": {"x": null}}'
      pekit query --as afnetworking,php,qs '{"list": [1, 2], "s": "a b"}'
      pekit query --policy qs-comma --check qs '{"tags": ["a,b", "c"]}'
      pekit query --decode --server php 'a[]=1&a[]=2&b.c=3'
    """,
    run: runQuery
)

private func runQuery(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try Arguments(args, command: "query", options: [
        .init(name: "policy", short: nil, takesValue: true), .init(name: "as", short: nil, takesValue: true),
        .init(name: "check", short: nil, takesValue: true), .init(name: "decode", short: nil, takesValue: false),
        .init(name: "server", short: nil, takesValue: true), .init(name: "strict", short: nil, takesValue: false),
        pluginsOption, .init(name: "help", short: "h", takesValue: false),
    ])
    if parsed.has("help") { Output.stdout.line(queryCommand.help); return 0 }
    guard parsed.positionals.count <= 1 else {
        throw UsageError(command: "query", message: "expected one argument (JSON or a query string), got \(parsed.positionals.count)")
    }
    var input: [UInt8]
    if let argument = parsed.positionals.first, argument != "-" {
        input = Array(argument.utf8)
    } else {
        input = try readAllInput()
    }
    let runtime = try makeRuntime(extraPluginDirectories: parsed.all("plugins"))
    func policy(_ name: String) throws -> Policy {
        do { return try runtime.policy(named: name) } catch { throw CommandFailure(message: "pekit query: \(error)") }
    }
    if parsed.has("decode") {
        while input.last == 0x0A || input.last == 0x0D { input.removeLast() }
        var parser: QueryParser
        if let server = parsed.value("server") {
            do { parser = try QueryParser.server(named: server) } catch { throw UsageError(command: "query", message: "\(error)") }
        } else {
            parser = QueryParser(policy: try policy(parsed.value("policy") ?? "rfc3986"))
        }
        parser.strict = parsed.has("strict")
        do {
            Output.stdout.write(JSON.write(try parser.parse(ByteString(input))))
            Output.stdout.line("")
        } catch let error as QueryError {
            throw CommandFailure(message: "pekit query: \(error)")
        }
        return 0
    }
    let value: PekitValue
    do { value = try JSON.parse(input) } catch {
        throw CommandFailure(message: "pekit query: \(parsed.positionals.first.map { _ in "argument" } ?? "standard input"): \(error)")
    }
    do {
        if let list = parsed.value("as") {
            let policies = try list.split(separator: ",").map { try policy(String($0)) }
            guard !policies.isEmpty else { throw UsageError(command: "query", message: "--as needs policy names") }
            let rows = try QueryCheck.compare(value, policies: policies)
            let width = rows.map(\.policy.name.count).max()! + 2
            for row in rows {
                let label = row.policy.name.padding(toLength: width, withPad: " ", startingAt: 0)
                Output.stdout.line(label + row.pairs.joined(separator: row.policy.separator.description))
                if row.differs.contains(true) {
                    let marks = zip(row.pairs, row.differs).map { String(repeating: $1 ? "^" : " ", count: $0.count) }
                    var line = String(repeating: " ", count: width) + marks.joined(separator: String(repeating: " ", count: row.policy.separator.count))
                    while line.last == " " { line.removeLast() }
                    Output.stdout.line(line)
                }
            }
            return 0
        }
        let chosen = try policy(parsed.value("policy") ?? "rfc3986")
        if let serverName = parsed.value("check") {
            let server: QueryParser
            do { server = try QueryParser.server(named: serverName) } catch { throw UsageError(command: "query", message: "\(error)") }
            let (query, problems) = try QueryCheck.check(value, policy: chosen, server: server, serverName: serverName)
            Output.stdout.line(query.description)
            if problems.isEmpty {
                Output.stdout.line("ok: \(serverName) reads back exactly what was sent")
                return 0
            }
            for problem in problems { Output.stdout.line("  \(problem)") }
            return 1
        }
        Output.stdout.write(try chosen.queryString(value).bytes)
        Output.stdout.line("")
        return 0
    } catch let error as QueryError {
        throw CommandFailure(message: "pekit query: \(error)")
    }
}
