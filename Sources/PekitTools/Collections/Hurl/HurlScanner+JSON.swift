/// A JSON body as Hurl reads it (docs/grammar.md, "JSON"): RFC 8259's values, with `{{…}}`
/// placeholders where a value or a string's text may stand, checked as it is read, each error at
/// the place and in the words of Hurl's parser; the text is kept as written.
extension HurlScanner {
    static let expectingValue = "expecting a boolean, number, string, array, object or null"

    /// A JSON value, the place at its first character: its text as written, a placeholder in a
    /// string written JSON-escaped, one in a value's place as its text.
    mutating func json() throws -> HurlFile.Template {
        var parts: HurlFile.Template = []
        try jsonValue(into: &parts)
        return Self.merged(parts)
    }

    /// Blank characters (line ends included), kept.
    private mutating func jsonBlanks(into parts: inout HurlFile.Template) {
        var blank = ""
        while let c = peek(), c == " " || c == "\t" || c == "\n" || c == "\r" { blank.unicodeScalars.append(c); index += 1 }
        if !blank.isEmpty { parts.append(.text(blank)) }
    }

    /// Where a value was expected and the file ended: just past the last character written.
    func endOfContent() -> Int {
        var j = index
        while j > 0, " \t\r\n".unicodeScalars.contains(text[j - 1]) { j -= 1 }
        return j
    }

    private mutating func take(_ count: Int, into parts: inout HurlFile.Template) {
        parts.append(.text(String(String.UnicodeScalarView(text[index..<index + count]))))
        index += count
    }

    private mutating func jsonValue(into parts: inout HurlFile.Template) throws {
        guard let c = peek() else { throw error("expecting an element; found empty element instead", at: endOfContent()) }
        if c == "{" && peek(1) == "{" {
            parts.append(.expression(try placeholder(), jsonString: false))
            return
        }
        switch c {
        case "{": try jsonContainer(open: "{", close: "}", into: &parts)
        case "[": try jsonContainer(open: "[", close: "]", into: &parts)
        case "\"": try jsonString(into: &parts)
        case "-", "0"..."9": try jsonNumber(into: &parts)
        default:
            for word in ["true", "false", "null"] where looking(at: word) {
                take(word.unicodeScalars.count, into: &parts)
                return
            }
            throw error(Self.expectingValue)
        }
    }

    /// An object or an array: members (`"name": value`) or values, separated by commas.
    private mutating func jsonContainer(open: Unicode.Scalar, close: Unicode.Scalar, into parts: inout HurlFile.Template) throws {
        take(1, into: &parts)
        jsonBlanks(into: &parts)
        if peek() == close { take(1, into: &parts); return }
        while true {
            if open == "{" {
                guard peek() == "\"" else {
                    if atEnd { throw error("expecting an element; found empty element instead", at: endOfContent()) }
                    throw error("expecting '\"'")
                }
                try jsonString(into: &parts)
                jsonBlanks(into: &parts)
                guard peek() == ":" else { throw error(atEnd ? "expecting ':'" : "expecting ':'", at: atEnd ? endOfContent() : nil) }
                take(1, into: &parts)
                jsonBlanks(into: &parts)
            }
            try jsonValue(into: &parts)
            jsonBlanks(into: &parts)
            if peek() == close { take(1, into: &parts); return }
            guard peek() == "," else {
                if atEnd { throw error("expecting an element; found empty element instead", at: endOfContent()) }
                throw error("expecting ',' or '\(Character(close))'")
            }
            let comma = index
            take(1, into: &parts)
            jsonBlanks(into: &parts)
            if peek() == close { throw error("trailing comma is not allowed", at: comma) }
        }
    }

    /// A string: its escapes checked (`\uXXXX` four hex digits, a high surrogate followed by a
    /// low one), placeholders in it written JSON-escaped.
    private mutating func jsonString(into parts: inout HurlFile.Template) throws {
        var out = "\""
        index += 1
        func flush() { parts.append(.text(out)); out = "" }
        while true {
            guard let c = peek(), c != "\n" else { throw error("expecting '\"'") }
            if c == "\"" { out += "\""; index += 1; break }
            if c == "{" && peek(1) == "{" {
                flush()
                parts.append(.expression(try placeholder(), jsonString: true))
                continue
            }
            if c == "\\" {
                let next = peek(1)
                guard let next, "\"\\/bfnrtu".unicodeScalars.contains(next) else { throw error("the escaping sequence is not valid", at: index + 1) }
                if next == "u" {
                    let value = try hex4(at: index + 2)
                    if (0xD800...0xDBFF).contains(value) {
                        // A high surrogate: a low one must follow.
                        guard peek(6) == "\\", peek(7) == "u", (0xDC00...0xDFFF).contains(try hex4(at: index + 8)) else {
                            throw error("Invalid unicode literal", at: index + 8)
                        }
                        out.unicodeScalars.append(contentsOf: scalars(from: index, count: 12))
                        index += 12
                        continue
                    }
                    if (0xDC00...0xDFFF).contains(value) { throw error("Invalid unicode literal", at: index + 2) }
                    out.unicodeScalars.append(contentsOf: scalars(from: index, count: 6))
                    index += 6
                    continue
                }
                out.unicodeScalars.append(c)
                out.unicodeScalars.append(next)
                index += 2
                continue
            }
            out.unicodeScalars.append(c)
            index += 1
        }
        flush()
    }

    private func scalars(from start: Int, count: Int) -> ArraySlice<Unicode.Scalar> { text[start..<min(start + count, text.count)] }

    /// Four hex digits at `start`, their value; an error at the first that is not one.
    private func hex4(at start: Int) throws -> Int {
        var value = 0
        for k in 0..<4 {
            guard start + k < text.count, let digit = Int(String(Character(text[start + k])), radix: 16) else {
                throw error("expecting a valid hexadecimal number", at: start + k)
            }
            value = value * 16 + digit
        }
        return value
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func jsonNumber(into parts: inout HurlFile.Template) throws {
        let start = index
        func digits() -> Int {
            let from = index
            while let c = peek(), ("0"..."9").contains(c) { index += 1 }
            return index - from
        }
        if peek() == "-" { index += 1 }
        guard digits() > 0 else { throw error(Self.expectingValue, at: start) }
        if peek() == "." {
            index += 1
            guard digits() > 0 else { throw error("expecting a digit") }
        }
        if peek() == "e" || peek() == "E" {
            index += 1
            if peek() == "+" || peek() == "-" { index += 1 }
            guard digits() > 0 else { throw error("expecting a digit") }
        }
        parts.append(.text(String(String.UnicodeScalarView(text[start..<index]))))
    }
}
