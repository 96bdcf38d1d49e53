import PekitCore

/// The characters of a Hurl file and a place in them: what Hurl's grammar calls `sp`, `lt`,
/// comments, and where a line and a column are, for errors that name them.
struct HurlScanner {
    let text: [Unicode.Scalar]
    let path: String
    /// Where each line starts (its first character's index), found once: every item asks its line.
    let lineStarts: [Int]
    var index = 0
    /// The comment lines met since the last line with something else on it, in order (the
    /// text after `#`): those above a request line are the request's.
    var comments: [String] = []

    init(_ source: String, path: String) {
        text = Array(source.unicodeScalars)
        self.path = path
        var starts = [0]
        for (k, c) in text.enumerated() where c == "\n" { starts.append(k + 1) }
        lineStarts = starts
        // A byte order mark is not part of the file's text.
        if text.first == "\u{FEFF}" { index = 1 }
    }

    var atEnd: Bool { index >= text.count }
    func peek(_ offset: Int = 0) -> Unicode.Scalar? { index + offset < text.count ? text[index + offset] : nil }

    /// Whether the text at the place starts with `word`.
    func looking(at word: String) -> Bool {
        var j = index
        for c in word.unicodeScalars {
            guard j < text.count, text[j] == c else { return false }
            j += 1
        }
        return true
    }

    /// The line and column (1-based, in characters) of `at`, or of the place.
    /// - Complexity: O(log lines).
    func position(_ at: Int? = nil) -> (line: Int, column: Int) {
        let target = min(at ?? index, text.count)
        // The last line that starts at or before the target.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= target { low = middle } else { high = middle - 1 }
        }
        return (low + 1, target - lineStarts[low] + 1)
    }

    var line: Int { position().line }

    func error(_ message: String, at: Int? = nil) -> HurlFile.ParseError {
        let p = position(at)
        return HurlFile.ParseError(path: path, line: p.line, column: p.column, message: message)
    }

    mutating func skipSpaces() { while let c = peek(), c == " " || c == "\t" { index += 1 } }

    /// `sp* comment? [\n]`: the end of a line, required (else an error naming what was found).
    mutating func endOfLine(after what: String) throws {
        skipSpaces()
        if peek() == "#" { while let c = peek(), c != "\n" { index += 1 } }
        if peek() == "\r" && peek(1) == "\n" { index += 1 }
        if atEnd { return }
        guard peek() == "\n" else {
            throw error("expected the end of the line after \(what), found \(describe(peek()))")
        }
        index += 1
    }

    /// `lt*`: empty lines and comment lines (kept in `comments`), up to the next line with
    /// something on it, the place left at that line's first non-blank character.
    mutating func skipLines() {
        while !atEnd {
            let start = index
            skipSpaces()
            if peek() == "#" {
                index += 1
                var comment = ""
                while let c = peek(), c != "\n" { comment.unicodeScalars.append(c); index += 1 }
                comments.append(String(comment.trimmingOWS))
            }
            if peek() == "\r" && peek(1) == "\n" { index += 1 }
            if peek() == "\n" { index += 1; continue }
            if atEnd { return }
            // Something on this line: stop at its first non-blank character.
            index = start
            skipSpaces()
            return
        }
    }

    /// A word of letters (a method, a query's or a predicate's name), not consumed.
    func word() -> String {
        var j = index, out = ""
        while j < text.count, text[j].properties.isAlphabetic || text[j] == "_" || ("0"..."9").contains(text[j]) {
            out.unicodeScalars.append(text[j]); j += 1
        }
        return out
    }

    /// What was found, for an error.
    func describe(_ c: Unicode.Scalar?) -> String {
        guard let c else { return "the end of the file" }
        switch c {
        case "\n": return "the end of the line"
        case " ", "\t": return "a space"
        default: return "'\(Character(c))'"
        }
    }
}
