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
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let path: String
        public let line: Int
        public let column: Int
        public let message: String
        public var description: String { "\(path):\(line):\(column): \(message)" }
    }

    /// The methods the specification lists (a first word that is none of them is the target's).
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "PATCH", "OPTIONS", "TRACE"]

    /// Parses a `.http` file's text.
    /// - Parameter path: named in errors.
    /// - Throws: `ParseError` with the line and column.
    public static func parse(_ text: String, path: String) throws -> HTTPFile {
        var file = HTTPFile()
        // Lines as the specification ends them: LF, CR, or CR LF.
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func fail(_ line: Int, _ column: Int, _ message: String) -> ParseError { ParseError(path: path, line: line, column: column, message: message) }
        func isComment(_ s: String) -> Bool {
            let t = s.drop { $0 == " " || $0 == "\t" }
            return t.hasPrefix("#") && !t.hasPrefix("###") || t.hasPrefix("//")
        }
        func commentText(_ s: String) -> String {
            let t = s.drop { $0 == " " || $0 == "\t" }
            return String(t.dropFirst(t.hasPrefix("//") ? 2 : 1)).ows
        }
        var i = 0
        var pendingName: String?
        var pendingAssertions: [(line: Int, code: String)] = []
        // A comment's directive: `@name NAME` names the request, `@pekit CODE` is an assertion.
        func directive(_ s: String, at number: Int, into request: inout Request?) -> Bool {
            let c = commentText(s)
            if c.hasPrefix("@name ") || c == "@name" {
                let name = String(c.dropFirst(5)).ows
                if request != nil { request?.name = name } else { pendingName = name }
                return true
            }
            if c.hasPrefix("@pekit ") {
                let code = String(c.dropFirst(7)).ows
                if request != nil { request?.assertions.append((number, code)) } else { pendingAssertions.append((number, code)) }
                return true
            }
            return false
        }
        while i < lines.count {
            let line = lines[i], number = i + 1
            let trimmed = line.ows
            if trimmed.hasPrefix("###") {
                let name = String(trimmed.dropFirst(3)).ows
                pendingName = name.isEmpty ? nil : name
                pendingAssertions = []
                i += 1; continue
            }
            if trimmed.isEmpty { i += 1; continue }
            if isComment(line) { var none: Request? = nil; _ = directive(line, at: number, into: &none); i += 1; continue }
            if trimmed.hasPrefix("@") {
                // A file variable: @name = value (the value to the line's end, trimmed).
                guard let eq = trimmed.firstIndex(of: "=") else { throw fail(number, 1, "expected a variable, @name = value") }
                let name = String(trimmed[trimmed.index(after: trimmed.startIndex)..<eq]).ows
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
                    throw fail(number, 2, "expected a variable's name (letters, digits, '-', '_', '.') before '='")
                }
                file.variables.append((name, String(trimmed[trimmed.index(after: eq)...]).ows, number))
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
            var request = Request(name: pendingName, line: number, method: method, target: words.joined(separator: " "), version: version)
            request.assertions = pendingAssertions
            pendingName = nil
            pendingAssertions = []
            i += 1
            // The target's continuation: indented lines right after the request line.
            while i < lines.count, let c = lines[i].first, c == " " || c == "\t", !lines[i].ows.isEmpty {
                var part = lines[i].ows
                if part.hasSuffix(" " + (request.version ?? "\u{0}")) { part = String(part.dropLast((request.version ?? "").count + 1)) }
                if let v = part.split(separator: " ").last, part.contains(" "), v.hasPrefix("HTTP/") { request.version = String(v); part = String(part.dropLast(v.count + 1)) }
                request.target += part
                i += 1
            }
            // Header fields, to an empty line (or the request's end).
            var optional: Request? = request
            while i < lines.count {
                let l = lines[i], t = l.ows
                if t.isEmpty || t.hasPrefix("###") { break }
                if isComment(l) { _ = directive(l, at: i + 1, into: &optional); i += 1; continue }
                if t.hasPrefix("> ") || t.hasPrefix(">{%") || t.hasPrefix("<> ") || t == ">" { break }
                guard let colon = l.firstIndex(of: ":"), colon != l.startIndex else {
                    throw fail(i + 1, 1, "expected a header field (Name: value), or an empty line before the body")
                }
                let name = String(l[..<colon]).ows
                guard !name.contains(" ") else { throw fail(i + 1, 1, "expected a header field's name (no spaces) before ':'") }
                optional?.headers.append(Header(name: name, value: String(l[l.index(after: colon)...]).ows, line: i + 1))
                i += 1
            }
            request = optional ?? request
            // The body: from after the empty line to a handler, a reference or the next request.
            if i < lines.count, lines[i].ows.isEmpty {
                i += 1
                var body: [BodyLine] = []
                while i < lines.count {
                    let l = lines[i], t = l.ows
                    if t.hasPrefix("###") || t.hasPrefix("> ") || t.hasPrefix(">{%") || t == ">" || t.hasPrefix("<> ") { break }
                    // A comment in a body starts its line (the specification's rule).
                    if isComment(l) { _ = directive(l, at: i + 1, into: &optional); request = optional ?? request; i += 1; continue }
                    if t.hasPrefix("< ") { body.append(.file(String(t.dropFirst(2)).ows, line: i + 1)) }
                    else { body.append(.text(l)) }
                    i += 1
                }
                // An in-place body is sent without the whitespace around it (§4.2.2: from a
                // file, a body is sent whole).
                while case .text(let first)? = body.first, first.ows.isEmpty { body.removeFirst() }
                while case .text(let last)? = body.last, last.ows.isEmpty { body.removeLast() }
                if case .text(let first)? = body.first { body[0] = .text(String(first.drop { $0 == " " || $0 == "\t" })) }
                if case .text(let last)? = body.last { body[body.count - 1] = .text(String(last.reversed().drop { $0 == " " || $0 == "\t" }.reversed())) }
                if !body.isEmpty { request.body = body }
            }
            // Handlers and references.
            while i < lines.count {
                let l = lines[i], t = l.ows
                if t.hasPrefix("###") { break }
                if t.isEmpty { i += 1; continue }
                if isComment(l) { var o: Request? = request; _ = directive(l, at: i + 1, into: &o); request = o ?? request; i += 1; continue }
                if t.hasPrefix("<> ") { request.responseReferences.append(i + 1); i += 1; continue }
                if t.hasPrefix(">") {
                    let rest = String(t.dropFirst()).ows
                    if rest.hasPrefix("{%") {
                        let start = i + 1
                        // In place, to the line that closes it with %}.
                        while i < lines.count && !(i == start - 1 ? String(rest.dropFirst(2)) : lines[i]).contains("%}") { i += 1 }
                        guard i < lines.count else { throw fail(start, 1, "a response handler's {% is not closed by %}") }
                        request.handlers.append(Handler(line: start, file: nil))
                    } else {
                        request.handlers.append(Handler(line: i + 1, file: rest))
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

extension StringProtocol {
    /// Without the spaces and tabs at either end (the core's `trimmingOWS`), as a String.
    var ows: String { String(trimmingOWS) }
}
