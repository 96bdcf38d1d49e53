import PekitCore
import PekitLua

/// A `.http` file as a pekit test file: each request a test (named by its name, else its request
/// line), sent as the file writes it, the requests of the file sharing one cookie jar (as
/// JetBrains' client and Hurl keep cookies across a file), its `# @pekit` lines run after the
/// send with `response` (and `r`). One translation serves `pekit test FILE.http` (laid out so
/// that each request's code stands on the request's own line: a failure names the .http file's
/// line) and `pekit import http` (laid out to be read).
extension HTTPFile {
    /// How the Lua is laid out.
    public enum Layout: Sendable {
        /// Each request's test on its request line, each assertion on its own line (run under
        /// the .http file's name).
        case aligned
        /// One statement a line, indented (printed by `pekit import http`).
        case readable
    }

    /// What a translation did not carry over, each with its line: JavaScript handlers (never
    /// run), response references.
    public func notes(path: String) -> [String] {
        var out: [String] = []
        for request in requests {
            for handler in request.handlers {
                out.append("\(path):\(handler.line): not run: JavaScript handler\(handler.file.map { " (\($0))" } ?? "") (write Lua assertions as # @pekit lines)")
            }
            for line in request.responseReferences { out.append("\(path):\(line): not used: a response reference (<>)") }
        }
        return out
    }

    /// The test file's Lua.
    /// - Parameter path: the .http file's path as given (names the tests and the errors).
    /// - Parameter directory: where its `< file` bodies and environment files are read from.
    public func lua(path: String, directory: String, layout: Layout) -> String {
        let shortName = path.split(separator: "/").last.map(String.init) ?? path
        var fileVariables: [String] = []
        for (name, value, line) in variables {
            // Read when used (a value may name a variable of the environment).
            fileVariables.append("[\(quoted(name))] = function() return \(template(value, line: line)) end")
        }
        // The helper is pekit test's own (`TestRunner.helpers`), a fresh copy for each file.
        let prelude = ["local http_file = require(\"pekit.http_file\")()",
                       "local jar = pekit.cookies.jar()",
                       "local function var(name, line) return http_file.var(name, line) end",
                       "http_file.setup(\(quoted(directory)), \(quoted(path)), {\(fileVariables.joined(separator: ", "))})"]
        switch layout {
        case .readable:
            var out = ["-- The requests of \(shortName) as pekit tests (made by `pekit import http \(shortName)`): run",
                       "-- `pekit test` on this file, with --var NAME=VALUE or --env NAME for the variables."] + prelude + [""]
            for note in notes(path: path) { out.append("-- " + note) }
            for request in requests {
                out.append("test(\(quoted(testName(request, path: shortName))), { jar = jar }, function(t)")
                out.append("  local response = pekit.http.send(pekit.request{")
                for field in fields(request) { out.append("    \(field),") }
                out.append("  }" + (sendOptions(request).map { ", " + $0 } ?? "") + ")")
                out.append("  local r = response")
                for (line, code) in request.assertions { out.append("  \(code)  -- \(shortName):\(line)") }
                out.append("end)")
                out.append("")
            }
            return out.joined(separator: "\n")
        case .aligned:
            // Line n of the output is line n of the .http file.
            var lines: [String] = [prelude.joined(separator: " ")]
            func at(_ line: Int, _ code: String) {
                while lines.count < line { lines.append("") }
                lines[line - 1] += (lines[line - 1].isEmpty ? "" : " ") + code
            }
            for request in requests {
                let open = "test(\(quoted(testName(request, path: shortName))), { jar = jar }, function(t) local response = pekit.http.send(pekit.request{ \(fields(request).joined(separator: ", ")) }\(sendOptions(request).map { ", " + $0 } ?? "")) local r = response"
                at(request.line, open)
                var last = request.line
                for (line, code) in request.assertions {
                    // An assertion written before its request line runs on it.
                    let place = max(line, request.line)
                    at(place, code)
                    last = max(last, place)
                }
                at(last, "end)")
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// A test's name: the request's name, else its request line; and where it is.
    func testName(_ request: Request, path: String) -> String {
        (request.name ?? "\(request.method) \(request.target)") + " (\(path):\(request.line))"
    }

    /// `pekit.request`'s fields for a request.
    func fields(_ request: Request) -> [String] {
        var out = ["method = \(quoted(request.method))", "url = \(url(request))"]
        // The asterisk form (a server-wide OPTIONS) is the request target itself.
        if request.target == "*" { out.append("target = \"*\"") }
        var headers = request.headers
        // An origin-form target names its host in the Host field (the specification's rule).
        if request.target.hasPrefix("/") || request.target == "*" { headers.removeAll { $0.name.lowercased() == "host" } }
        if !headers.isEmpty {
            out.append("headers = { " + headers.map { "{ \(quoted($0.name)), \(template($0.value, line: $0.line)) }" }.joined(separator: ", ") + " }")
        }
        if let body = request.body {
            // A multipart body's lines end in CR LF (RFC 7578 §4.1, as multipart is sent); any other's in LF.
            let multipart = request.headers.contains { $0.name.lowercased() == "content-type" && $0.value.lowercased().hasPrefix("multipart/") }
            var parts: [Part] = []
            for (index, line) in body.enumerated() {
                switch line {
                case .text(let text): parts += templateParts(text, line: request.line)
                case .file(let file, let line): parts.append(.expression("http_file.file(\(template(file, line: line)), \(line))"))
                }
                if index < body.count - 1 || multipart { parts.append(.literal(multipart ? "\r\n" : "\n")) }
            }
            out.append("body = " + joined(parts))
        }
        return out
    }

    /// The send's options a request line asks for: its HTTP version (`HTTP/2`, `HTTP/1.1`), or nil.
    func sendOptions(_ request: Request) -> String? {
        switch request.version {
        case "HTTP/2", "HTTP/2.0": return "{ http = \"2\" }"
        case "HTTP/1.1": return "{ http = \"1.1\" }"
        default: return nil
        }
    }

    /// The URL: an absolute target with http as the default scheme, or an origin-form target
    /// on the Host field's host; the fragment is not sent.
    func url(_ request: Request) -> String {
        var target = request.target
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        if target.hasPrefix("/") || target == "*" {
            let host = request.headers.last { $0.name.lowercased() == "host" }
            let authority = host.map { template($0.value, line: $0.line) } ?? quoted("")
            return "http_file.url(\(authority), \(request.line)) .. \(template(target == "*" ? "" : target, line: request.line))"
        }
        // The scheme, http by default, is known once the variables are read.
        return "http_file.url(\(template(target, line: request.line)), \(request.line))"
    }

    typealias Part = LuaTemplate.Part

    /// Text with `{{name}}` variables as a Lua expression.
    func template(_ text: String, line: Int) -> String { LuaTemplate.joined(templateParts(text, line: line)) }

    func templateParts(_ text: String, line: Int) -> [Part] {
        LuaTemplate.parts(text) { "var(\(quoted(String($0.trimmingOWS))), \(line))" }
    }

    func joined(_ parts: [Part]) -> String { LuaTemplate.joined(parts) }

    /// A Lua string literal holding `text` exactly (the bridge's one literal writer).
    func quoted(_ text: String) -> String { LuaLiteral.quoted(text) }
}

/// `Lua/http_file.lua`: the variables and files a test made from a .http file uses.
public let httpFileHelperSource = String(decoding: PackageResources.http_file_lua, as: UTF8.self)
