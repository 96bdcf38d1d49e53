import PekitCore
import PekitLua

let queryCommand = Command(
    name: "query",
    summary: "flatten JSON parameters into a query string, or read one as a real server does",
    synopsis: """
    usage: pekit query [--policy NAME] [--as A,B,...] [--check SERVER] [--set OPTION=VALUE]... [--plugins DIR] [JSON | -]
           pekit query --explain [--policy NAME] [--plugins DIR] [JSON | -]
           pekit query --decode [--server SERVER | --policy NAME] [--set OPTION=VALUE]... [--escape-bytes] [QUERY | URL | -]

    Flattens a JSON object (an argument, or standard input for '-' or none) into a query string
    under a policy; JSON objects keep their key order. With --check, reads the result back as a
    real server does and reports every value: exact, changed-type (a number or true arriving as
    a string), changed, lost or extra. With --explain, says the policy's rules, each pair as
    flattened and as written with every character it escaped and why, and how each server
    reads the query, side by side. With --decode, reads a query string (or the query part
    of a URL, or of '?…') as SERVER does and prints what it gets as JSON.

    servers (each a model of the real parser, checked against it; options under its own names):
    \(serverHelp)
    """,
    sections: { [HelpSection("options:", QueryOptions.all)] },
    epilogue: """
    examples:
      pekit query --policy afnetworking '{"b": [1, 2], "a": {"x": null}}'
      pekit query --as afnetworking,php,qs '{"list": [1, 2], "s": "a b"}'
      pekit query --policy qs-comma --check qs '{"tags": ["a,b", "c"]}'
      pekit query --explain --policy php '{"u": {"name": "a b"}, "tags": [1, true]}'
      pekit query --decode --server php 'a[]=1&a[]=2&b.c=3'
      pekit query --decode --server qs,php,rack,go 'a[]=1&b.c=2;3'
      pekit query --decode --server python --set keep_blank_values=true 'https://h/p?a=&b=1'
    """,
    run: runQuery
)

/// `pekit query`'s options, in the order its help shows them.
enum QueryOptions {
    static let policy = Option("policy", value: "NAME", """
        the encoding rules: a plugin or built-in policy (default rfc3986); shipped:
        afnetworking, alamofire, alamofire-form, qs, qs-brackets, qs-repeat,
        qs-comma, php, rack, jquery, jquery1, go, python-requests,
        node-querystring, form, foundation-query, aws-sigv4, oauth1, rfc3986.
        With --decode and no --server: qs reading what the policy writes (dots,
        commas, bare keys).
        """)
    static let asPolicies = Option("as", value: "A,B,...", """
        the same parameters through several policies, one line each, with ^ under
        the pairs that differ from the first policy's
        """)
    static let check = Option("check", value: "SERVER", """
        read the output back as SERVER does and report every value; exit status 0
        when every value arrives exactly as sent, 3 when the only changes are of
        type (numbers or booleans as strings, what every flat server does), 1 on
        a loss, a changed value, an extra value or an error
        """)
    static let decode = Option("decode", "read QUERY instead (JSON out)")
    static let explain = Option("explain", "say how the policy writes each pair and why, and how each server reads the query")
    static let server = Option("server", value: "SERVER", """
        with --decode: the server whose parser to run (default: qs under --policy);
        several, as A,B,…: one line each, ^ under the parameters read otherwise
        than by the first (bytes that are not UTF-8 written \\xFF)
        """)
    static let set = Option("set", value: "OPTION=VALUE", """
        an option of the server's model, in its own name (repeat for more;
        VALUE is JSON when it parses as JSON, else a string):
        --set allowDots=true, --set keep_blank_values=true, --set max_input_vars=5
        """)
    static let escapeBytes = Option("escape-bytes", """
        with --decode: write bytes that are not UTF-8 as \\xFF in the JSON
        (without it they are an error naming where they are)
        """)
    static let color = Option.color("""
        with --decode: auto (on a terminal, the JSON indented and coloured
        unless NO_COLOR is set; compact in a pipe), always or never
        """)
    static let all: [Option] = [policy, asPolicies, check, explain, decode, server, set, escapeBytes, .plugins, color, .help]
}

/// The models with their versions and options, for the help text.
private let serverHelp: String = QueryServer.models.map { model in
    let options = model.optionNames
    let name = model.name.padding(toLength: 17, withPad: " ", startingAt: 0)
    var lines = ["  \(name)\(model.modelled)"]
    var line = ""
    for option in options {
        if !line.isEmpty, line.count + option.count + 2 > 76 { lines.append(String(repeating: " ", count: 19) + line + ","); line = "" }
        line += line.isEmpty ? option : ", " + option
    }
    if !line.isEmpty { lines.append(String(repeating: " ", count: 19) + line) }
    return lines.joined(separator: "\n")
}.joined(separator: "\n") + "\n  frameworks, by the model each runs: " + QueryServer.frameworks.map { framework in
    framework.name + " (" + framework.model + (framework.options.isEmpty ? "" : " " + framework.options.map { "\($0.name)=\($0.value)" }.joined(separator: " ")) + ")"
}.joined(separator: ", ")

private func runQuery(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try queryCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(queryCommand.help); return 0 }
    guard parsed.positionals.count <= 1 else {
        throw UsageError(command: "query", message: "expected one argument (JSON or a query string), got \(parsed.positionals.count)")
    }
    var input: [UInt8]
    if let argument = parsed.positionals.first, argument != "-" {
        input = Array(argument.utf8)
    } else {
        input = try readAllInput()
    }
    let runtime = try commandHost(extraPluginDirectories: parsed.all(.plugins))
    func policy(_ name: String) throws -> Policy {
        do { return try runtime.policy(named: name) } catch { throw CommandFailure(message: "pekit query: \(error)") }
    }
    let settings = try parsed.all(QueryOptions.set).map { setting -> (name: String, value: PekitValue) in
        guard let equals = setting.firstIndex(of: "="), equals != setting.startIndex else {
            throw UsageError(command: "query", message: "--set takes OPTION=VALUE, got '\(setting)'")
        }
        let text = String(setting[setting.index(after: equals)...])
        return (String(setting[..<equals]), JSONText.optionValue(text))
    }
    func server(_ name: String?, policyName: String?) throws -> QueryServer {
        do {
            if let name { return try QueryServer.named(name, options: settings) }
            return try QueryServer.qs(policy: try policy(policyName ?? "rfc3986"), options: settings)
        } catch let error as QueryServer.OptionError {
            throw UsageError(command: "query", message: "--set \(error.option): \(error.message)")
        } catch let error as QueryError {
            throw UsageError(command: "query", message: "\(error)")
        }
    }
    if parsed.has(QueryOptions.decode) {
        if parsed.has(QueryOptions.check) || parsed.has(QueryOptions.asPolicies) || parsed.has(QueryOptions.explain) {
            throw UsageError(command: "query", message: "--decode cannot be used with --check, --as or --explain")
        }
        if parsed.has(QueryOptions.server), parsed.has(QueryOptions.policy) { throw UsageError(command: "query", message: "give --server or --policy with --decode, not both") }
        while input.last == 0x0A || input.last == 0x0D { input.removeLast() }
        // One server, or several side by side; the query part read once for all of them.
        let names: [String?] = parsed.value(QueryOptions.server).map { $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0) } } ?? [nil]
        let models = try names.map { try server($0, policyName: parsed.value(QueryOptions.policy)) }
        let model = models[0]
        let (query, source) = model.queryPart(of: input)
        if source != .query {
            Output.stderr.line("pekit query: reading the query part of the \(source == .url ? "URL" : "'?…' input"): \(String(decoding: query, as: UTF8.self))")
        }
        if models.count > 1 {
            for line in ServerReadings.lines(Array(query), models: models) { Output.stdout.line(line) }
            return 0
        }
        do {
            let (value, error) = try model.reading(ByteString(bytes: query))
            // On a terminal, indented and coloured (--color); in a pipe, compact.
            let style = try Style(parsed, command: "query")
            let json: [UInt8]
            if parsed.has(QueryOptions.escapeBytes) {
                json = style.json(escapingBytes(value))
            } else {
                do {
                    // Checked as JSONText.encode checks it: bytes that are not UTF-8 are refused.
                    let compact = try JSONText.encode(value, root: "query")
                    json = style.indents ? style.json(value) : compact
                } catch let error as JSONText.EncodeError {
                    throw CommandFailure(message: "pekit query: \(error.path): byte 0x\(String(format: "%02X", error.byte)) at \(error.position) is not UTF-8, which JSON cannot hold; --escape-bytes writes such bytes as \\x\(String(format: "%02X", error.byte))")
                }
            }
            Output.stdout.write(json)
            Output.stdout.line("")
            if let error { Output.stderr.line("pekit query: \(model.name) also returns an error: \(error.message)") }
        } catch let error as QueryServerError {
            throw CommandFailure(message: "pekit query: \(error)")
        }
        return 0
    }
    if parsed.has(QueryOptions.server) { throw UsageError(command: "query", message: "--server goes with --decode (use --check SERVER to check a round trip)") }
    if parsed.has(QueryOptions.escapeBytes) { throw UsageError(command: "query", message: "--escape-bytes goes with --decode") }
    if !settings.isEmpty, !parsed.has(QueryOptions.check) { throw UsageError(command: "query", message: "--set goes with --decode or --check") }
    let value: PekitValue
    do { value = try JSONText.parse(input) } catch {
        throw CommandFailure(message: "pekit query: \(parsed.positionals.first.map { _ in "argument" } ?? "standard input"): \(error)")
    }
    do {
        if let list = parsed.value(QueryOptions.asPolicies) {
            let policies = try list.split(separator: ",").map { try policy(String($0)) }
            guard !policies.isEmpty else { throw UsageError(command: "query", message: "--as needs policy names") }
            let rows = try QueryCheck.compare(value, policies: policies)
            let width = (rows.map(\.policy.name.count).max() ?? 0) + 2
            for row in rows {
                let label = row.policy.name.padding(toLength: width, withPad: " ", startingAt: 0)
                Output.stdout.line(label + row.pairs.joined(separator: row.policy.separator.description))
                if row.differs.contains(true) {
                    let marks = zip(row.pairs, row.differs).map { String(repeating: $1 ? "^" : " ", count: $0.count) }
                    var line = String(repeating: " ", count: width) + marks.joined(separator: String(repeating: " ", count: row.policy.separator.count))
                    while line.last == " " { line.removeLast() }
                    Output.stdout.line(line)
                } else if row.reordered {
                    Output.stdout.line(String(repeating: " ", count: width) + "(the same pairs, in another order)")
                }
                // Marks show what a row sends differently; a row that only leaves pairs out has
                // none to mark, so those pairs are named.
                if !row.missing.isEmpty && !row.differs.contains(true) {
                    Output.stdout.line(String(repeating: " ", count: width) + "(not sent: \(row.missing.joined(separator: ", ")))")
                }
            }
            return 0
        }
        let chosen = try policy(parsed.value(QueryOptions.policy) ?? "rfc3986")
        if parsed.has(QueryOptions.explain) {
            if parsed.has(QueryOptions.check) { throw UsageError(command: "query", message: "--explain cannot be used with --check or --as") }
            for line in try explanationLines(chosen.explain(value), policy: chosen) { Output.stdout.line(line) }
            return 0
        }
        if let serverName = parsed.value(QueryOptions.check) {
            let model = try server(serverName, policyName: nil)
            let report = try QueryCheck.check(value, policy: chosen, server: model)
            Output.stdout.line(report.query.description)
            for leaf in report.leaves {
                Output.stdout.line("  " + leaf.status.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0) + "\(leaf.path): \(leaf.detail)")
            }
            if report.isExact {
                Output.stdout.line("ok: \(model.modelled) reads back exactly what was sent")
                return 0
            }
            let values = report.leaves.filter { $0.status != .extra && $0.status != .error }.count
            let bad = report.problems.filter { $0.status != .extra && $0.status != .error }.count
            // Numbers and booleans arriving as strings is what every server that reads text does:
            // its own exit status, so that a script can accept it.
            if report.problems.allSatisfy({ $0.status == .changedType }) {
                Output.stdout.line("ok but types: \(bad) of \(values) value\(values == 1 ? "" : "s") \(bad == 1 ? "arrives" : "arrive") as \(bad == 1 ? "a string" : "strings") (as \(model.name) reads all text); nothing is lost or changed")
                return 3
            }
            Output.stdout.line("not ok: \(bad) of \(values) value\(values == 1 ? "" : "s") \(values == 1 ? "does" : "do") not arrive exactly as sent" +
                               (report.problems.contains { $0.status == .extra } ? ", and \(model.name) reads values that were not sent" : "") +
                               (report.problems.contains { $0.status == .error } ? ", and \(model.name) reports an error" : ""))
            return 1
        }
        Output.stdout.write(try chosen.queryString(value).bytes)
        Output.stdout.line("")
        return 0
    } catch let error as QueryError {
        throw CommandFailure(message: "pekit query: \(error)")
    }
}

/// `--explain`'s lines: the policy's rules, each pair as flattened and as written with the
/// characters it escaped, and the servers' readings side by side.
private func explanationLines(_ explanation: QueryExplanation, policy: Policy) -> [String] {
    func text(_ bytes: [UInt8]) -> String { printable(String(decoding: bytes, as: UTF8.self)) }
    var lines = ["policy \(policy.name):"] + explanation.rules.map { "  " + $0 }
    lines += ["", "query: " + text(explanation.query), ""]
    for (n, item) in explanation.pairs.enumerated() {
        let given = text(item.pair.key.bytes) + (item.pair.value.map { " = " + text($0.bytes) } ?? " (the key alone)")
        let written = text(item.key) + (item.value.map { "=" + text($0) } ?? "")
        lines.append("  \(n + 1). \(given)  →  \(written)")
        for (part, changes) in [("key", item.keyChanges), ("value", item.valueChanges)] {
            // Each character once, in order of first appearance.
            var seen = Set<[UInt8]>()
            for step in changes where seen.insert(step.bytes).inserted {
                lines.append("       \(part): \(text(step.bytes) == " " ? "' '" : text(step.bytes)) → \(text(step.written)): \(step.reason)")
            }
        }
    }
    if explanation.pairs.isEmpty && !explanation.query.isEmpty {
        lines.append("  (the pairs cannot be told apart: a value holds the separator unescaped)")
    }
    let models = QueryServer.models.map(\.defaults)
    lines += ["", "how each server reads it:"] + ServerReadings.lines(explanation.query, models: models).map { "  " + $0 }
    return lines
}

/// Strings and keys with bytes that are not UTF-8 written as `\xFF` (Python's backslashreplace).
func escapingBytes(_ value: PekitValue) -> PekitValue {
    func escaped(_ s: ByteString) -> ByteString {
        guard !UTF8Validation.isValid(s.bytes) else { return s }
        var out: [UInt8] = []
        s.bytes.withUnsafeBufferPointer { buffer in
            var i = 0
            while i < buffer.count {
                let (length, problem) = UTF8Decoding.sequence(in: buffer, at: i)
                if problem == nil { out += buffer[i..<i + length] } else {
                    for k in i..<i + length { out += Array("\\x\(String(format: "%02X", buffer[k]))".utf8) }
                }
                i += length
            }
        }
        return ByteString(out)
    }
    switch value {
    case .string(let s): return .string(escaped(s))
    case .array(let items): return .array(items.map(escapingBytes))
    case .set(let items): return .set(items.map(escapingBytes))
    case .map(let map):
        let entries = map.entries.map { PekitMap.Entry(key: escaped($0.key), value: escapingBytes($0.value)) }
        return .map(map.isOrdered ? PekitMap(ordered: entries) : PekitMap(unordered: entries))
    default: return value
    }
}
