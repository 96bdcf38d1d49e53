/// A Hurl variables file (`hurl --variables-file`): `name=value` lines, blank lines and `#`
/// comment lines between them. Values are kept as written (a quoted one with its quotes), for
/// `hurl.lua` types them as Hurl does: `"…"` a string, `true`/`false`, `null`, a number, else text.
public enum HurlVariables {
    /// A line that is not `name=value`: its number and what it holds.
    public struct ParseError: Error, Equatable, Sendable {
        public let line: Int
        public let reason: String
    }

    /// The file's variables, in order.
    /// - Throws: `ParseError` for a line with no `=` or no name.
    public static func parse(_ bytes: [UInt8]) throws -> [(name: String, value: String)] {
        var out: [(name: String, value: String)] = []
        for (number, raw) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingOWS
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "="), eq != line.startIndex else {
                throw ParseError(line: number + 1, reason: "expected name=value, got '\(line)'")
            }
            out.append((String(line[..<eq].trimmingOWS), String(line[line.index(after: eq)...])))
        }
        return out
    }
}
