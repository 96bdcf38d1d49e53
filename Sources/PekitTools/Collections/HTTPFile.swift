import PekitCore

/// A `.http` file as JetBrains' "HTTP Request in Editor" specification defines it
/// (github.com/JetBrains/http-request-in-editor-spec, spec.md): requests separated by `###`
/// lines, each a request line (the method optional, GET by default; the target on several
/// indented lines joined), header fields, an empty line and a body (text, `< ./file` lines,
/// multipart parts), then response handlers (`> {% … %}` or `> file.js`) and response
/// references (`<> file`); `#` and `//` line comments; `{{name}}` variables; and, as JetBrains'
/// client and VS Code's REST Client both take them, `@name = value` file variables and
/// `# @name NAME` request names.
///
/// A request may carry Lua assertions as comments that other tools pass over:
/// `# @pekit expect(response):status(200)`. Handlers are JavaScript: they are listed, never run.
public struct HTTPFile: Sendable {
    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
        public var line: Int
    }

    /// A line of a body: text, or a file whose bytes go there (`< ./input.json`).
    public enum BodyLine: Sendable, Equatable {
        case text(String)
        case file(String, line: Int)
    }

    /// A response handler: JavaScript in place or in a file, never run.
    public struct Handler: Sendable, Equatable {
        public var line: Int
        /// The script's file (`> ./check.js`), or nil for one in place.
        public var file: String?
    }

    public struct Request: Sendable {
        /// `### NAME` or `# @name NAME`, else nil.
        public var name: String?
        /// The request line's line (1-based).
        public var line: Int
        public var method: String
        /// The target as written, its continuation lines joined, variables not yet replaced.
        public var target: String
        public var version: String?
        public var headers: [Header] = []
        /// The body's lines; nil when there is none.
        public var body: [BodyLine]?
        public var handlers: [Handler] = []
        /// `<> file` references to earlier responses (for a person comparing; nothing to send).
        public var responseReferences: [Int] = []
        /// `# @pekit CODE` lines: Lua run after the send, with `response` (and `r`) the response.
        public var assertions: [(line: Int, code: String)] = []
    }

    /// `@name = value` lines, in order (a later one of a name wins).
    public var variables: [(name: String, value: String, line: Int)] = []
    public var requests: [Request] = []

    /// A file that does not read as the specification's grammar: where, and what was expected.
    public typealias ParseError = CollectionFile.ParseError

    /// The methods the specification lists (a first word that is none of them is the target's).
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "PATCH", "OPTIONS", "TRACE"]

    /// A comment's directive: `# @name NAME` names the request, `# @pekit CODE` is an assertion.
    enum Directive { case name(String), assertion(String) }

    /// Whether a line is a comment (`#` or `//`, indented or not; `###` separates requests).
    static func isComment(_ line: String) -> Bool {
        let t = line.drop { $0 == " " || $0 == "\t" }
        return t.hasPrefix("#") && !t.hasPrefix("###") || t.hasPrefix("//")
    }

    /// A comment line's directive, or nil for a plain comment.
    static func directive(_ line: String) -> Directive? {
        let t = line.drop { $0 == " " || $0 == "\t" }
        let text = t.dropFirst(t.hasPrefix("//") ? 2 : 1).trimmingOWS
        if text == "@name" || text.hasPrefix("@name ") { return .name(String(text.dropFirst(5).trimmingOWS)) }
        if text.hasPrefix("@pekit ") { return .assertion(String(text.dropFirst(7).trimmingOWS)) }
        return nil
    }

    /// Whether a trimmed line ends a request's fields or body: a handler, a reference, a separator.
    static func endsSection(_ t: Substring) -> Bool {
        t.hasPrefix("###") || t.hasPrefix("> ") || t.hasPrefix(">{%") || t == ">" || t.hasPrefix("<> ")
    }

    /// Parses a `.http` file's text.
    /// - Parameter path: named in errors.
    /// - Throws: `ParseError` with the line and column.
    public static func parse(_ text: String, path: String) throws -> HTTPFile {
        var file = HTTPFile()
        // Lines as the specification ends them: LF, CR, or CR LF.
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func fail(_ line: Int, _ column: Int, _ message: String) -> ParseError { ParseError(path: path, line: line, column: column, message: message) }
        // Directives written before a request line are the next request's.
        var pending = Request(name: nil, line: 0, method: "", target: "")
        func apply(_ directive: Directive?, at line: Int, to request: inout Request) {
            switch directive {
            case .name(let name)?: request.name = name
            case .assertion(let code)?: request.assertions.append((line, code))
            case nil: break
            }
        }
        var i = 0
        while i < lines.count {
            let line = lines[i], number = i + 1
            let trimmed = line.trimmingOWS
            if trimmed.hasPrefix("###") {
                let name = trimmed.dropFirst(3).trimmingOWS
                pending = Request(name: name.isEmpty ? nil : String(name), line: 0, method: "", target: "")
                i += 1; continue
            }
            if trimmed.isEmpty { i += 1; continue }
            if isComment(line) { apply(directive(line), at: number, to: &pending); i += 1; continue }
            if trimmed.hasPrefix("@") {
                // A file variable: @name = value (the value to the line's end, trimmed).
                guard let eq = trimmed.firstIndex(of: "=") else { throw fail(number, 1, "expected a variable, @name = value") }
                let name = trimmed[trimmed.index(after: trimmed.startIndex)..<eq].trimmingOWS
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
                    throw fail(number, 2, "expected a variable's name (letters, digits, '-', '_', '.') before '='")
                }
                file.variables.append((String(name), String(trimmed[trimmed.index(after: eq)...].trimmingOWS), number))
                i += 1; continue
            }
            // A request line: [method SP] target [SP HTTP/x.y].
            var words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            var method = "GET"
            if let first = words.first, methods.contains(first) { method = first; words.removeFirst() }
            else if let first = words.first, words.count > 1, first.allSatisfy({ $0.isUppercase }) {
                throw fail(number, 1, "\(first) is not a method the specification takes (\(methods.sorted().joined(separator: ", ")))")
            }
            var version: String?
            if let last = words.last, words.count > 1, last.hasPrefix("HTTP/") { version = last; words.removeLast() }
            guard !words.isEmpty else { throw fail(number, line.count + 1, "expected a request target after \(method)") }
            var request = pending
            (request.line, request.method, request.target, request.version) = (number, method, words.joined(separator: " "), version)
            pending = Request(name: nil, line: 0, method: "", target: "")
            i += 1
            // The target's continuation: indented lines right after the request line, the last
            // of which may end in the version.
            while i < lines.count, let c = lines[i].first, c == " " || c == "\t", !lines[i].trimmingOWS.isEmpty {
                var part = lines[i].trimmingOWS
                if let space = part.lastIndex(of: " "), part[part.index(after: space)...].hasPrefix("HTTP/") {
                    request.version = String(part[part.index(after: space)...])
                    part = part[..<space].trimmingOWS
                }
                request.target += part
                i += 1
            }
            // Header fields, to an empty line (or the request's end).
            while i < lines.count {
                let l = lines[i], t = l.trimmingOWS
                if t.isEmpty || endsSection(t) { break }
                if isComment(l) { apply(directive(l), at: i + 1, to: &request); i += 1; continue }
                guard let colon = l.firstIndex(of: ":"), colon != l.startIndex else {
                    throw fail(i + 1, 1, "expected a header field (Name: value), or an empty line before the body")
                }
                let name = l[..<colon].trimmingOWS
                guard !name.contains(" ") else { throw fail(i + 1, 1, "expected a header field's name (no spaces) before ':'") }
                request.headers.append(Header(name: String(name), value: String(l[l.index(after: colon)...].trimmingOWS), line: i + 1))
                i += 1
            }
            // The body: from after the empty line to a handler, a reference or the next request.
            if i < lines.count, lines[i].trimmingOWS.isEmpty {
                i += 1
                var body: [BodyLine] = []
                while i < lines.count, !endsSection(lines[i].trimmingOWS) {
                    let l = lines[i], t = l.trimmingOWS
                    // A comment in a body starts its line, indented or not (the specification's rule).
                    if isComment(l) { apply(directive(l), at: i + 1, to: &request) }
                    else if t.hasPrefix("< ") { body.append(.file(String(t.dropFirst(2).trimmingOWS), line: i + 1)) }
                    else { body.append(.text(l)) }
                    i += 1
                }
                // An in-place body is sent without the whitespace around it (§4.2.2: from a
                // file, a body is sent whole).
                while case .text(let first)? = body.first, first.trimmingOWS.isEmpty { body.removeFirst() }
                while case .text(let last)? = body.last, last.trimmingOWS.isEmpty { body.removeLast() }
                if case .text(let first)? = body.first { body[0] = .text(String(first.drop { $0 == " " || $0 == "\t" })) }
                if case .text(var last)? = body.last {
                    while last.last == " " || last.last == "\t" { last.removeLast() }
                    body[body.count - 1] = .text(last)
                }
                if !body.isEmpty { request.body = body }
            }
            // Handlers and references.
            while i < lines.count {
                let l = lines[i], t = l.trimmingOWS
                if t.hasPrefix("###") { break }
                if t.isEmpty { i += 1; continue }
                if isComment(l) { apply(directive(l), at: i + 1, to: &request); i += 1; continue }
                if t.hasPrefix("<> ") { request.responseReferences.append(i + 1); i += 1; continue }
                if t.hasPrefix(">") {
                    let rest = t.dropFirst().trimmingOWS
                    if rest.hasPrefix("{%") {
                        // In place, to the line that closes it with %}.
                        let start = i + 1
                        var closed = rest.dropFirst(2).contains("%}")
                        while !closed {
                            i += 1
                            guard i < lines.count else { throw fail(start, 1, "a response handler's {% is not closed by %}") }
                            closed = lines[i].contains("%}")
                        }
                        request.handlers.append(Handler(line: start, file: nil))
                    } else {
                        request.handlers.append(Handler(line: i + 1, file: String(rest)))
                    }
                    i += 1; continue
                }
                throw fail(i + 1, 1, "expected a response handler (> {% … %}), a response reference (<> file) or ### before the next request")
            }
            file.requests.append(request)
        }
        return file
    }
}
