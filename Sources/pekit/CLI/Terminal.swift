#if canImport(Glibc)
import Glibc
#endif
import PekitCore

extension Option {
    /// `--color WHEN`, taken by the commands that print for people (request, import --send, query,
    /// url, har), in the words of each.
    static func color(_ help: String = "") -> Option { Option("color", value: "WHEN", help) }
}

/// How pekit styles what it prints for a person: JSON indented and coloured as jq shows it,
/// status lines and header names coloured as httpie shows them.
///
/// `--color auto` (the default) styles a stream that is a terminal, and colours it unless
/// `NO_COLOR` is set to something (no-color.org); a pipe or a file gets the bytes exactly as
/// they came. `--color always` styles and colours any stream (for `less -R`); `--color never`
/// colours nothing (JSON on a terminal is still indented).
struct Style {
    enum Choice: String, CaseIterable {
        case auto, always, never
    }

    /// Whether JSON is shown indented (rather than as the bytes that came).
    let indents: Bool
    /// Whether ANSI colours are written.
    let colors: Bool

    init(choice: Choice, isTerminal: Bool, noColor: Bool) {
        switch choice {
        case .always: indents = true; colors = true
        case .never: indents = isTerminal; colors = false
        case .auto: indents = isTerminal; colors = isTerminal && !noColor
        }
    }

    /// The style of standard output (or `fd`) under the command's `--color`.
    /// - Throws: `UsageError` for a value that is not auto, always or never.
    init(_ parsed: Arguments, command: String, fd: Int32 = STDOUT_FILENO) throws {
        let text = parsed.value(.color()) ?? "auto"
        guard let choice = Choice(rawValue: text) else {
            throw UsageError(command: command, message: "--color takes auto, always or never, not '\(text)'")
        }
        // Set to anything (not empty): no colours (no-color.org).
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        self.init(choice: choice, isTerminal: isatty(fd) != 0, noColor: noColor)
    }

    /// Plain bytes: no styling at all.
    static let plain = Style(choice: .never, isTerminal: false, noColor: true)

    /// `value` as this style shows it: indented (and coloured), or compact JSON.
    func json(_ value: PekitValue) -> [UInt8] {
        guard indents else { return JSONText.write(value) }
        return JSONText.display(value, style: JSONText.DisplayStyle(indent: 2, colors: colors ? .jq : nil))
    }

    /// A body shown to a person: JSON (by its Content-Type, and only when it parses) indented
    /// and coloured, ended by a newline; anything else as it came (nil).
    func body(_ bytes: [UInt8], contentType: String?) -> [UInt8]? {
        guard indents, let type = contentType?.lowercased(), Self.isJSON(type), !bytes.isEmpty,
              let value = try? JSONText.parse(bytes) else { return nil }
        return json(value) + [0x0A]
    }

    /// `application/json`, `application/problem+json`, `text/json`…
    static func isJSON(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return type.hasSuffix("/json") || type.hasSuffix("+json")
    }

    /// `text` in the colour `code` (an SGR parameter), or as it is without colours.
    func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// An HTTP status line (`HTTP/1.1 404 Not Found`): the version dim, the status and reason
    /// green for 2xx, yellow for 3xx, red for 4xx and 5xx (as httpie).
    func statusLine(version: String, status: Int, reason: String) -> String {
        let code = status >= 400 ? "1;31" : status >= 300 ? "1;33" : status >= 200 ? "1;32" : "1;36"
        return paint(version, "2") + " " + paint(reason.isEmpty ? String(status) : "\(status) \(reason)", code)
    }

    /// A header field line without its end: the name coloured (bold cyan), the value as it is.
    func field(_ name: String, _ value: String) -> String {
        paint(name, "1;36") + ": " + value
    }

    /// One line of a message head as `-v` shows it: a status line, a request line (bold) or a
    /// header field, each as `statusLine` and `field` colour them.
    func headLine(_ line: String) -> String {
        guard colors else { return line }
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            if parts.count >= 2, let status = Int(parts[1]) {
                return statusLine(version: String(parts[0]), status: status, reason: parts.count > 2 ? String(parts[2]) : "")
            }
        }
        if let colon = line.firstIndex(of: ":"), !line[..<colon].contains(" ") {
            return paint(String(line[..<colon]), "1;36") + String(line[colon...])
        }
        return line.isEmpty ? line : paint(line, "1")
    }

    /// A status number alone (`har list`), coloured by its class.
    func status(_ text: String, _ status: Int?) -> String {
        guard let status else { return text }
        return paint(text, status >= 400 ? "31" : status >= 300 ? "33" : "32")
    }
}
