import Foundation
import PekitCore
import PekitHTTP

/// The options only sending has.
let sendOnlyOptions = RequestOptions.all.filter { $0.sendOnly }

/// Whether the command sends: --send, or any option that only sending has (-i, -o, -I, -L, -f,
/// …), as the same curl command would. With --raw, --curl or --describe, which only show the
/// request, such an option is an error rather than silently ignored.
func isSending(_ parsed: Arguments) throws -> Bool {
    let sendOnly = parsed.given(sendOnlyOptions)
    let showing = parsed.given([RequestOptions.raw, RequestOptions.curl, RequestOptions.describe, RequestOptions.readBy])
    if let option = sendOnly.first, let shown = showing.first {
        throw UsageError(command: "request", message: "--\(option.name) is for sending, and --\(shown.name) only shows the request: leave one out")
    }
    if parsed.has(RequestOptions.send), let shown = showing.first {
        throw UsageError(command: "request", message: "--send and --\(shown.name) cannot go together")
    }
    return parsed.has(RequestOptions.send) || !sendOnly.isEmpty
}

/// The value a send option's row (`SendOptions.fields`) has on the command line: the last of
/// its flags given (curl's rule: `-x` then `--socks5` is the SOCKS proxy), read by the row's
/// kind; nil when none is given or the row is a script's.
/// - Throws: `UsageError` in the row's words (`--timeout takes a number of seconds …`).
func sendOptionValue(_ field: SendOptions.Field, _ parsed: Arguments) throws -> SendOptions.Field.Value? {
    let names = field.flagNames
    guard let flag = parsed.values.last(where: { names.contains($0.name) })?.name, let row = field.flags.first(where: { $0.name == flag }) else { return nil }
    if let implied = field.implied(flag) { return implied }
    let text = row.value(of: parsed.value(named: flag) ?? "")
    switch field.kind {
    case .flag: return .flag(true)
    case .seconds: return try seconds(named: flag, parsed).map { .number($0) }
    case .count(let range):
        guard let count = Int(text), range.contains(count) else {
            throw UsageError(command: "request", message: "--\(field.flagNames[0]) takes a count from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return .integer(count)
    case .bytes:
        guard let count = curlByteCount(text) else {
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

/// A size as curl writes one: digits, then nothing or K, M or G (powers of 1024); nil for
/// anything else or a size past `Int`.
func curlByteCount(_ text: String) -> Int? {
    let scale = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30][text.last.map { String($0).lowercased() } ?? ""]
    guard let number = Int(scale == nil ? text : String(text.dropLast())), number >= 0 else { return nil }
    let (count, overflow) = number.multipliedReportingOverflow(by: scale ?? 1)
    return overflow ? nil : count
}

/// A number of seconds given with the option, checked as libcurl can take it.
/// - Throws: `UsageError` naming the flag.
func seconds(_ option: Option, _ parsed: Arguments) throws -> Double? { try seconds(named: option.name, parsed) }

private func seconds(named name: String, _ parsed: Arguments) throws -> Double? {
    guard let text = parsed.value(named: name) else { return nil }
    guard let value = Double(text), SendOptions.secondsRange.contains(value), value > 0 else {
        throw UsageError(command: "request", message: "--\(name) takes a number of seconds more than 0 and at most \(Int(SendOptions.secondsRange.upperBound)), not '\(text)'")
    }
    return value
}
