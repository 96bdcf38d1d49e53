import Foundation
import PekitCore
import PekitHTTP

/// The option table of `pekit request` (also what `pekit import curl` reads a command with), one
/// row an option; a row made with `send` is an option only sending has.
let requestOptions: [Arguments.Option] = {
    typealias O = Arguments.Option
    func option(_ name: String, _ short: Character? = nil, value: Bool = true) -> O { O(name: name, short: short, takesValue: value) }
    func flag(_ name: String, _ short: Character? = nil) -> O { O(name: name, short: short, takesValue: false) }
    func send(_ name: String, _ short: Character? = nil, value: Bool = false) -> O {
        O(name: name, short: short, takesValue: value, sendOnly: true)
    }
    return [
        // What the request is.
        option("method", "X"), option("policy"), option("param"), option("params-in"), option("param-json"),
        option("form", "F"), option("json"), option("file"), option("header", "H"), option("jar"), option("base"),
        option("user", "u"), option("filter"), option("body-file"), option("connect"), option("aws-sigv4"), option("request-target"),
        option("url"), flag("force"), pluginsOption,
        // curl's flags, with curl's meaning.
        option("data", "d"), option("data-ascii"), option("data-raw"), option("data-binary"), option("data-urlencode"),
        flag("get", "G"), option("user-agent", "A"), option("referer", "e"), option("connect-to"), option("resolve"),
        option("cookie", "b"), flag("compressed"), flag("globoff", "g"),
        // What is done with it.
        flag("send"), flag("raw"), flag("curl"), flag("describe"), colorOption, flag("help", "h"),
        // Only sending has these (and any of them sends, as the same curl command would).
        send("include", "i"), send("output", "o", value: true), send("verbose", "v"),
        send("fail", "f"), send("fail-with-body"), send("head", "I"), send("location", "L"),
        send("silent", "s"), send("show-error", "S"), send("cookie-jar", "c", value: true), send("remote-name", "O"),
        send("dump-header", "D", value: true), send("write-out", "w", value: true), send("trace-ascii", value: true),
        send("har", value: true), send("har-with-secrets"), send("retry", value: true), send("retry-max-time", value: true), send("retry-all-errors"),
        send("progress"), send("no-progress"), send("parallel", "Z"), send("parallel-max", value: true), send("rate", value: true),
    ] + SendOptions.fields.flatMap { field in
        // The send options' own flags, from their rows (--compressed is a request flag above).
        field.flags.filter { $0.name != "compressed" }.map { send($0.name, $0.short, value: field.takesValue($0)) }
    }
}()

/// The names of the options only sending has.
let sendOnlyOptions = requestOptions.filter(\.sendOnly).map(\.name)

/// Whether the command sends: --send, or any option that only sending has (-i, -o, -I, -L, -f,
/// …), as the same curl command would. With --raw, --curl or --describe, which only show the
/// request, such an option is an error rather than silently ignored.
func isSending(_ parsed: Arguments) throws -> Bool {
    let sendOnly = sendOnlyOptions.filter { parsed.has($0) }
    let showing = ["raw", "curl", "describe"].filter { parsed.has($0) }
    if let option = sendOnly.first, let shown = showing.first {
        throw UsageError(command: "request", message: "--\(option) is for sending, and --\(shown) only shows the request: leave one out")
    }
    if parsed.has("send"), let shown = showing.first {
        throw UsageError(command: "request", message: "--send and --\(shown) cannot go together")
    }
    return parsed.has("send") || !sendOnly.isEmpty
}

/// The value a send option's row (`SendOptions.fields`) has on the command line: the first of
/// its flags given, read by the row's kind; nil when none is given or the row is a script's.
/// - Throws: `UsageError` in the row's words (`--timeout takes a number of seconds …`).
func sendOptionValue(_ field: SendOptions.Field, _ parsed: Arguments) throws -> SendOptions.Field.Value? {
    guard let flag = field.flagNames.first(where: { parsed.has($0) }) else { return nil }
    if let implied = field.implied[flag] { return implied }
    let text = parsed.value(flag) ?? ""
    switch field.kind {
    case .flag: return .flag(true)
    case .seconds: return try seconds(flag, parsed).map { .number($0) }
    case .count(let range):
        guard let count = Int(text), range.contains(count) else {
            throw UsageError(command: "request", message: "--\(field.flagNames[0]) takes a count from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return .integer(count)
    case .bytes:
        // curl's suffixes: 16K, 1M, 2G (powers of 1024).
        let scale = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30][text.last.map { String($0).lowercased() } ?? ""]
        let digits = scale == nil ? text : String(text.dropLast())
        guard let number = Int(digits), number >= 0, case let (count, overflow) = number.multipliedReportingOverflow(by: scale ?? 1), !overflow else {
            throw UsageError(command: "request", message: "--\(flag) takes a number of bytes, not '\(text)'")
        }
        return .integer(count)
    case .text: return .text(text)
    case .choice(let words):
        guard words.contains(text) else { throw UsageError(command: "request", message: "--\(flag) takes \(alternatives(words)), not '\(text)'") }
        return .text(text)
    case .script: return nil
    }
}

/// A number of seconds given with `--name`, checked as libcurl can take it.
/// - Throws: `UsageError` naming the flag.
func seconds(_ name: String, _ parsed: Arguments) throws -> Double? {
    guard let text = parsed.value(name) else { return nil }
    guard let value = Double(text), SendOptions.secondsRange.contains(value), value > 0 else {
        throw UsageError(command: "request", message: "--\(name) takes a number of seconds more than 0 and at most \(Int(SendOptions.secondsRange.upperBound)), not '\(text)'")
    }
    return value
}
