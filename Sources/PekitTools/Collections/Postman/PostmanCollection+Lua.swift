import PekitCore
import PekitLua

/// A Postman collection as a pekit test file: each request a test named by its folders and its
/// name, sent as Postman's curl code generator (postman-code-generators, codegens/curl) writes
/// it with its default options (so what is sent is what that curl command sends), the requests
/// of the collection sharing one cookie jar (as Postman's runner keeps cookies), its test
/// scripts translated where the translation is exact (`PostmanScripts`) and listed otherwise.
extension PostmanCollection {
    /// What the translation did not carry over: every script not translated (JavaScript is never
    /// run), every translated one (with what it became), and the auth pekit does not send.
    public func notes(path: String) -> [String] {
        var out: [String] = [], seen = Set<String>()
        for request in requests {
            for script in request.scripts where seen.insert(script.owner + "\u{0}" + script.listen).inserted {
                let what = script.listen == "prerequest" ? "pre-request script" : "\(script.listen) script"
                if script.listen == "test", let lua = PostmanScripts.translate(script.lines) {
                    let checks = lua.filter { !$0.hasPrefix("--") }
                    out.append("\(path): \(script.owner): translated: its \(what) as \(checks.joined(separator: "; "))")
                } else {
                    out.append("\(path): \(script.owner): not run: its \(what) (JavaScript; write the checks as Lua in the imported file)")
                }
            }
            if let auth = request.auth, Self.unsupported(auth) != nil, seen.insert("auth " + auth.place).inserted {
                out.append("\(path): \(auth.place): not sent: \(Self.unsupported(auth)!)")
            }
        }
        return out
    }

    /// Why pekit cannot send an auth block as Postman does, or nil when it can.
    static func unsupported(_ auth: Auth) -> String? {
        switch auth.type {
        case "basic", "bearer", "apikey", "awsv4", "digest": return nil
        case "oauth2": return auth.parameters["accessToken", default: ""].isEmpty ? "oauth2 auth with no access token (pekit does not run the grant: give the token)" : nil
        case "oauth1":
            return auth.parameters["addParamsToHeader"] == "false" || auth.parameters["addParamsToHeader"] == nil
                ? "oauth1 auth with its parameters in the URL or body (pekit signs into the Authorization field: choose \"Request Headers\" in Postman)" : nil
        default: return "\(auth.type) auth (pekit sends basic, digest, bearer, API key, AWS Signature v4, OAuth 1.0 and an OAuth 2.0 token)"
        }
    }

    /// The test file's Lua.
    /// - Parameter path: the collection's path as given (names the tests and the errors).
    /// - Parameter directory: where its relative file paths are read from.
    public func lua(path: String, directory: String) -> String {
        let shortName = path.split(separator: "/").last.map(String.init) ?? path
        let collectionVariables = variables.filter { !$0.disabled }.map { "[\(quoted($0.key))] = \(quoted($0.value ?? ""))" }
        var out = ["-- The requests of the Postman collection \(quoted(name)) (\(shortName)) as pekit tests (made by",
                   "-- `pekit import postman`): run `pekit test` on this file, with --var NAME=VALUE, --environment FILE",
                   "-- or --globals FILE (Postman's exports) for the variables.",
                   "local postman = require(\"pekit.postman\")()",
                   "local jar = pekit.cookies.jar()",
                   "local function var(name, place) return postman.var(name, place) end",
                   "postman.setup(\(quoted(directory)), \(quoted(shortName)), {\(collectionVariables.joined(separator: ", "))})",
                   ""]
        for note in notes(path: shortName) { out.append("-- " + note) }
        if !requests.isEmpty, !notes(path: shortName).isEmpty { out.append("") }
        for request in requests { out += test(request, shortName: shortName) }
        return out.joined(separator: "\n") + "\n"
    }

    func test(_ request: Request, shortName: String) -> [String] {
        var name = request.names.joined(separator: " / ")
        var out: [String] = []
        // The request's description names the test too: its first sentence (a line, 80
        // characters at most), after the request's own name; the rest is a comment above it.
        if let line = request.description?.split(separator: "\n").first, case let first = String(line.trimmingOWS), !first.isEmpty {
            let sentence = first.prefix { $0 != "." }
            name += " — " + (sentence.count > 80 ? sentence.prefix(79) + "…" : sentence)
            out.append("-- " + first)
        }
        out.append("test(\(quoted(name + " (" + shortName + " " + request.place + ")")), { jar = jar }, function(t)")
        let variables = request.variables.filter { !$0.disabled }.map { "[\(quoted($0.key))] = \(quoted($0.value ?? ""))" }
        out.append("  postman.scope({\(variables.joined(separator: ", "))})")
        if let auth = request.auth, let why = Self.unsupported(auth) {
            out.append("  error(\(quoted("\(shortName): \(auth.place): not sent: \(why)")), 0)")
            out.append("end)")
            out.append("")
            return out
        }
        out.append("  local request = pekit.request{")
        for field in fields(request) { out.append("    \(field),") }
        out.append("  }")
        // Digest answers the server's challenge, as Postman does: the user and password wait for it.
        out.append(request.auth?.type == "digest" ? "  local response = pekit.http.send(request, { auth_scheme = \"digest\" })" : "  local response = pekit.http.send(request)")
        out.append("  local r = response")
        for script in request.scripts where script.listen == "test" {
            guard let lua = PostmanScripts.translate(script.lines) else { continue }
            out.append("  -- translated from the test script of \(script.owner)")
            for line in lua { out.append("  " + line) }
        }
        out.append("end)")
        out.append("")
        return out
    }

    /// `pekit.request`'s fields for a request, as the curl command Postman's code generator
    /// prints sends it.
    func fields(_ request: Request) -> [String] {
        let place = request.place
        func t(_ text: String) -> String { template(text, place: place) }
        var headers = request.headers.filter { !$0.disabled && !$0.key.isEmpty }.map { "{ \(t($0.key)), \(t($0.value ?? "")) }" }
        var query = request.url.query.filter { !$0.disabled }.map { "{ \(t($0.key))\($0.value.map { ", " + t($0) } ?? "") }" }
        var out = ["method = \(quoted(request.method))"]
        var signing: String?, auth: String?
        if let given = request.auth {
            let p = given.parameters
            switch given.type {
            case "basic", "digest": auth = "auth = { user = \(t(p["username"] ?? "")), password = \(t(p["password"] ?? "")) }"
            case "bearer": auth = "auth = { bearer = \(t(p["token"] ?? "")) }"
            case "oauth2":
                let prefix = p["headerPrefix"] ?? "Bearer"
                headers.append("{ \"Authorization\", \(t((prefix.isEmpty ? "" : prefix + " ") + (p["accessToken"] ?? ""))) }")
            case "apikey":
                let pair = "{ \(t(p["key"] ?? "")), \(t(p["value"] ?? "")) }"
                if p["in"] == "query" { query.append(pair) } else { headers.append(pair) }
            case "awsv4":
                var options = ["\"aws-sigv4\"", "access_key = \(t(p["accessKey"] ?? ""))", "secret_key = \(t(p["secretKey"] ?? ""))",
                               "region = \(t(p["region"] ?? "us-east-1"))", "service = \(t(p["service"] ?? ""))"]
                if let token = p["sessionToken"], !token.isEmpty { options.append("session_token = \(t(token))") }
                if p["addAuthDataToQuery"] == "true" { options.append("sign_in = \"query\"") }
                signing = "sign = { \(options.joined(separator: ", ")) }"
            case "oauth1":
                var options = ["\"oauth1\"", "consumer_key = \(t(p["consumerKey"] ?? ""))", "consumer_secret = \(t(p["consumerSecret"] ?? ""))"]
                for (postman, pekit) in [("token", "token"), ("tokenSecret", "token_secret"), ("signatureMethod", "method"), ("realm", "realm"),
                                         ("nonce", "nonce"), ("timestamp", "timestamp"), ("callback", "callback"), ("verifier", "verifier")] {
                    // (pekit's timestamp is a number; Postman keeps every field as text.)
                    if let value = p[postman], !value.isEmpty { options.append("\(pekit) = \(pekit == "timestamp" ? "tonumber(\(t(value)))" : t(value))") }
                }
                signing = "sign = { \(options.joined(separator: ", ")) }"
            default: break
            }
        }
        let u = request.url
        var url: [String] = []
        if let scheme = u.protocol { url.append("protocol = \(t(scheme))") }
        if let user = u.user { url.append("user = \(t(user))") }
        if let password = u.password { url.append("password = \(t(password))") }
        if let host = u.host { url.append("host = \(t(host))") }
        if let port = u.port { url.append("port = \(t(port))") }
        if let path = u.path { url.append("path = { \(path.map(t).joined(separator: ", ")) }") }
        if !query.isEmpty { url.append("query = { \(query.joined(separator: ", ")) }") }
        let pathVariables = u.variables.filter { !$0.disabled && $0.value != nil }.map { "[\(quoted($0.key))] = \(t($0.value!))" }
        url.append(pathVariables.isEmpty ? "variables = {}" : "variables = { \(pathVariables.joined(separator: ", ")) }")
        if let hash = u.hash { url.append("hash = \(t(hash))") }
        out.append("url = postman.url{ \(url.joined(separator: ", ")) }")
        out.append("url_as_curl = true")
        // `has('Content-Type')` of the SDK's header list: any case, disabled ones too.
        let namesType = request.headers.contains { $0.key.lowercased() == "content-type" }
        let givesType = request.headers.contains { !$0.disabled && $0.key.lowercased() == "content-type" }
        switch request.body {
        // An empty raw body is sent empty (`--data ''`), save on a GET, where the generator's
        // command would turn the request into a POST (curl's -d without -X): a GET stays one.
        case .raw(let text, _)? where !text.isEmpty || request.method != "GET":
            out.append("body = \(t(text))")
            if !givesType { out.append("content_type = \"application/x-www-form-urlencoded\"") }
        case .urlencoded(let fields)? where fields.contains(where: { !$0.disabled }):
            let pairs = fields.filter { !$0.disabled }.map { "{ \(t($0.key)), \(t($0.value ?? "")) }" }
            out.append("body = postman.urlencoded{ \(pairs.joined(separator: ", ")) }")
            if !givesType { out.append("content_type = \"application/x-www-form-urlencoded\"") }
        case .formdata(let parts)? where parts.contains(where: { !$0.disabled }):
            var lua: [String] = []
            for part in parts where !part.disabled {
                if part.isFile {
                    for file in part.files.isEmpty ? ["/path/to/file"] : part.files {
                        let base = file.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? file
                        lua.append("{ name = \(t(part.key)), path = postman.path(\(t(file))), filename = \(quoted(base)), type = \(quoted(MultipartBody.curlGuessedType(ofFile: file))) }")
                    }
                } else {
                    lua.append("{ name = \(t(part.key)), value = \(t(part.value ?? ""))\(part.contentType.map { ", type = " + quoted($0) } ?? "") }")
                }
            }
            out.append("multipart = { \(lua.joined(separator: ", ")) }")
        case .file(let src?)?:
            out.append("body = postman.file(\(t(src)), \(quoted(place)))")
            if !namesType { headers.append("{ \"Content-Type\", \"text/plain\" }") }
        case .graphql(let query, let variables)?:
            out.append("body = postman.graphql(\(t(query)), \(variables.map(t) ?? "nil"))")
            if !namesType { headers.append("{ \"Content-Type\", \"application/json\" }") }
        default: break
        }
        if !headers.isEmpty { out.append("headers = { \(headers.joined(separator: ", ")) }") }
        if let auth { out.append(auth) }
        if let signing { out.append(signing) }
        return out
    }

    /// Text with `{{name}}` variables as a Lua expression (Postman's names are used as written).
    func template(_ text: String, place: String) -> String {
        LuaTemplate.joined(LuaTemplate.parts(text) { "var(\(quoted(String($0))), \(quoted(place)))" })
    }

    func quoted(_ text: String) -> String { LuaLiteral.quoted(text) }
}

/// `Lua/postman.lua`: the variables, URL and bodies a test made from a Postman collection uses.
public let postmanHelperSource = String(decoding: PackageResources.postman_lua, as: UTF8.self)
