/// A dotenv file (`NAME=VALUE` lines) read as the dotenv libraries read it: blank lines and `#`
/// comments skipped, an optional `export `, values bare (a ` #` starts a comment), in single
/// quotes (as written) or in double quotes (`\n`, `\t`, `\"`, `\\` escaped; may span lines).
public enum DotEnv {
    /// A line that is no assignment, or a quote left open.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The 1-based line.
        public let line: Int
        /// What is wrong with it.
        public let reason: String
        /// `line 3: expected NAME=VALUE`.
        public var description: String { "line \(line): \(reason)" }
    }

    /// The pairs in file order (a name given twice: the last value, at its first place).
    /// - Throws: `ParseError` naming the line of a line that is no assignment or an unclosed quote.
    public static func parse(_ bytes: [UInt8]) throws -> [(name: String, value: String)] {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        var out: [(name: String, value: String)] = []
        var k = 0
        while k < lines.count {
            let number = k + 1
            var line = Substring(lines[k])
            k += 1
            line = line.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = line.dropFirst(7).drop { $0 == " " } }
            guard let eq = line.firstIndex(of: "=") else { throw ParseError(line: number, reason: "expected NAME=VALUE") }
            let name = String(line[..<eq].trimmingOWS)
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }) else {
                throw ParseError(line: number, reason: "'\(name)' is not a variable name")
            }
            var rest = line[line.index(after: eq)...].drop { $0 == " " || $0 == "\t" }
            var value: String
            if rest.hasPrefix("'") {
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: "'") else { throw ParseError(line: number, reason: "unclosed '") }
                value = String(rest[..<close])
            } else if rest.hasPrefix("\"") {
                rest = rest.dropFirst()
                value = ""
                var escaped = false, closed = false
                while !closed {
                    for c in rest {
                        if escaped {
                            switch c {
                            case "n": value.append("\n")
                            case "t": value.append("\t")
                            case "r": value.append("\r")
                            default: value.append(c)
                            }
                            escaped = false
                        } else if c == "\\" {
                            escaped = true
                        } else if c == "\"" {
                            closed = true
                            break
                        } else {
                            value.append(c)
                        }
                    }
                    if closed { break }
                    guard k < lines.count else { throw ParseError(line: number, reason: "unclosed \"") }
                    value.append("\n")
                    rest = Substring(lines[k])
                    k += 1
                }
            } else {
                if let hash = rest.firstRange(of: " #") { rest = rest[..<hash.lowerBound] }
                value = String(rest.trimmingOWS)
            }
            if let i = out.firstIndex(where: { $0.name == name }) { out[i].value = value } else { out.append((name, value)) }
        }
        return out
    }
}
