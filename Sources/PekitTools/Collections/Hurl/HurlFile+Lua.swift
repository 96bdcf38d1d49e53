import PekitCore
import PekitLua

/// A Hurl file as a pekit test file: each entry a test, run in order, its request and what its
/// response must be written as data that `hurl.lua` (the helper) sends and checks as Hurl does:
/// the variables (`--var`, [Options] `variable:`, captures) and the cookie jar shared by the
/// file's entries, an entry after a failed one skipped (Hurl stops a file at its first failure).
/// One translation serves `pekit test FILE.hurl` (each entry's code on the entry's own lines) and
/// `pekit import hurl` (laid out to be read).
extension HurlFile {
    /// The test file's Lua.
    /// - Parameters:
    ///   - path: the .hurl file's path as given (names the tests and the errors).
    ///   - directory: where `file,…;` names are read from (Hurl's `--file-root`, by default the
    ///     file's directory).
    ///   - layout: `.aligned` keeps line n of the Lua on line n of the file; `.readable` indents.
    public func lua(path: String, directory: String, layout: HTTPFile.Layout) -> String {
        let shortName = path.split(separator: "/").last.map(String.init) ?? path
        // The helper is pekit test's own (`TestRunner.helpers`), a fresh copy for each file.
        let prelude = ["local hurl = require(\"pekit.hurl\")()",
                       "local jar = pekit.cookies.jar()",
                       "local t, x, null = hurl.t, hurl.x, pekit.null",
                       "hurl.setup(\(q(path)), \(q(directory)), jar)"]
        var pieces: [(line: Int, code: String)] = []
        for (number, entry) in entries.enumerated() {
            let request = entry.request
            pieces.append((request.line, "test(\(q(testName(entry, number: number + 1, path: shortName))), { jar = jar }, function() hurl.entry(\(number + 1), {"))
            pieces += requestFields(request)
            if let response = entry.response {
                pieces.append((response.line, "}, {"))
                pieces += responseFields(response)
            }
            let last = max(pieces.last?.line ?? request.line, request.line)
            pieces.append((last, "}) end)"))
        }
        switch layout {
        case .readable:
            var out = ["-- The entries of \(shortName) as pekit tests (made by `pekit import hurl \(shortName)`): run",
                       "-- `pekit test` on this file, with --var NAME=VALUE for Hurl's --variable."] + prelude + [""]
            var depth = 0
            for piece in pieces {
                let closes = piece.code.hasPrefix("}")
                if closes { depth -= 1 }
                out.append(String(repeating: "  ", count: max(depth, 0)) + piece.code)
                if piece.code.hasSuffix("{") { depth += 1 }
                if piece.code.hasSuffix("end)") { out.append("") ; depth = 0 }
            }
            return out.joined(separator: "\n")
        case .aligned:
            // Each piece on its line, or on the line of the piece before it when that is later
            // (sections in any order still make the table in the order written).
            var lines: [String] = [prelude.joined(separator: " ")]
            var current = 1
            for piece in pieces {
                current = max(current, piece.line)
                while lines.count < current { lines.append("") }
                lines[current - 1] += (lines[current - 1].isEmpty ? "" : " ") + piece.code
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// A test's name: the entry's method and URL (placeholders as written), number and place.
    func testName(_ entry: Entry, number: Int, path: String) -> String {
        let request = entry.request
        let url = request.url.map { part -> String in
            switch part {
            case .text(let text): return text
            case .expression(let e, _): return "{{\(e.name)}}"
            }
        }.joined()
        return "\(request.method) \(url) (\(path):\(request.line), entry \(number))"
    }

    func requestFields(_ r: Request) -> [(line: Int, code: String)] {
        var out: [(line: Int, code: String)] = [(r.line, "line = \(r.line), method = \(q(r.method)), url = \(template(r.url)),")]
        func list(_ name: String, _ items: [KeyValue]) {
            guard !items.isEmpty else { return }
            out.append((items[0].line, "\(name) = {"))
            for item in items { out.append((item.line, "{ \(template(item.key)), \(template(item.value)), \(item.line) },")) }
            out.append((items[items.count - 1].line, "},"))
        }
        list("headers", r.headers)
        list("query", r.query)
        list("form", r.form)
        list("cookies", r.cookies)
        list("basic_auth", r.basicAuth)
        if !r.multipart.isEmpty {
            out.append((r.line, "multipart = {"))
            for param in r.multipart {
                switch param {
                case .field(let kv): out.append((kv.line, "{ \(template(kv.key)), \(template(kv.value)), \(kv.line) },"))
                case .file(let key, let path, let type, let line):
                    out.append((line, "{ \(template(key)), file = \(template(path)), type = \(type.map(template) ?? "nil"), \(line) },"))
                }
            }
            out.append((out[out.count - 1].line, "},"))
        }
        if !r.options.isEmpty {
            out.append((r.options[0].line, "options = {"))
            for option in r.options {
                let name = option.variableName.map { ", var = \(q($0))" } ?? ""
                out.append((option.line, "{ \(q(option.name)), \(value(option.value))\(name), \(option.line) },"))
            }
            out.append((r.options[r.options.count - 1].line, "},"))
        }
        if let body = r.body { out.append((out[out.count - 1].line, "body = \(self.body(body)),")) }
        // Hurl's cookie storage comments (experimental there): `# @cookie_storage_set: <a
        // Netscape cookie line>` and `# @cookie_storage_clear` above the request.
        var storage: [String] = []
        for comment in r.comments {
            if comment.hasPrefix("@cookie_storage_set:") {
                storage.append("{ \"set\", \(q(String(String(comment.dropFirst(20)).trimmingOWS))) }")
            } else if comment == "@cookie_storage_clear" {
                storage.append("{ \"clear\" }")
            }
        }
        if !storage.isEmpty { out.append((r.line, "cookie_storage = { \(storage.joined(separator: ", ")) },")) }
        return out
    }

    func responseFields(_ r: Response) -> [(line: Int, code: String)] {
        var out: [(line: Int, code: String)] = [(r.line, "line = \(r.line), version = \(q(r.version)), status = \(r.status.map(String.init) ?? "nil"),")]
        if !r.headers.isEmpty {
            out.append((r.headers[0].line, "headers = {"))
            for item in r.headers { out.append((item.line, "{ \(template(item.key)), \(template(item.value)), \(item.line) },")) }
            out.append((r.headers[r.headers.count - 1].line, "},"))
        }
        if !r.captures.isEmpty {
            out.append((r.captures[0].line, "captures = {"))
            for c in r.captures {
                out.append((c.line, "{ \(template(c.name)), \(query(c.query)), \(filters(c.filters))\(c.redact ? ", redact = true" : ""), \(c.line) },"))
            }
            out.append((r.captures[r.captures.count - 1].line, "},"))
        }
        if !r.asserts.isEmpty {
            out.append((r.asserts[0].line, "asserts = {"))
            for a in r.asserts {
                let predicate = (a.not ? "not " : "") + a.predicate
                out.append((a.line, "{ \(query(a.query)), \(filters(a.filters)), \(q(predicate))\(a.value.map { ", " + value($0) } ?? ""), line = \(a.line) },"))
            }
            out.append((r.asserts[r.asserts.count - 1].line, "},"))
        }
        if let body = r.body { out.append((r.bodyLine, "body = \(self.body(body)), body_line = \(r.bodyLine),")) }
        return out
    }

    func query(_ query: Query) -> String {
        "{ \(q(query.kind))\(query.argument.map { ", " + value($0) } ?? "") }"
    }

    func filters(_ filters: [Filter]) -> String {
        filters.isEmpty ? "{}" : "{ " + filters.map { f in "{ " + ([q(f.name)] + f.arguments.map(value)).joined(separator: ", ") + " }" }.joined(separator: ", ") + " }"
    }

    func body(_ body: Body) -> String {
        switch body {
        case .json(let text): return "{ \"json\", \(template(text)) }"
        case .xml(let text): return "{ \"xml\", \(q(text)) }"
        case .multiline(let type, let text, let variables):
            return "{ \"multiline\", \(template(text)), type = \(type.map(q) ?? "nil")\(variables.map { ", variables = " + template($0) } ?? "") }"
        case .oneline(let text): return "{ \"text\", \(template(text)) }"
        case .bytes(let bytes): return "{ \"bytes\", \(LuaLiteral.quoted(bytes: bytes)) }"
        case .file(let name): return "{ \"file\", \(template(name)) }"
        }
    }

    /// A value as the helper reads it: a Lua string, number, boolean or `null`, a template
    /// `t{…}`, a placeholder `x(…)`, or a tagged table for bytes, files, regexes and ``` strings.
    func value(_ value: Value) -> String {
        switch value {
        case .string(let text): return template(text)
        case .multiline(let type, let text): return "hurl.multiline(\(template(text)), \(type.map(q) ?? "nil"))"
        case .number(let written):
            // An integer as an integer, anything else as a float (Lua keeps the difference).
            if Int64(written) != nil { return written }
            return written.contains(".") || written.contains("e") || written.contains("E") ? written : written + ".0"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .bytes(let bytes): return "hurl.bytes(\(LuaLiteral.quoted(bytes: bytes)))"
        case .file(let name): return "hurl.file(\(template(name)))"
        case .regex(let pattern): return "hurl.regex(\(q(pattern)))"
        case .expression(let e): return expression(e)
        }
    }

    /// Text as a Lua string when it holds no placeholder, else `t{…}`.
    func template(_ parts: Template) -> String {
        if parts.isEmpty { return "\"\"" }
        if parts.count == 1, case .text(let text) = parts[0] { return q(text) }
        return "t{ " + parts.map { part in
            switch part {
            case .text(let text): return q(text)
            case .expression(let e, let json): return expression(e, json: json)
            }
        }.joined(separator: ", ") + " }"
    }

    func expression(_ e: Expression, json: Bool = false) -> String {
        "x(\(q(e.name)), \(e.line)" + (e.filters.isEmpty ? (json ? ", nil" : "") : ", \(filters(e.filters))") + (json ? ", true" : "") + ")"
    }

    func q(_ text: String) -> String { LuaLiteral.quoted(text) }
}

/// `Lua/hurl.lua`: what a test made from a Hurl file runs (requests, captures, asserts, filters).
public let hurlHelperSource = String(decoding: PackageResources.hurl_lua, as: UTF8.self)
