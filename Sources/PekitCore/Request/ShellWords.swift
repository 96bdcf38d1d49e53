/// A command line as copied from a browser or a proxy ("Copy as cURL") split into its words, the
/// way the shell it was written for would: POSIX sh (`'…'`, `"…"` with its escapes, `$'…'` with
/// C escapes, `\` and line continuations), Windows cmd (`^` escapes and continuations, then the
/// C runtime's quoting with `\"`), and PowerShell (backtick escapes and continuations, `'…'` with
/// `''`, `"…"`). The dialect is told from the text.
public enum ShellWords {
    /// The shell whose quoting is read.
    public enum Dialect: String, Sendable {
        /// sh, bash and zsh: `'…'`, `"…"`, `\`, `$'…'`.
        case posix
        /// Windows cmd: `"…"` and `^`.
        case cmd
        /// PowerShell: `'…'`, `"…"` and the backtick.
        case powershell
    }

    /// Why a command does not split.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The dialect a copied command is written in: cmd when it has `^` continuations or `^"`,
    /// PowerShell when lines end in a backtick or it calls `curl.exe` with a backtick, else POSIX.
    public static func dialect(of text: String) -> Dialect {
        if text.contains("^\n") || text.contains("^\r\n") || text.contains("^\"") { return .cmd }
        if text.contains("`\n") || text.contains("`\r\n") { return .powershell }
        return .posix
    }

    /// The words of `text` in `dialect` (by default the one `dialect(of:)` tells), as text (a byte
    /// that is not UTF-8, written `$'\xff'`, becomes U+FFFD: `splitBytes` keeps it).
    /// - Throws: `Failure` for a quote left open, naming where it opened.
    public static func split(_ text: String, dialect: Dialect? = nil) throws -> [String] {
        try splitBytes(text, dialect: dialect).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The words as the bytes the shell hands to the program: `$'a\xffb'` is the three bytes
    /// 0x61 0xFF 0x62.
    /// - Throws: `Failure` for a quote left open, naming where it opened.
    public static func splitBytes(_ text: String, dialect: Dialect? = nil) throws -> [[UInt8]] {
        switch dialect ?? Self.dialect(of: text) {
        case .posix: return try posix(Array(text.unicodeScalars))
        case .cmd: return try cmd(Array(text.unicodeScalars))
        case .powershell: return try powershell(Array(text.unicodeScalars))
        }
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }

    /// The words so far and the one being read (a word may be empty: `''` is one).
    struct Words {
        var list: [[UInt8]] = []
        var word = Word()
        var inWord = false
        /// Ends the word being read, if there is one.
        mutating func end() {
            if inWord { list.append(word.bytes); word = Word(); inWord = false }
        }
    }

    /// A word's bytes: characters as UTF-8, and bytes written as escapes as they are.
    struct Word {
        var bytes: [UInt8] = []
        var isEmpty: Bool { bytes.isEmpty }
        mutating func append(_ c: Unicode.Scalar) { bytes += Array(String(c).utf8) }
        mutating func append<S: Sequence>(contentsOf scalars: S) where S.Element == Unicode.Scalar { for c in scalars { append(c) } }
    }

    /// How many scalars a line end takes at `i` (LF, or CR LF), or nil: what an escape character
    /// before it turns into a continuation.
    static func lineEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        if i < s.count, s[i] == "\n" { return 1 }
        if i + 1 < s.count, s[i] == "\r", s[i + 1] == "\n" { return 2 }
        return nil
    }

    static func posix(_ s: [Unicode.Scalar]) throws -> [[UInt8]] {
        var w = Words()
        var i = 0
        while i < s.count {
            let c = s[i]
            if isSpace(c) { w.end(); i += 1; continue }
            w.inWord = true
            switch c {
            case "\\":
                if let n = lineEnd(s, at: i + 1) { i += 1 + n; if w.word.isEmpty { w.inWord = false }; continue }  // a continuation
                if i + 1 < s.count { w.word.append(s[i + 1]); i += 2 } else { i += 1 }
            case "'":
                guard let end = s[(i + 1)...].firstIndex(of: "'") else { throw Failure(description: "a ' opened at character \(i + 1) is not closed") }
                w.word.append(contentsOf: s[(i + 1)..<end]); i = end + 1
            case "\"":
                var j = i + 1
                var closed = false
                while j < s.count {
                    if s[j] == "\"" { closed = true; break }
                    if s[j] == "\\", j + 1 < s.count, "$`\"\\\n".unicodeScalars.contains(s[j + 1]) {
                        if s[j + 1] != "\n" { w.word.append(s[j + 1]) }
                        j += 2; continue
                    }
                    w.word.append(s[j]); j += 1
                }
                guard closed else { throw Failure(description: "a \" opened at character \(i + 1) is not closed") }
                i = j + 1
            case "$" where i + 1 < s.count && s[i + 1] == "'":
                let start = w.word.bytes.count
                var j = i + 2
                var closed = false
                var bytes: [UInt8] = []
                func flushBytes() { w.word.bytes += bytes; bytes = [] }
                while j < s.count {
                    let d = s[j]
                    if d == "'" { closed = true; break }
                    if d == "\\", j + 1 < s.count {
                        let e = s[j + 1]
                        j += 2
                        switch e {
                        case "n": flushBytes(); w.word.append("\n")
                        case "t": flushBytes(); w.word.append("\t")
                        case "r": flushBytes(); w.word.append("\r")
                        case "a": flushBytes(); w.word.append("\u{07}")
                        case "b": flushBytes(); w.word.append("\u{08}")
                        case "e", "E": flushBytes(); w.word.append("\u{1B}")
                        case "f": flushBytes(); w.word.append("\u{0C}")
                        case "v": flushBytes(); w.word.append("\u{0B}")
                        case "x":
                            var value: UInt32 = 0, n = 0
                            while n < 2, j < s.count, let h = Character(s[j]).hexDigitValue { value = value * 16 + UInt32(h); j += 1; n += 1 }
                            bytes.append(UInt8(value))  // bytes: \xE2\x9C\x93 is one character
                        case "u", "U":
                            var value: UInt32 = 0, n = 0
                            while n < (e == "u" ? 4 : 8), j < s.count, let h = Character(s[j]).hexDigitValue { value = value * 16 + UInt32(h); j += 1; n += 1 }
                            flushBytes(); w.word.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                        case "0"..."7":
                            var value = e.value - 0x30, n = 1
                            while n < 3, j < s.count, ("0"..."7").contains(s[j]) { value = value * 8 + (s[j].value - 0x30); j += 1; n += 1 }
                            bytes.append(UInt8(truncatingIfNeeded: value))
                        default: flushBytes(); w.word.append(e)  // \\ \' \" and the rest
                        }
                        continue
                    }
                    flushBytes(); w.word.append(d); j += 1
                }
                flushBytes()
                guard closed else { throw Failure(description: "a $' opened at character \(i + 1) is not closed") }
                // As bash: a NUL ends what $'…' gives (a program's argument cannot hold one); the
                // word goes on after the closing quote.
                if let nul = w.word.bytes[start...].firstIndex(of: 0) { w.word.bytes.removeSubrange(nul...) }
                i = j + 1
            default:
                w.word.append(c); i += 1
            }
        }
        w.end()
        return w.list
    }

    static func cmd(_ s: [Unicode.Scalar]) throws -> [[UInt8]] {
        // cmd first: ^ escapes the next character (a line end: the line goes on) outside quotes.
        var line = String.UnicodeScalarView()
        var quoted = false, i = 0
        while i < s.count {
            let c = s[i]
            if c == "^" && !quoted, i + 1 < s.count {
                if let n = lineEnd(s, at: i + 1) { i += 1 + n; continue }
                line.append(s[i + 1]); i += 2; continue
            }
            if c == "\"" { quoted.toggle() }
            line.append(c == "\n" || c == "\r" ? " " : c); i += 1
        }
        // Then the C runtime's rules: whitespace splits outside quotes, backslashes escape a
        // quote (2n of them before a quote are n, and the quote toggles).
        let t = Array(line)
        var w = Words(), inQuotes = false
        i = 0
        while i < t.count {
            let c = t[i]
            if isSpace(c) && !inQuotes { w.end(); i += 1; continue }
            w.inWord = true
            if c == "\\" {
                var n = 0
                while i < t.count, t[i] == "\\" { n += 1; i += 1 }
                if i < t.count, t[i] == "\"" {
                    w.word.append(contentsOf: String(repeating: "\\", count: n / 2).unicodeScalars)
                    if n % 2 == 1 { w.word.append("\""); i += 1 }
                } else {
                    w.word.append(contentsOf: String(repeating: "\\", count: n).unicodeScalars)
                }
                continue
            }
            if c == "\"" { inQuotes.toggle(); i += 1; continue }
            w.word.append(c); i += 1
        }
        guard !inQuotes else { throw Failure(description: "a \" is not closed") }
        w.end()
        return w.list
    }

    static func powershell(_ s: [Unicode.Scalar]) throws -> [[UInt8]] {
        var w = Words()
        var i = 0
        while i < s.count {
            let c = s[i]
            if isSpace(c) { w.end(); i += 1; continue }
            switch c {
            case "`":
                if let n = lineEnd(s, at: i + 1) { i += 1 + n; continue }
                w.inWord = true
                if i + 1 < s.count { w.word.append(s[i + 1]) }
                i += 2
            case "'":
                w.inWord = true
                var j = i + 1, closed = false
                while j < s.count {
                    if s[j] == "'" { if j + 1 < s.count, s[j + 1] == "'" { w.word.append("'"); j += 2; continue }; closed = true; break }
                    w.word.append(s[j]); j += 1
                }
                guard closed else { throw Failure(description: "a ' opened at character \(i + 1) is not closed") }
                i = j + 1
            case "\"":
                w.inWord = true
                var j = i + 1, closed = false
                while j < s.count {
                    if s[j] == "\"" { closed = true; break }
                    if s[j] == "`", j + 1 < s.count {
                        let e = s[j + 1]
                        w.word.append(e == "n" ? "\n" : e == "t" ? "\t" : e == "r" ? "\r" : e == "0" ? "\u{0}" : e)
                        j += 2; continue
                    }
                    w.word.append(s[j]); j += 1
                }
                guard closed else { throw Failure(description: "a \" opened at character \(i + 1) is not closed") }
                i = j + 1
            default:
                w.inWord = true
                w.word.append(c); i += 1
            }
        }
        w.end()
        return w.list
    }
}
