/// Reads a Hurl file by Hurl's grammar (docs/grammar.md at the commit the fixtures name): each
/// error names the line and column and what was expected there, as Hurl's own parser does.
extension HurlFile {
    /// The [Options] Hurl takes (docs/request.md, "Options").
    static let optionNames: Set<String> = [
        "aws-sigv4", "cacert", "cert", "key", "compressed", "connect-to", "connect-timeout", "delay", "location",
        "location-trusted", "header", "http1.0", "http1.1", "http2", "http3", "insecure", "ipv4", "ipv6", "limit-rate",
        "max-redirs", "max-time", "netrc", "netrc-file", "netrc-optional", "output", "path-as-is", "pinnedpubkey", "proxy",
        "repeat", "resolve", "retry", "retry-interval", "skip", "unix-socket", "user", "variable", "verbose", "very-verbose",
    ]

    static let predicates: Set<String> = [
        "startsWith", "endsWith", "contains", "includes", "matches", "exists", "isEmpty", "isInteger", "isFloat",
        "isBoolean", "isString", "isCollection", "isDate", "isIsoDate", "isIpv4", "isIpv6", "isUuid", "isNumber", "isList",
        "isObject",
    ]

    /// Parses `source` (the file at `path`, which names it in errors).
    /// - Throws: `ParseError` at the first place that does not read as Hurl.
    public static func parse(_ source: String, path: String) throws -> HurlFile {
        var scanner = HurlScanner(source, path: path)
        var file = HurlFile()
        scanner.skipLines()
        while !scanner.atEnd {
            let comments = scanner.comments
            scanner.comments = []
            var request = try scanner.request()
            request.comments = comments
            var response: Response?
            if scanner.atResponseLine { response = try scanner.response() }
            file.entries.append(Entry(request: request, response: response))
            scanner.skipLines()
        }
        return file
    }
}

extension HurlScanner {
    var atResponseLine: Bool { looking(at: "HTTP") && (peek(4) == "/" || peek(4) == " " || peek(4) == "\t") }

    /// A method (capitals) and a space: the start of the next entry.
    var atRequestLine: Bool {
        var j = index
        while j < text.count, ("A"..."Z").contains(text[j]) { j += 1 }
        return j > index && j < text.count && (text[j] == " " || text[j] == "\t") && !atResponseLine
    }

    /// `[Name]` on its own, the name, or nil.
    var sectionName: String? {
        guard peek() == "[" else { return nil }
        var j = index + 1, name = ""
        while j < text.count, text[j].properties.isAlphabetic { name.unicodeScalars.append(text[j]); j += 1 }
        guard j < text.count, text[j] == "]", !name.isEmpty else { return nil }
        return name
    }

    /// Whether a body starts here (JSON, XML, a string, bytes, a file).
    var atBody: Bool {
        guard let c = peek() else { return false }
        if sectionName != nil { return false }
        // `{{key}}: value` is a header (or a parameter) whose name is a placeholder.
        if looking(at: "{{") {
            var j = index
            while j < text.count, text[j] != "\n", text[j] != ":" { j += 1 }
            if j < text.count, text[j] == ":" { return false }
        }
        if "{[<`\"".unicodeScalars.contains(c) || c == "-" || ("0"..."9").contains(c) { return true }
        if looking(at: "base64,") || looking(at: "hex,") || looking(at: "file,") { return true }
        for word in ["true", "false", "null"] where looking(at: word) {
            let after = peek(word.unicodeScalars.count)
            return after == nil || after == "\n" || after == " " || after == "\r" || after == "#"
        }
        return false
    }

    mutating func request() throws -> HurlFile.Request {
        let line = self.line
        var j = index
        while j < text.count, ("A"..."Z").contains(text[j]) { j += 1 }
        if j == index || (j < text.count && !" \t\n\r".unicodeScalars.contains(text[j])) {
            if atResponseLine { throw error("expected a request before the response line") }
            let written = word()
            let found = written.isEmpty ? describe(peek()) : "<\(written)>"
            let known = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]
            if known.contains(written.uppercased()) { throw error("the HTTP method \(found) is not valid. Did you mean \(written.uppercased())?") }
            throw error("the HTTP method \(found) is not valid. Valid values are \(known.joined(separator: ", ")) (or another method in capitals)")
        }
        guard j < text.count, text[j] == " " || text[j] == "\t" else { throw error("expecting a space and the URL after the method", at: j) }
        let method = String(String.UnicodeScalarView(text[index..<j]))
        index = j
        skipSpaces()
        let url = try valueString(what: "the URL")
        if url.isEmpty { throw error("expected the URL after \(method)") }
        try endOfLine(after: "the URL")
        var request = HurlFile.Request(line: line, method: method, url: url)
        try headersSectionsBody(isRequest: true) { section, scanner in
            switch section {
            case "header": request.headers.append(try scanner.keyValue(what: "a header"))
            case "QueryStringParams", "Query": request.query.append(try scanner.keyValue(what: "a query parameter"))
            case "FormParams", "Form": request.form.append(try scanner.keyValue(what: "a form parameter"))
            case "MultipartFormData", "Multipart": request.multipart.append(try scanner.multipartParam())
            case "Cookies": request.cookies.append(try scanner.keyValue(what: "a cookie"))
            case "BasicAuth": request.basicAuth.append(try scanner.keyValue(what: "a user"))
            case "Options": request.options.append(try scanner.option())
            default: request.body = try scanner.body()
            }
        }
        return request
    }

    mutating func response() throws -> HurlFile.Response {
        let line = self.line
        var version = "HTTP"
        index += 4
        if peek() == "/" {
            var written = ""
            index += 1
            while let c = peek(), c != " " && c != "\t" && c != "\n" { written.unicodeScalars.append(c); index += 1 }
            guard ["1.0", "1.1", "2", "3"].contains(written) else {
                throw error("HTTP version must be HTTP, HTTP/1.0, HTTP/1.1, HTTP/2 or HTTP/3, not HTTP/\(written)", at: index - written.unicodeScalars.count - 5)
            }
            version += "/" + written
        }
        guard peek() == " " || peek() == "\t" else { throw error("expected a space and the status after \(version)") }
        skipSpaces()
        var status: Int?
        if peek() == "*" { index += 1 } else {
            let start = index
            while let c = peek(), ("0"..."9").contains(c) { index += 1 }
            guard index > start, let code = Int(String(String.UnicodeScalarView(text[start..<index]))) else {
                throw error("HTTP status code is not valid: expected digits, or * for any, after \(version)", at: start)
            }
            status = code
        }
        try endOfLine(after: "the status")
        var response = HurlFile.Response(line: line, version: version, status: status)
        try headersSectionsBody(isRequest: false) { section, scanner in
            switch section {
            case "header": response.headers.append(try scanner.keyValue(what: "a header"))
            case "Captures": response.captures.append(try scanner.capture())
            case "Asserts": response.asserts.append(try scanner.assertion())
            default:
                response.bodyLine = scanner.line
                response.body = try scanner.body()
            }
        }
        return response
    }

    /// Headers, then sections, then a body, each line given to `item` with its section's name
    /// ("header" before any, "body" for the body); stops at the next response or request line.
    mutating func headersSectionsBody(isRequest: Bool, _ item: (String, inout HurlScanner) throws -> Void) throws {
        let allowed: Set<String> = isRequest
            ? ["QueryStringParams", "Query", "FormParams", "Form", "MultipartFormData", "Multipart", "Cookies", "BasicAuth", "Options"]
            : ["Captures", "Asserts"]
        var section = "header", seen: Set<String> = []
        let aliases = ["Query": "QueryStringParams", "Form": "FormParams", "Multipart": "MultipartFormData"]
        while true {
            skipLines()
            if atEnd || atRequestLine || (isRequest && atResponseLine) { return }
            // A line that is not `name: value` where a header could be ends the request or the
            // response (Hurl's parser then reads it as the next entry's request line).
            if section == "header" && sectionName == nil && !atBody && !atKeyValue { return }
            comments = []
            if let name = sectionName {
                guard allowed.contains(name) else {
                    throw error("the section is not valid. Valid values are \(allowed.sorted().joined(separator: ", "))", at: index + 1)
                }
                guard seen.insert(aliases[name] ?? name).inserted else { throw error("the section is already defined") }
                index += name.unicodeScalars.count + 2
                try endOfLine(after: "[\(name)]")
                section = name
                continue
            }
            if atBody {
                try item("body", &self)
                try endOfLine(after: "the body")
                comments = []
                skipLines()
                if !(atEnd || atRequestLine || (isRequest && atResponseLine)) {
                    throw error(isRequest ? "expected the response (HTTP …) or the next request after the body, found \(describe(peek()))"
                                          : "expected the next request after the body, found \(describe(peek()))")
                }
                return
            }
            try item(section, &self)
        }
    }

    /// `key: value`.
    mutating func keyValue(what: String) throws -> HurlFile.KeyValue {
        let line = self.line
        let key = try keyString()
        skipSpaces()
        guard peek() == ":" else { throw error("expected : after the name of \(what), found \(describe(peek()))") }
        index += 1
        skipSpaces()
        let value = try valueString(what: what)
        try endOfLine(after: what)
        return HurlFile.KeyValue(key: key, value: value, line: line)
    }

    mutating func multipartParam() throws -> HurlFile.MultipartParam {
        let line = self.line, start = index
        let key = try keyString()
        skipSpaces()
        guard peek() == ":" else { throw error("expected : after the name of a multipart field, found \(describe(peek()))") }
        index += 1
        skipSpaces()
        guard looking(at: "file,") else {
            index = start
            return .field(try keyValue(what: "a multipart field"))
        }
        let path = try fileReference()
        skipSpaces()
        let typeStart = index
        let type: HurlFile.Template
        do { type = try valueString(what: "a content type") } catch { throw self.error("expecting a content type", at: typeStart) }
        try endOfLine(after: "a multipart file")
        return .file(key: key, path: path, contentType: type.isEmpty ? nil : type, line: line)
    }

    mutating func option() throws -> HurlFile.Option {
        let line = self.line, start = index
        var name = ""
        while let c = peek(), c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "." { name.unicodeScalars.append(c); index += 1 }
        guard HurlFile.optionNames.contains(name) else {
            // A name that starts one option, or that one starts: what was meant.
            let near = HurlFile.optionNames.sorted().filter { !name.isEmpty && ($0.hasPrefix(name) || name.hasPrefix($0)) }
            if near.count == 1 { throw error("the option name is not valid. Did you mean \(near[0])?", at: start) }
            throw error("the option name is not valid. Valid values are \(HurlFile.optionNames.sorted().joined(separator: ", "))", at: start)
        }
        skipSpaces()
        guard peek() == ":" else { throw error("expected : after the option \(name), found \(describe(peek()))") }
        index += 1
        skipSpaces()
        if name == "variable" {
            let nameStart = index
            var variable = ""
            while let c = peek(), c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" { variable.unicodeScalars.append(c); index += 1 }
            guard !variable.isEmpty, peek() == "=" else { throw error("expected name=value after variable:", at: nameStart) }
            if ["newUuid", "newDate", "getEnv"].contains(variable) {
                throw error("conflicts with the \(variable) function, use a different name", at: nameStart)
            }
            index += 1
            let value: HurlFile.Value = peek() == "\"" ? .string(try quotedString(what: "a variable's value")) : HurlFile.typed(try valueString(what: "a variable's value"))
            try endOfLine(after: "the variable")
            return HurlFile.Option(name: name, value: value, variableName: variable, line: line)
        }
        let valueStart = index
        let value = try valueString(what: "the option \(name)")
        try checkOption(name, value, at: valueStart)
        try endOfLine(after: "the option \(name)")
        return HurlFile.Option(name: name, value: .string(value), variableName: nil, line: line)
    }

    /// `name: query filter… [redact]`.
    mutating func capture() throws -> HurlFile.Capture {
        let line = self.line
        let name = try keyString()
        skipSpaces()
        guard peek() == ":" else { throw error("expected : after the capture's name, found \(describe(peek()))") }
        index += 1
        skipSpaces()
        let query = try query()
        var filters: [HurlFile.Filter] = [], redact = false
        while true {
            skipSpaces()
            if atEnd || peek() == "\n" || peek() == "#" || peek() == "\r" { break }
            if word() == "redact" { index += 6; redact = true; continue }
            filters.append(try filter())
        }
        try endOfLine(after: "the capture")
        return HurlFile.Capture(name: name, query: query, filters: filters, redact: redact, line: line)
    }

    /// `query filter… [not] predicate [value]`.
    mutating func assertion() throws -> HurlFile.Assertion {
        let line = self.line
        let query = try query()
        var filters: [HurlFile.Filter] = []
        while true {
            guard peek() == " " || peek() == "\t" else { throw error("expected a space and a predicate (==, exists, contains, …) after the query") }
            skipSpaces()
            let w = word()
            if w == "not" || HurlFile.predicates.contains(w) || "=!<>".unicodeScalars.contains(peek() ?? " ") { break }
            guard HurlScanner.filters[w] != nil else {
                throw error("expecting a predicate (==, !=, >, >=, <, <=, \(HurlFile.predicates.sorted().joined(separator: ", "))) or a filter, found \(w.isEmpty ? describe(peek()) : w)")
            }
            filters.append(try filter())
        }
        var not = false
        if word() == "not" {
            index += 3
            guard peek() == " " || peek() == "\t" else { throw error("expected a space and a predicate after not") }
            skipSpaces()
            not = true
        }
        var predicate = word()
        if predicate.isEmpty {
            for op in ["==", "!=", ">=", "<=", ">", "<"] where looking(at: op) { predicate = op; break }
        }
        guard !predicate.isEmpty, HurlFile.predicates.contains(predicate) || predicate.first.map({ "=!<>".contains($0) }) == true else {
            throw error("expecting a predicate (==, !=, >, >=, <, <=, \(HurlFile.predicates.sorted().joined(separator: ", "))), found \(describe(peek()))")
        }
        index += predicate.unicodeScalars.count
        var value: HurlFile.Value?
        let takesValue = ["==", "!=", ">", ">=", "<", "<=", "startsWith", "endsWith", "contains", "includes", "matches"].contains(predicate)
        if takesValue {
            guard peek() == " " || peek() == "\t" else { throw error("expected a space and a value after \(predicate)") }
            skipSpaces()
            let valueStart = index
            value = try self.value(what: "a value for \(predicate)")
            if let value { try checkPredicateValue(predicate, value, at: valueStart) }
        }
        try endOfLine(after: "the assert")
        return HurlFile.Assertion(query: query, filters: filters, not: not, predicate: predicate, value: value, line: line)
    }

    /// A request's or a response's body.
    mutating func body() throws -> HurlFile.Body {
        if looking(at: "```") {
            let m = try multilineString()
            return .multiline(type: m.type, m.text, graphqlVariables: m.graphqlVariables)
        }
        switch peek() {
        case "`": return .oneline(try onelineString())
        case "<": return .xml(try xml())
        default: break
        }
        if looking(at: "hex,") || looking(at: "base64,") { return .bytes(try encodedBytes()) }
        if looking(at: "file,") { return .file(try fileReference()) }
        return .json(try json())
    }
}

extension HurlFile {
    /// A `variable: name=value` value or a `--var` value as Hurl types it: null, true, false, a
    /// number, else a string.
    static func typed(_ template: Template) -> Value {
        guard template.count == 1, case .text(let text) = template[0] else { return .string(template) }
        switch text {
        case "null": return .null
        case "true": return .bool(true)
        case "false": return .bool(false)
        default:
            // -?digits(.digits)?
            let unsigned = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            let pieces = unsigned.split(separator: ".", omittingEmptySubsequences: false)
            let isNumber = (1...2).contains(pieces.count) && pieces.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
            return isNumber ? .number(text) : .string(template)
        }
    }
}
