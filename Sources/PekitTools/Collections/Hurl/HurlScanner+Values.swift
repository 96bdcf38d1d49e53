import PekitCore

/// Hurl's values (predicate values, variable values, filter arguments), filters, queries, and
/// the bodies that are not strings: JSON and XML as written, `hex,…;`, `base64,…;`, `file,…;`.
extension HurlScanner {
    /// The filters and the number and kind of their arguments (docs/filters.md).
    static let filters: [String: [ArgumentKind]] = [
        "base64Decode": [], "base64Encode": [], "base64UrlSafeDecode": [], "base64UrlSafeEncode": [],
        "count": [], "daysAfterNow": [], "daysBeforeNow": [], "htmlEscape": [], "htmlUnescape": [],
        "toFloat": [], "toHex": [], "toInt": [], "toString": [], "urlDecode": [], "urlEncode": [],
        "location": [], "first": [], "last": [], "utf8Decode": [], "utf8Encode": [],
        "decode": [.string], "format": [.string], "jsonpath": [.string], "regex": [.pattern], "split": [.string],
        "toDate": [.string], "urlQueryParam": [.string], "xpath": [.string], "nth": [.integer],
        "replace": [.pattern, .string], "replaceRegex": [.pattern, .string],
    ]

    enum ArgumentKind { case string, pattern, integer }

    /// The queries and whether each takes an argument.
    static let queries: [String: ArgumentKind?] = [
        "status": nil, "version": nil, "url": nil, "ip": nil, "body": nil, "duration": nil, "bytes": nil,
        "sha256": nil, "md5": nil, "redirects": nil,
        "header": .string, "certificate": .string, "cookie": .string, "xpath": .string, "jsonpath": .string,
        "regex": .pattern, "variable": .string,
    ]

    /// A filter and its arguments, the place at its name.
    mutating func filter() throws -> HurlFile.Filter {
        let name = word()
        guard let kinds = Self.filters[name] else {
            throw error("expected a filter (\(Self.filters.keys.sorted().joined(separator: ", "))), found \(name.isEmpty ? describe(peek()) : name)")
        }
        index += name.unicodeScalars.count
        var arguments: [HurlFile.Value] = []
        for kind in kinds { arguments.append(try argument(kind, of: "the filter " + name)) }
        return HurlFile.Filter(name: name, arguments: arguments)
    }

    /// A space, then an argument of `kind`.
    mutating func argument(_ kind: ArgumentKind, of what: String) throws -> HurlFile.Value {
        guard peek() == " " || peek() == "\t" else { throw error("expected a space and an argument after \(what)") }
        skipSpaces()
        switch kind {
        case .string:
            guard peek() == "\"" else { throw error("expecting '\"' (a quoted string after \(what)), found \(describe(peek()))") }
            return .string(try quotedString(what: what))
        case .pattern:
            if peek() == "/" {
                let start = index + 1
                let pattern = try regexLiteral()
                try checkRegex(pattern, at: start)
                return .regex(pattern)
            }
            guard peek() == "\"" else { throw error("expecting '\" or /' (a quoted string or a /regex/ after \(what)), found \(describe(peek()))") }
            return .string(try quotedString(what: what))
        case .integer:
            let start = index
            if peek() == "-" { index += 1 }
            while let c = peek(), ("0"..."9").contains(c) { index += 1 }
            guard index > start, let text = String(String.UnicodeScalarView(text[start..<index])) as String?, Int(text) != nil else {
                throw error("expected an integer after \(what)", at: start)
            }
            return .number(text)
        }
    }

    /// A query, the place at its name.
    mutating func query() throws -> HurlFile.Query {
        let name = word()
        guard let kind = Self.queries[name] else {
            throw error("expected a query (\(Self.queries.keys.sorted().joined(separator: ", "))), found \(name.isEmpty ? describe(peek()) : name)")
        }
        index += name.unicodeScalars.count
        guard let kind else { return HurlFile.Query(kind: name, argument: nil) }
        if name == "cookie" {
            var quote = index
            while quote < text.count, text[quote] == " " || text[quote] == "\t" { quote += 1 }
            let argument = try self.argument(kind, of: "the query cookie")
            if case .string(let spec) = argument { try checkCookieQuery(spec, at: quote) }
            return HurlFile.Query(kind: name, argument: argument)
        }
        if name == "certificate" {
            skipSpaces()
            let field = word()
            index += field.unicodeScalars.count
            return HurlFile.Query(kind: name, argument: .string([.text(field)]))
        }
        return HurlFile.Query(kind: name, argument: try argument(kind, of: "the query " + name))
    }

    /// A predicate value, a variable value or an implicit body: whatever Hurl's values are.
    mutating func value(what: String) throws -> HurlFile.Value {
        guard let c = peek() else { throw error("expected \(what), found the end of the file") }
        if looking(at: "```") {
            let m = try multilineString()
            return .multiline(type: m.type, m.text)
        }
        switch c {
        case "\"": return .string(try quotedString(what: what))
        case "`": return .string(try onelineString())
        case "/": return .regex(try regexLiteral())
        case "{" where peek(1) == "{": return .expression(try placeholder())
        default: break
        }
        if c == "-" || ("0"..."9").contains(c) { return try number() }
        for (word, value) in [("true", HurlFile.Value.bool(true)), ("false", .bool(false)), ("null", .null)] where looking(at: word) {
            index += word.unicodeScalars.count
            return value
        }
        if looking(at: "hex,") || looking(at: "base64,") { return .bytes(try encodedBytes()) }
        if looking(at: "file,") { return .file(try fileReference()) }
        throw error("invalid predicate value: expected \(what) (a \"string\", a number, true, false, null, a /regex/, {{variable}}, hex,…; base64,…; or file,…;), found \(describe(c))")
    }

    /// `-?digits(.digits)?(e±digits)?`.
    mutating func number() throws -> HurlFile.Value {
        let start = index
        if peek() == "-" { index += 1 }
        while let c = peek(), ("0"..."9").contains(c) || c == "." || c == "e" || c == "E" || ((c == "+" || c == "-") && index > start && (text[index - 1] == "e" || text[index - 1] == "E")) { index += 1 }
        let written = String(String.UnicodeScalarView(text[start..<index]))
        guard Double(written) != nil else { throw error("\(written) is not a number", at: start) }
        return .number(written)
    }

    /// `hex,…;` or `base64,…;` (blanks and line ends between the digits), the place at the word.
    mutating func encodedBytes() throws -> [UInt8] {
        let open = index
        let hex = looking(at: "hex,")
        index += hex ? 4 : 7
        var digits = ""
        while let c = peek(), c != ";" {
            if c != " " && c != "\t" && c != "\n" && c != "\r" {
                let isDigit = hex ? c.properties.isASCIIHexDigit : (c.properties.isAlphabetic && c.isASCII) || ("0"..."9").contains(c) || "+/=-_".unicodeScalars.contains(c)
                guard isDigit else { throw error(hex ? "expecting a valid hexadecimal number" : "expecting ';'") }
                digits.unicodeScalars.append(c)
            }
            index += 1
        }
        guard peek() == ";" else { throw error("expecting ';' (the end of \(hex ? "hex" : "base64"),…)") }
        index += 1
        if hex {
            guard let bytes = try? Hex.decode(Array(digits.utf8)) else { throw error("hex,…; holds a character that is not a hex digit, or an odd number of digits", at: open) }
            return bytes
        }
        guard let bytes = try? Base64.decode(Array(digits.utf8), alphabet: .standard) else { throw error("base64,…; is not base64", at: open) }
        return bytes
    }

    /// `file,path;`, the place at the word.
    mutating func fileReference() throws -> HurlFile.Template {
        let open = index
        index += 5
        skipSpaces()
        let name = try filename()
        if name.isEmpty { throw error("expecting a filename") }
        skipSpaces()
        guard peek() == ";" else { throw error("expecting ';' (the end of the file,…; started at column \(position(open).column))") }
        index += 1
        return name
    }

    /// An XML body as written: from its first `<` to the end of its root element.
    mutating func xml() throws -> String {
        let open = index
        var depth = 0, seenRoot = false
        while !atEnd {
            guard peek() == "<" else {
                if seenRoot && depth == 0 { break }
                index += 1
                continue
            }
            if looking(at: "<?") { try skip(past: "?>", open: open) } else if looking(at: "<!--") { try skip(past: "-->", open: open) } else if looking(at: "<![CDATA[") { try skip(past: "]]>", open: open) } else if looking(at: "<!") { try skip(past: ">", open: open) } else if looking(at: "</") {
                try skip(past: ">", open: open)
                depth -= 1
            } else {
                // A start tag: its end, past quoted attribute values, and whether it closes itself.
                var quote: Unicode.Scalar?
                index += 1
                while let c = peek() {
                    index += 1
                    if let q = quote { if c == q { quote = nil }; continue }
                    if c == "\"" || c == "'" { quote = c } else if c == ">" { break }
                }
                if text[index - 2] != "/" { depth += 1 }
                seenRoot = true
            }
            if seenRoot && depth == 0 { break }
        }
        if depth > 0 { throw error("invalid XML: the root element that starts at line \(position(open).line) does not end", at: endOfContent()) }
        return String(String.UnicodeScalarView(text[open..<index]))
    }

    private mutating func skip(past end: String, open: Int) throws {
        while !atEnd && !looking(at: end) { index += 1 }
        guard !atEnd else { throw error("an XML body that does not end (\(end) missing)", at: open) }
        index += end.unicodeScalars.count
    }
}
