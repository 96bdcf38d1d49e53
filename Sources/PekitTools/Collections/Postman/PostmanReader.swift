import PekitCore

/// Reads a collection's JSON as Postman's SDK reads it (postman-collection's `Collection`,
/// `Request`, `Url`, `RequestBody`, `RequestAuth`), refusing with its place what it cannot take.
struct PostmanReader {
    let bytes: [UInt8]
    let path: String

    typealias Step = JSONPlaces.Step

    func fail(_ at: [Step], _ message: String) -> PostmanCollection.ParseError {
        let (line, column) = JSONPlaces.lineAndColumn(of: JSONPlaces.offset(of: at, in: bytes), in: bytes)
        return PostmanCollection.ParseError(path: path, line: line, column: column, message: "\(Self.place(at)): \(message)")
    }

    /// `$.item[0].request` for a path.
    static func place(_ at: [Step]) -> String {
        "$" + at.map { step in
            switch step {
            case .key(let name): return "." + name
            case .index(let index): return "[\(index)]"
            }
        }.joined()
    }

    /// A JSON value's kind in JSON's words, for messages.
    static func kind(_ value: PekitValue) -> String {
        switch value {
        case .map: return "an object"
        case .array, .set: return "a list"
        case .string: return "a string"
        case .boolean: return "a boolean"
        case .null: return "null"
        case .integer, .number, .bigInteger: return "a number"
        }
    }

    func object(_ value: PekitValue?, _ at: [Step]) throws -> PekitMap? {
        switch value {
        case nil, .null?: return nil
        case .map(let map)?: return map
        case let other?: throw fail(at, "expected an object, found \(Self.kind(other))")
        }
    }

    func list(_ value: PekitValue?, _ at: [Step]) throws -> [PekitValue] {
        switch value {
        case nil, .null?: return []
        case .array(let items)?: return items
        case let other?: throw fail(at, "expected a list, found \(Self.kind(other))")
        }
    }

    /// A text value: a string, or a number or boolean written as JSON writes it; nil for none.
    func text(_ value: PekitValue?, _ at: [Step]) throws -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let s)?: return s.description
        case .integer(let n)?: return String(n)
        case .bigInteger(let digits)?: return digits
        case .number(let d)?: return d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .boolean(let b)?: return b ? "true" : "false"
        case let other?: throw fail(at, "expected text, found \(Self.kind(other))")
        }
    }

    func flag(_ value: PekitValue?) -> Bool {
        if case .boolean(true)? = value { return true }
        return false
    }

    mutating func collection(_ root: PekitValue) throws -> PostmanCollection {
        guard let top = try object(root, []) else { throw fail([], "expected a Postman collection (an object with info and item)") }
        guard let info = try object(top["info"], [.key("info")]) else {
            throw fail([], "not a Postman collection: no info (export it from Postman as Collection v2.1)")
        }
        let schema = try text(info["schema"], [.key("info"), .key("schema")]) ?? ""
        let version: String
        if schema.contains("/v2.1.") { version = "2.1.0" } else if schema.contains("/v2.0.") { version = "2.0.0" } else {
            throw fail([.key("info"), .key("schema")], schema.isEmpty ? "not a Postman collection: no info.schema (export it from Postman as Collection v2.1)"
                       : "the collection format \(schema) is not read (v2.0.0 and v2.1.0 are: export it from Postman as Collection v2.1)")
        }
        let name = try text(info["name"], [.key("info"), .key("name")]) ?? "collection"
        let variables = try entries(top["variable"], [.key("variable")])
        let scope = Scope(names: [], auth: try auth(top["auth"], [.key("auth")]), variables: [],
                          scripts: try scripts(top["event"], [.key("event")], owner: name), prunesBody: prunes(top))
        var requests: [PostmanCollection.Request] = []
        try items(top["item"], [.key("item")], scope: scope, into: &requests)
        return PostmanCollection(name: name, version: version, variables: variables, requests: requests)
    }

    /// What a folder hands to what it holds.
    struct Scope {
        var names: [String]
        var auth: PostmanCollection.Auth??
        var variables: [PostmanCollection.Entry]
        var scripts: [PostmanCollection.Script]
        var prunesBody: Bool
    }

    func prunes(_ map: PekitMap) -> Bool {
        if case .map(let behavior)? = map["protocolProfileBehavior"], case .boolean(false)? = behavior["disableBodyPruning"] { return true }
        return false
    }

    mutating func items(_ value: PekitValue?, _ at: [Step], scope: Scope, into requests: inout [PostmanCollection.Request]) throws {
        for (index, element) in try list(value, at).enumerated() {
            let here = at + [.index(index)]
            guard let item = try object(element, here) else { continue }
            let name = try text(item["name"], here + [.key("name")]) ?? "request \(index + 1)"
            var inner = scope
            inner.names.append(name)
            if let own = try auth(item["auth"], here + [.key("auth")]) { inner.auth = own }
            inner.variables += try entries(item["variable"], here + [.key("variable")])
            inner.scripts += try scripts(item["event"], here + [.key("event")], owner: inner.names.joined(separator: " / "))
            inner.prunesBody = scope.prunesBody || prunes(item)
            if item["item"] != nil {
                try items(item["item"], here + [.key("item")], scope: inner, into: &requests)
            } else if item["request"] != nil {
                requests.append(try request(item, here, scope: inner))
            } else {
                throw fail(here, "an item with neither request nor item (a request or a folder)")
            }
        }
    }

    func description(_ value: PekitValue?, _ at: [Step]) throws -> String? {
        if case .map(let map)? = value { return try text(map["content"], at + [.key("content")]) }
        return try text(value, at)
    }

    func request(_ item: PekitMap, _ at: [Step], scope: Scope) throws -> PostmanCollection.Request {
        let here = at + [.key("request")]
        var map: PekitMap
        if case .string(let url)? = item["request"] {
            map = PekitMap(ordered: [.init(key: "url", value: .string(url))])
        } else if let given = try object(item["request"], here) {
            map = given
        } else {
            throw fail(here, "expected a request (an object, or its URL)")
        }
        let method = (try text(map["method"], here + [.key("method")]) ?? "GET").uppercased()
        guard PekitHeaders.isToken(method) else {
            throw fail(here + [.key("method")], "'\(method)' is not a method (letters, digits and !#$%&'*+-.^_`|~)")
        }
        var auth = scope.auth
        if let own = try self.auth(map["auth"], here + [.key("auth")]) { auth = own }
        return PostmanCollection.Request(
            names: scope.names, place: Self.place(at),
            description: try description(map["description"], here + [.key("description")]) ?? description(item["description"], at + [.key("description")]),
            method: method, url: try url(map["url"], here + [.key("url")]),
            headers: try headers(map["header"], here + [.key("header")]),
            body: try body(map["body"], here + [.key("body")]),
            auth: auth ?? nil, variables: scope.variables, scripts: scope.scripts,
            prunesBody: scope.prunesBody || prunes(map))
    }

    /// `{key, value, disabled}` entries; a v2.0 header list may also be one "Name: value" string a line.
    func entries(_ value: PekitValue?, _ at: [Step]) throws -> [PostmanCollection.Entry] {
        try list(value, at).enumerated().compactMap { index, element in
            let here = at + [.index(index)]
            guard let map = try object(element, here) else { return nil }
            let key = try text(map["key"], here + [.key("key")]) ?? text(map["id"], here + [.key("id")]) ?? ""
            var disabled = flag(map["disabled"])
            if case .boolean(false)? = map["enabled"] { disabled = true }
            return PostmanCollection.Entry(key: key, value: try text(map["value"], here + [.key("value")]), disabled: disabled,
                                           contentType: try text(map["contentType"], here + [.key("contentType")]))
        }
    }

    func headers(_ value: PekitValue?, _ at: [Step]) throws -> [PostmanCollection.Entry] {
        guard case .string(let block)? = value else { return try entries(value, at) }
        // The SDK's Header.parse: one "Name: value" a line.
        return block.description.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).compactMap { line -> PostmanCollection.Entry? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return PostmanCollection.Entry(key: String(line[..<colon].trimmingOWS), value: String(line[line.index(after: colon)...].trimmingOWS), disabled: false)
        }
    }

    func url(_ value: PekitValue?, _ at: [Step]) throws -> PostmanCollection.URL {
        switch value {
        case nil, .null?: return PostmanCollection.URL()
        case .string(let raw)?: return PostmanURLParser.parse(raw.description)
        default: break
        }
        guard let map = try object(value, at) else { return PostmanCollection.URL() }
        // An object with only its raw text (as some exporters write it) is read from the text.
        if map["host"] == nil, map["path"] == nil, let raw = try text(map["raw"], at + [.key("raw")]) {
            var url = PostmanURLParser.parse(raw)
            let variables = try entries(map["variable"], at + [.key("variable")])
            if !variables.isEmpty { url.variables = variables }
            return url
        }
        var url = PostmanCollection.URL()
        url.protocol = try text(map["protocol"], at + [.key("protocol")])
        url.port = try text(map["port"], at + [.key("port")])
        url.hash = try text(map["hash"], at + [.key("hash")])
        switch map["host"] {
        case .array(let parts)?: url.host = try parts.enumerated().map { try text($1, at + [.key("host"), .index($0)]) ?? "" }.joined(separator: ".")
        default: url.host = try text(map["host"], at + [.key("host")])
        }
        switch map["path"] {
        case .array(let parts)?:
            url.path = try parts.enumerated().map { index, part in
                // v2.0 allows a segment written as {type, value}.
                if case .map(let segment) = part { return try text(segment["value"], at + [.key("path"), .index(index), .key("value")]) ?? "" }
                return try text(part, at + [.key("path"), .index(index)]) ?? ""
            }
        case .string(let text)?:
            let trimmed = text.description.drop { $0 == "/" }
            url.path = text.description == "/" ? [""] : (trimmed.isEmpty ? nil : trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
        default: break
        }
        url.query = try entries(map["query"], at + [.key("query")])
        url.variables = try entries(map["variable"], at + [.key("variable")])
        return url
    }

    func body(_ value: PekitValue?, _ at: [Step]) throws -> PostmanCollection.Body? {
        guard let map = try object(value, at) else { return nil }
        if flag(map["disabled"]) { return nil }
        guard let mode = try text(map["mode"], at + [.key("mode")]) else { return nil }
        switch mode {
        case "raw":
            var language: String?
            if case .map(let options)? = map["options"], case .map(let raw)? = options["raw"] {
                language = try text(raw["language"], at + [.key("options"), .key("raw"), .key("language")])
            }
            return .raw(try text(map["raw"], at + [.key("raw")]) ?? "", language: language)
        case "urlencoded": return .urlencoded(try entries(map["urlencoded"], at + [.key("urlencoded")]))
        case "formdata":
            let place = at + [.key("formdata")]
            return .formdata(try list(map["formdata"], place).enumerated().compactMap { index, element in
                let here = place + [.index(index)]
                guard let field = try object(element, here) else { return nil }
                let isFile = try text(field["type"], here + [.key("type")]) == "file"
                var files: [String] = []
                switch field["src"] {
                case .array(let sources)?: files = try sources.enumerated().compactMap { try text($1, here + [.key("src"), .index($0)]) }
                default: if let src = try text(field["src"], here + [.key("src")]) { files = [src] }
                }
                return PostmanCollection.FormPart(key: try text(field["key"], here + [.key("key")]) ?? "", value: try text(field["value"], here + [.key("value")]),
                                                  files: files, isFile: isFile, disabled: flag(field["disabled"]),
                                                  contentType: try text(field["contentType"], here + [.key("contentType")]))
            })
        case "file":
            let file = try object(map["file"], at + [.key("file")])
            return .file(try text(file?["src"], at + [.key("file"), .key("src")]))
        case "graphql":
            let graphql = try object(map["graphql"], at + [.key("graphql")])
            return .graphql(query: try text(graphql?["query"], at + [.key("graphql"), .key("query")]) ?? "",
                            variables: try text(graphql?["variables"], at + [.key("graphql"), .key("variables")]))
        default:
            throw fail(at + [.key("mode")], "the body mode '\(mode)' is not one of raw, urlencoded, formdata, file, graphql")
        }
    }

    /// An auth block: nil when none is written (the request inherits), `.some(nil)` for `noauth`.
    func auth(_ value: PekitValue?, _ at: [Step]) throws -> PostmanCollection.Auth?? {
        guard let map = try object(value, at) else { return nil }
        guard let type = try text(map["type"], at + [.key("type")]) else { throw fail(at, "an auth with no type") }
        if type == "noauth" { return .some(nil) }
        if type == "inherit" { return nil }
        var parameters: [String: String] = [:]
        switch map[ByteString(type)] {
        case .array?: for entry in try entries(map[ByteString(type)], at + [.key(type)]) { parameters[entry.key] = entry.value ?? "" }
        case .map(let fields)?: for field in fields.entries { parameters[field.key.description] = try text(field.value, at + [.key(type), .key(field.key.description)]) ?? "" }
        default: break
        }
        return .some(PostmanCollection.Auth(type: type, parameters: parameters, place: Self.place(at)))
    }

    func scripts(_ value: PekitValue?, _ at: [Step], owner: String) throws -> [PostmanCollection.Script] {
        try list(value, at).enumerated().compactMap { index, element in
            let here = at + [.index(index)]
            guard let event = try object(element, here), !flag(event["disabled"]) else { return nil }
            let listen = try text(event["listen"], here + [.key("listen")]) ?? "?"
            guard let script = try object(event["script"], here + [.key("script")]) else { return nil }
            var lines: [String]
            switch script["exec"] {
            case .array(let exec)?: lines = try exec.enumerated().map { try text($1, here + [.key("script"), .key("exec"), .index($0)]) ?? "" }
            default: lines = (try text(script["exec"], here + [.key("script"), .key("exec")]) ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
            // A script of blank lines (as the app saves an empty editor) holds nothing to run.
            guard lines.contains(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
            return PostmanCollection.Script(listen: listen, lines: lines, owner: owner)
        }
    }
}
