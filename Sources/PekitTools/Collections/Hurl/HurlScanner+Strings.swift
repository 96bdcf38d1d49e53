/// Hurl's strings, each with its own escapes and end (docs/grammar.md, "Strings"): key strings,
/// value strings, quoted strings, `backtick` strings, ``` multiline strings, file names, and
/// the `{{…}}` placeholders any of them may hold.
extension HurlScanner {
    typealias Template = HurlFile.Template

    /// Text and placeholders up to a character `ends` accepts (not consumed). `escapes` maps the
    /// character after a `\` to what it stands for, `u{…}` read too (nil: a `\` is itself).
    mutating func template(what: String, escapes: [Unicode.Scalar: Unicode.Scalar]?, placeholders: Bool = true,
                           ends: (Unicode.Scalar) -> Bool) throws -> Template {
        var parts: Template = [], text = ""
        while let c = peek(), !ends(c) {
            if c == "\\", let escapes {
                let at = index
                index += 1
                guard let next = peek() else { throw error("a \\ at the end of the file in \(what)", at: at) }
                if next == "u" {
                    text.unicodeScalars.append(try unicodeEscape(at: at, what: what))
                    continue
                }
                guard let meant = escapes[next] else { throw error("the escaping sequence is not valid (\\\(Character(next)) in \(what))", at: at + 1) }
                text.unicodeScalars.append(meant)
                index += 1
            } else if placeholders && c == "{" && peek(1) == "{" {
                if !text.isEmpty { parts.append(.text(text)); text = "" }
                parts.append(.expression(try placeholder(), jsonString: false))
            } else {
                text.unicodeScalars.append(c)
                index += 1
            }
        }
        if !text.isEmpty { parts.append(.text(text)) }
        return parts
    }

    /// `\u{hex}` (the place at the `u`).
    mutating func unicodeEscape(at: Int, what: String) throws -> Unicode.Scalar {
        index += 1
        guard peek() == "{" else { throw error("expecting '{' after \\u in \(what)") }
        index += 1
        var hex = ""
        while let c = peek(), c != "}" , hex.count < 8 { hex.unicodeScalars.append(c); index += 1 }
        guard peek() == "}", let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw error("Invalid unicode literal \\u{\(hex)}", at: at + 2)
        }
        index += 1
        return scalar
    }

    static let common: [Unicode.Scalar: Unicode.Scalar] = ["\\": "\\", "b": "\u{8}", "f": "\u{C}", "n": "\n", "r": "\r", "t": "\t"]
    static func with(_ extra: [Unicode.Scalar]) -> [Unicode.Scalar: Unicode.Scalar] {
        var out = common
        for c in extra { out[c] = c }
        return out
    }

    /// A key string: letters, digits, `_-.[]@$`, escapes and placeholders.
    mutating func keyString() throws -> Template {
        let start = index
        let key = try template(what: "a key", escapes: Self.with(["#", ":"])) { c in
            !(c.properties.isAlphabetic || ("0"..."9").contains(c) || "_-.[]@$".unicodeScalars.contains(c) || c == "{" || c == "\\"
              || c.value > 0x7F)
        }
        if key.isEmpty { throw error("expected a name (letters, digits, _-.[]@$), found \(describe(peek()))", at: start) }
        return key
    }

    /// A value string: to the end of the line or a comment, trailing blanks dropped.
    mutating func valueString(what: String) throws -> Template {
        var value = try template(what: what, escapes: Self.with(["#"])) { $0 == "#" || $0 == "\n" }
        if case .text(let last)? = value.last {
            // Trailing blanks, and the CR of a CR LF line end, are not the value's.
            let trimmed = String(String.UnicodeScalarView(last.unicodeScalars.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()))
            value.removeLast()
            if !trimmed.isEmpty { value.append(.text(trimmed)) }
        }
        return value
    }

    /// `"…"`, the place at the opening quote.
    mutating func quotedString(what: String) throws -> Template {
        let open = index
        index += 1
        let value = try template(what: what, escapes: Self.with(["\""])) { $0 == "\"" || $0 == "\n" }
        guard peek() == "\"" else { throw error("expecting '\"': the quoted string of column \(position(open).column) (\(what)) does not end on its line") }
        index += 1
        return value
    }

    /// `` `…` ``, the place at the backtick.
    mutating func onelineString() throws -> Template {
        let open = index
        index += 1
        let value = try template(what: "a `string`", escapes: Self.with(["`", "#"])) { $0 == "`" || $0 == "\n" }
        guard peek() == "`" else { throw error("expecting '`': the `string` of column \(position(open).column) does not end on its line") }
        index += 1
        return value
    }

    /// ```` ```type, attribute\n…\n``` ````, the place at the first backtick: its type and text.
    /// Escapes are read only with the `escape` attribute, placeholders unless `novariable`.
    mutating func multilineString() throws -> (type: String?, text: Template, graphqlVariables: Template?) {
        let open = index
        index += 3
        skipSpaces()
        let type = word()
        index += type.unicodeScalars.count
        var escape = false, variables = true
        while true {
            skipSpaces()
            guard peek() == "," else { break }
            index += 1
            skipSpaces()
            let attribute = word()
            switch attribute {
            case "escape": escape = true
            case "novariable": variables = false
            default: throw error("Invalid attribute \(attribute.isEmpty ? describe(peek()) : attribute) (escape or novariable)")
            }
            index += attribute.unicodeScalars.count
        }
        if !type.isEmpty && !["json", "xml", "graphql", "hex", "base64"].contains(type) {
            throw error("Invalid attribute \(type): a ``` string's type is json, xml, graphql, hex or base64", at: open + 3)
        }
        try endOfLine(after: "the ``` string's type")
        // The text ends at the ``` that begins a line (after blanks), or at ``` on the text's last line.
        var content: Template = []
        let escapes = escape ? Self.with(["`"]) : nil
        var graphqlVariables: Template?
        while true {
            guard !atEnd else { throw error("a ``` string that does not end", at: open) }
            let lineStart = index
            skipSpaces()
            if looking(at: "```") { index += 3; break }
            if type == "graphql" && looking(at: "variables") {
                let afterWord = index + 9
                var j = afterWord
                while j < text.count, text[j] == " " { j += 1 }
                if j < text.count, text[j] == "{" {
                    index = j
                    graphqlVariables = try json()
                    try endOfLine(after: "the GraphQL variables")
                    continue
                }
            }
            index = lineStart
            content += try template(what: "a ``` string", escapes: escapes, placeholders: variables) { $0 == "\n" }
            if peek() == "\n" { index += 1; content.append(.text("\n")) }
        }
        return (type.isEmpty ? nil : type, Self.merged(content), graphqlVariables)
    }

    /// Neighbouring texts as one.
    static func merged(_ parts: Template) -> Template {
        var out: Template = []
        for part in parts {
            if case .text(let b) = part, case .text(let a)? = out.last { out[out.count - 1] = .text(a + b) } else { out.append(part) }
        }
        return out
    }

    /// `{{ name filter… }}`, the place at the first brace.
    mutating func placeholder() throws -> HurlFile.Expression {
        let open = index, line = self.line
        index += 2
        skipSpaces()
        let name = word()
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic else {
            throw error("expecting a variable (a name, or a function: newUuid, newDate, getEnv) after {{", at: index)
        }
        var full = name
        index += name.unicodeScalars.count
        while let c = peek(), c == "-" || c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c) { full.unicodeScalars.append(c); index += 1 }
        var filters: [HurlFile.Filter] = []
        while true {
            skipSpaces()
            if looking(at: "}}") { index += 2; break }
            guard peek() != nil, peek() != "\n" else { throw error("a {{ that does not close on its line", at: open) }
            filters.append(try filter())
        }
        return HurlFile.Expression(name: full, filters: filters, line: line)
    }

    /// `/…/`, the place at the first slash: the pattern, `\/` read as `/`.
    mutating func regexLiteral() throws -> String {
        let open = index
        index += 1
        var out = ""
        while let c = peek(), c != "/" {
            if c == "\n" { break }
            if c == "\\", peek(1) == "/" { out += "/"; index += 2; continue }
            if c == "\\", let next = peek(1) { out.unicodeScalars.append(c); out.unicodeScalars.append(next); index += 2; continue }
            out.unicodeScalars.append(c)
            index += 1
        }
        guard peek() == "/" else { throw error("a /regex/ that does not end on its line", at: open) }
        index += 1
        return out
    }

    /// A file name (in `file,…;` and [MultipartFormData]), up to `;`.
    mutating func filename() throws -> Template {
        try template(what: "a file name", escapes: Self.with(["#", ";", " ", "{", "}"])) { c in
            c == ";" || c == "#" || c == "\n" || c == "\r" || c == " "
        }
    }
}
