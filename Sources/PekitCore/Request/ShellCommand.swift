/// A pasted POSIX command line read as bash reads the one command it runs, with the shell around
/// it that a pasted curl command has: `$NAME` and `${NAME}` from the environment (split into
/// words where unquoted, as bash splits them), `< FILE`, a here-document (`<<END`, `<<-END`,
/// `<<'END'`), a here-string (`<<< word`), and a pipeline that feeds it (`echo …`, `printf …`,
/// `cat FILE… |`). Nothing is ever run: a command substitution (`$(…)` or backquotes), an
/// arithmetic one, a second command (`;`, `&&`, `||`, `&`), an output redirection and any
/// other program in a pipeline are refused by name, so that what is sent is what bash and the
/// program would send, or nothing.
///
/// Quoting is `ShellWords`' POSIX dialect (`'…'`, `"…"`, `\`, `$'…'`, line continuations).
public struct ShellCommand: Sendable, Equatable {
    /// The command's words, as bytes (the program's name first).
    public var words: [[UInt8]]
    /// What its standard input holds, when the line gives it (`<`, `<<`, `<<<`, a pipeline).
    public var standardInput: [UInt8]?
    /// The environment variables the line reads, in the order first read.
    public var variables: [String]
    /// The default each `${NAME:-default}` gives, by name (the last one given).
    public var defaults: [String: String] = [:]
    /// The variables expanded outside quotes somewhere, whose values bash splits into words.
    public var unquoted: Set<String> = []

    /// Why a line cannot be read as one command.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// What is wrong, and where (a character's position counts from 1).
        public let description: String
    }

    /// A pasted command in whichever shell's quoting `ShellWords.dialect(of:)` tells: POSIX with
    /// the shell around it (`read`), cmd and PowerShell as their words alone.
    /// - Throws: `Failure` or `ShellWords.Failure`, as `read` and `ShellWords.splitBytes` do.
    public static func pasted(_ text: String, environment: @escaping (String) -> String?, readFile: (String) -> [UInt8]?) throws -> ShellCommand {
        guard ShellWords.dialect(of: text) == .posix else {
            return ShellCommand(words: try ShellWords.splitBytes(text), standardInput: nil, variables: [])
        }
        return try read(text, environment: environment, readFile: readFile)
    }

    /// Reads `text`: `environment` gives a variable's value (nil: not set, which is empty, as in
    /// bash); `readFile` gives a file's bytes for `<` and `cat` (nil: it cannot be read).
    /// - Throws: `Failure` naming what pekit does not run or read, or a quote left open.
    /// - Complexity: O(n) in the text's length, plus the files read.
    public static func read(_ text: String, environment: @escaping (String) -> String?, readFile: (String) -> [UInt8]?) throws -> ShellCommand {
        var reader = Reader(Array(text.unicodeScalars), environment: environment)
        let tokens = try reader.tokens()
        // The pipeline's commands, each its words and redirections.
        var commands: [[Token]] = [[]]
        for token in tokens {
            if case .pipe = token.kind { commands.append([]) } else { commands[commands.count - 1].append(token) }
        }
        var input: [UInt8]?
        var result: ShellCommand?
        for (index, command) in commands.enumerated() {
            var words: [[UInt8]] = []
            var stdin: [UInt8]?
            for token in command {
                switch token.kind {
                case .word(let bytes): words.append(bytes)
                case .fromFile(let path):
                    guard let bytes = readFile(path) else { throw Failure(description: "< \(path): the file cannot be read") }
                    stdin = bytes
                case .hereDocument(let bytes): stdin = bytes
                case .pipe: break
                }
            }
            guard let name = words.first else { throw Failure(description: "an empty command in the pipeline") }
            let program = String(decoding: name, as: UTF8.self)
            let fed = stdin ?? input
            if index == commands.count - 1 {
                result = ShellCommand(words: words, standardInput: fed, variables: reader.variables, defaults: reader.defaults, unquoted: reader.unquoted)
            } else {
                input = try output(of: program, words.dropFirst().map { $0 }, input: fed, readFile: readFile)
            }
        }
        guard let result else { throw Failure(description: "no command") }
        return result
    }

    /// What a program that feeds the pipeline writes: `echo`, `printf` and `cat` only.
    static func output(of program: String, _ arguments: [[UInt8]], input: [UInt8]?, readFile: (String) -> [UInt8]?) throws -> [UInt8] {
        switch program {
        case "echo":
            // bash's builtin: -n leaves out the newline; no escapes without -e.
            var arguments = arguments, newline = true, escapes = false
            while let first = arguments.first, first.count > 1, first[0] == 0x2D, first.dropFirst().allSatisfy({ $0 == 0x6E || $0 == 0x65 || $0 == 0x45 }) {
                if first.contains(0x6E) { newline = false }
                if first.contains(0x65) { escapes = true }
                if first.contains(0x45) { escapes = false }
                arguments.removeFirst()
            }
            var out = Array(arguments.joined(separator: [0x20]))
            if escapes { out = backslashEscapes(out, .echo) }
            return newline ? out + [0x0A] : out
        case "printf":
            guard let format = arguments.first else { throw Failure(description: "printf needs a format") }
            return try printf(format, Array(arguments.dropFirst()))
        case "cat":
            if arguments.isEmpty { return input ?? [] }
            var out: [UInt8] = []
            for argument in arguments {
                let path = String(decoding: argument, as: UTF8.self)
                guard let bytes = readFile(path) else { throw Failure(description: "cat \(path): the file cannot be read") }
                out += bytes
            }
            return out
        default:
            throw Failure(description: "the pipeline runs '\(program)': pekit runs no program (echo, printf and cat feeding the command are read)")
        }
    }

    /// Where an escape is read, for its octal form: printf's format takes `\NNN` (one to three
    /// digits, a leading zero one of them), echo -e `\0NNN` (a zero, then up to three), printf's
    /// `%b` either (bash 5.2, as a test holds it).
    enum EscapeContext { case format, echo, percentB }

    /// `\n`, `\t`, `\\` and the rest of echo -e's and printf's escapes, and the byte escapes, as
    /// bash reads them: `\xHH` (one or two hex digits), and the octal form of `context`. What
    /// `req:curl()` writes for a body that is not text (`printf '\377…' | curl … --data-binary
    /// @-`) is read back to its bytes.
    static func backslashEscapes(_ bytes: [UInt8], _ context: EscapeContext = .format) -> [UInt8] {
        var out: [UInt8] = [], i = 0
        func isOctal(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x37 }
        while i < bytes.count {
            guard bytes[i] == 0x5C, i + 1 < bytes.count else { out.append(bytes[i]); i += 1; continue }
            let map: [UInt8: UInt8] = [0x6E: 0x0A, 0x74: 0x09, 0x72: 0x0D, 0x5C: 0x5C, 0x61: 0x07, 0x62: 0x08, 0x66: 0x0C, 0x76: 0x0B, 0x65: 0x1B]
            let next = bytes[i + 1]
            if let mapped = map[next] { out.append(mapped); i += 2; continue }
            if next == 0x78, i + 2 < bytes.count, let high = ASCII.hexValue(bytes[i + 2]) {
                // \xHH: one or two hex digits.
                if i + 3 < bytes.count, let low = ASCII.hexValue(bytes[i + 3]) { out.append(UInt8(high << 4 | low)); i += 4 } else { out.append(UInt8(high)); i += 3 }
                continue
            }
            // The digits start after the backslash, or after a zero that only introduces them.
            let start: Int
            switch context {
            case .format where isOctal(next): start = i + 1
            case .echo where next == 0x30, .percentB where next == 0x30: start = i + 2
            case .percentB where isOctal(next): start = i + 1
            default: out.append(bytes[i]); i += 1; continue
            }
            var value = 0, j = start
            while j < bytes.count, j < start + 3, isOctal(bytes[j]) { value = value * 8 + Int(bytes[j] - 0x30); j += 1 }
            out.append(UInt8(truncatingIfNeeded: value)); i = j
        }
        return out
    }

    /// printf's `%s`, `%d`, `%b` and `%%`, the format reused while arguments remain (as bash).
    static func printf(_ format: [UInt8], _ arguments: [[UInt8]]) throws -> [UInt8] {
        let escaped = backslashEscapes(format)
        var out: [UInt8] = [], next = 0
        repeat {
            var i = 0, used = false
            while i < escaped.count {
                guard escaped[i] == 0x25, i + 1 < escaped.count else { out.append(escaped[i]); i += 1; continue }
                let conversion = escaped[i + 1]
                i += 2
                if conversion == 0x25 { out.append(0x25); continue }
                let argument = next < arguments.count ? arguments[next] : []
                next += 1; used = true
                switch conversion {
                case 0x73: out += argument  // %s
                case 0x62: out += backslashEscapes(argument, .percentB)  // %b
                case 0x64, 0x69: out += Array(String(Int(String(decoding: argument, as: UTF8.self)) ?? 0).utf8)  // %d %i
                default: throw Failure(description: "printf's %\(Character(Unicode.Scalar(conversion))) is not read (%s, %b, %d and %% are)")
                }
            }
            if !used { break }
        } while next < arguments.count
        return out
    }

    /// A piece of the line: a word, a redirection of standard input, or a pipe.
    struct Token {
        enum Kind { case word([UInt8]), fromFile(String), hereDocument([UInt8]), pipe }
        let kind: Kind
    }

    /// The tokenizer: quoting, expansions and operators, in one pass.
    struct Reader {
        let s: [Unicode.Scalar]
        let environment: (String) -> String?
        var i = 0
        var variables: [String] = []
        var defaults: [String: String] = [:]
        var unquoted: Set<String> = []
        /// The variable the last expansion read.
        var lastRead: String?
        /// Here-documents whose bodies start at the next line: their token's index, delimiter,
        /// whether it was quoted (no expansion), and `<<-` (leading tabs removed).
        var pending: [(token: Int, delimiter: String, quoted: Bool, stripTabs: Bool)] = []

        init(_ s: [Unicode.Scalar], environment: @escaping (String) -> String?) { self.s = s; self.environment = environment }

        func fail(_ what: String) -> Failure { Failure(description: what) }

        mutating func tokens() throws -> [Token] {
            var tokens: [Token] = []
            while true {
                // Blanks; a line end reads the pending here-documents' bodies.
                while i < s.count, s[i] == " " || s[i] == "\t" || s[i] == "\n" || s[i] == "\r" {
                    if s[i] == "\n" && !pending.isEmpty { i += 1; try readHereDocuments(into: &tokens); continue }
                    i += 1
                }
                guard i < s.count else { break }
                let c = s[i]
                switch c {
                case "|":
                    if i + 1 < s.count, s[i + 1] == "|" { throw fail("'||' at character \(i + 1) starts a second command: paste the one command") }
                    tokens.append(Token(kind: .pipe)); i += 1
                case ";", "&":
                    if c == "&", i + 1 < s.count, s[i + 1] == ">" { throw fail("'&>' at character \(i + 1) redirects the output: pekit writes it with -o FILE") }
                    throw fail("'\(c)' at character \(i + 1) \(c == "&" ? "runs the command in the background or starts a second one" : "starts a second command"): paste the one command")
                case ">":
                    throw fail("'>' at character \(i + 1) redirects the output: pekit writes it with -o FILE")
                case "<":
                    try redirection(into: &tokens)
                case "\\" where i + 1 < s.count && s[i + 1] == "\n":
                    i += 2  // a continuation between words
                case "\\" where i + 2 < s.count && s[i + 1] == "\r" && s[i + 2] == "\n":
                    i += 3
                default:
                    // A file descriptor before a redirection (2>, 1>&2).
                    if ("0"..."9").contains(c), i + 1 < s.count, s[i + 1] == ">" || s[i + 1] == "<" {
                        if s[i + 1] == "<" { i += 1; try redirection(into: &tokens); continue }
                        throw fail("'\(c)>' at character \(i + 1) redirects an output: pekit writes its output with -o FILE and its errors to standard error")
                    }
                    for word in try word() { tokens.append(Token(kind: .word(word))) }
                }
            }
            if let open = pending.first { throw fail("the here-document ended by \(open.delimiter) has no end") }
            return tokens
        }

        /// `<`, `<<`, `<<-`, `<<<` and what follows them.
        mutating func redirection(into tokens: inout [Token]) throws {
            let at = i
            i += 1
            var kind = "<"
            if i < s.count, s[i] == "<" {
                i += 1; kind = "<<"
                if i < s.count, s[i] == "<" { i += 1; kind = "<<<" } else if i < s.count, s[i] == "-" { i += 1; kind = "<<-" }
            }
            while i < s.count, s[i] == " " || s[i] == "\t" { i += 1 }
            switch kind {
            case "<":
                guard let target = try word().first else { throw fail("'<' at character \(at + 1) names no file") }
                tokens.append(Token(kind: .fromFile(String(decoding: target, as: UTF8.self))))
            case "<<<":
                // One word, expanded, not split, and a newline after it.
                let start = i
                let words = try word(splitting: false)
                guard i > start else { throw fail("'<<<' at character \(at + 1) gives no word") }
                tokens.append(Token(kind: .hereDocument((words.first ?? []) + [0x0A])))
            default:
                let start = i
                while i < s.count, !(s[i] == " " || s[i] == "\t" || s[i] == "\n" || s[i] == "\r" || s[i] == "|" || s[i] == ";" || s[i] == "&" || s[i] == "<" || s[i] == ">") { i += 1 }
                let raw = String(String.UnicodeScalarView(s[start..<i]))
                guard !raw.isEmpty else { throw fail("'\(kind)' at character \(at + 1) has no delimiter") }
                let quoted = raw.contains("'") || raw.contains("\"") || raw.contains("\\")
                let delimiter = raw.filter { $0 != "'" && $0 != "\"" && $0 != "\\" }
                pending.append((tokens.count, delimiter, quoted, kind == "<<-"))
                tokens.append(Token(kind: .hereDocument([])))
            }
        }

        /// The bodies of the pending here-documents, from the line after their operators.
        mutating func readHereDocuments(into tokens: inout [Token]) throws {
            for document in pending {
                var body: [UInt8] = []
                var found = false
                while i < s.count {
                    var end = i
                    while end < s.count, s[end] != "\n" { end += 1 }
                    var line = String(String.UnicodeScalarView(s[i..<end]))
                    if line.hasSuffix("\r") { line.removeLast() }
                    i = min(end + 1, s.count)
                    if document.stripTabs { while line.hasPrefix("\t") { line.removeFirst() } }
                    if line == document.delimiter { found = true; break }
                    let text = document.quoted ? line : try expandedText(line)
                    body += Array(text.utf8) + [0x0A]
                }
                guard found else { throw fail("the here-document ended by \(document.delimiter) has no end") }
                tokens[document.token] = Token(kind: .hereDocument(body))
            }
            pending.removeAll()
        }

        /// A here-document's line with `$NAME` and `${NAME}` expanded (and `\$`, `\\` unescaped).
        mutating func expandedText(_ line: String) throws -> String {
            var sub = Reader(Array(line.unicodeScalars), environment: environment)
            var out: [UInt8] = []
            while sub.i < sub.s.count {
                let c = sub.s[sub.i]
                if c == "\\", sub.i + 1 < sub.s.count, "$`\\".unicodeScalars.contains(sub.s[sub.i + 1]) {
                    out += Array(String(sub.s[sub.i + 1]).utf8); sub.i += 2; continue
                }
                if c == "$" || c == "`" { out += try sub.expansion(); continue }
                out += Array(String(c).utf8); sub.i += 1
            }
            for name in sub.variables where !variables.contains(name) { variables.append(name) }
            defaults.merge(sub.defaults) { $1 }
            return String(decoding: out, as: UTF8.self)
        }

        /// `$NAME`, `${NAME}`, `${NAME:-word}`, `$'…'` (handled by the caller) at `i`: the value.
        /// Command and arithmetic substitutions are refused.
        mutating func expansion() throws -> [UInt8] {
            let at = i
            if s[i] == "`" { throw fail("the command substitution `…` at character \(at + 1): pekit runs no command; put its output in the command") }
            i += 1
            guard i < s.count else { return [0x24] }
            if s[i] == "(" {
                let what = i + 1 < s.count && s[i + 1] == "(" ? "arithmetic expansion $((…))" : "command substitution $(…)"
                throw fail("the \(what) at character \(at + 1): pekit runs no command; put its output in the command")
            }
            func isNameStart(_ c: Unicode.Scalar) -> Bool { c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
            func isName(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) }
            if s[i] == "{" {
                guard let close = s[i...].firstIndex(of: "}") else { throw fail("a ${ at character \(at + 1) is not closed") }
                let inside = String(String.UnicodeScalarView(s[(i + 1)..<close]))
                i = close + 1
                var name = inside, fallback: String?
                let scalars = Array(inside.unicodeScalars)
                if let at = scalars.indices.first(where: { scalars[$0] == ":" && $0 + 1 < scalars.count && scalars[$0 + 1] == "-" }) {
                    name = String(String.UnicodeScalarView(scalars[..<at]))
                    fallback = String(String.UnicodeScalarView(scalars[(at + 2)...]))
                }
                guard let first = name.unicodeScalars.first, isNameStart(first), name.unicodeScalars.allSatisfy(isName) else {
                    throw fail("${\(inside)} at character \(at + 1) is not read (${NAME} and ${NAME:-default} are)")
                }
                return Array(value(of: name, fallback: fallback).utf8)
            }
            guard isNameStart(s[i]) else { return [0x24] }  // a lone '$' is itself
            let start = i
            while i < s.count, isName(s[i]) { i += 1 }
            return Array(value(of: String(String.UnicodeScalarView(s[start..<i])), fallback: nil).utf8)
        }

        mutating func value(of name: String, fallback: String?) -> String {
            if !variables.contains(name) { variables.append(name) }
            if let fallback { defaults[name] = fallback }
            lastRead = name
            let value = environment(name) ?? ""
            if let fallback, value.isEmpty { return fallback }
            return value
        }

        /// One word at `i` (or several, when an unquoted expansion splits), as bash reads it.
        mutating func word(splitting: Bool = true) throws -> [[UInt8]] {
            var words: [[UInt8]] = []
            var current: [UInt8] = []
            var hasText = false  // a quote makes a word even when empty
            while i < s.count {
                let c = s[i]
                if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "|" || c == ";" || c == "&" || c == "<" || c == ">" { break }
                switch c {
                case "\\":
                    if i + 1 < s.count, s[i + 1] == "\n" { i += 2; continue }
                    if i + 2 < s.count, s[i + 1] == "\r", s[i + 2] == "\n" { i += 3; continue }
                    if i + 1 < s.count { current += Array(String(s[i + 1]).utf8); i += 2 } else { i += 1 }
                    hasText = true
                case "'":
                    guard let end = s[(i + 1)...].firstIndex(of: "'") else { throw fail("a ' opened at character \(i + 1) is not closed") }
                    current += Array(String(String.UnicodeScalarView(s[(i + 1)..<end])).utf8)
                    i = end + 1; hasText = true
                case "$" where i + 1 < s.count && s[i + 1] == "'":
                    // $'…': ShellWords reads its C escapes (bytes kept).
                    let start = i
                    var j = i + 2
                    while j < s.count, s[j] != "'" { j += s[j] == "\\" ? 2 : 1 }
                    guard j < s.count else { throw fail("a $' opened at character \(start + 1) is not closed") }
                    let piece = try ShellWords.splitBytes(String(String.UnicodeScalarView(s[start...j])), dialect: .posix)
                    current += piece.first ?? []
                    i = j + 1; hasText = true
                case "\"":
                    let open = i
                    i += 1
                    var closed = false
                    while i < s.count {
                        let d = s[i]
                        if d == "\"" { closed = true; i += 1; break }
                        if d == "\\", i + 1 < s.count, "$`\"\\\n".unicodeScalars.contains(s[i + 1]) {
                            if s[i + 1] != "\n" { current += Array(String(s[i + 1]).utf8) }
                            i += 2; continue
                        }
                        if d == "$" || d == "`" { current += try expansion(); continue }
                        current += Array(String(d).utf8); i += 1
                    }
                    guard closed else { throw fail("a \" opened at character \(open + 1) is not closed") }
                    hasText = true
                case "$", "`":
                    lastRead = nil
                    let value = try expansion()
                    if splitting, let name = lastRead { unquoted.insert(name) }
                    if !splitting || value == [0x24] {
                        current += value; hasText = hasText || !value.isEmpty
                    } else {
                        // Unquoted: split at blanks (IFS), the first piece joining the word so far.
                        let pieces = value.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A }).map(Array.init)
                        let startsBlank = value.first.map { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A } ?? false
                        let endsBlank = value.last.map { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A } ?? false
                        for (n, piece) in pieces.enumerated() {
                            if n > 0 || startsBlank {
                                if hasText || !current.isEmpty { words.append(current) }
                                current = []; hasText = false
                            }
                            current += piece; hasText = true
                        }
                        if endsBlank, hasText || !current.isEmpty { words.append(current); current = []; hasText = false }
                    }
                default:
                    current += Array(String(c).utf8); i += 1; hasText = true
                }
            }
            if hasText || !current.isEmpty { words.append(current) }
            return words
        }
    }
}
