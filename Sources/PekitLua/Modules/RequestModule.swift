import CLua
import CLuaShim
import PekitCore
import PekitHTTP

/// `pekit.request{…}`: builds a request; the result has `method`, `url`, `headers`, `body`,
/// and `:raw()`, `:curl()`, `:json()`, `:write_body(path)`.
package enum RequestModule: LuaModule {
    static let name = "request"

    /// What the module keeps for one runtime: the built requests its scripts hold.
    final class State {
        let requests = LuaHandleTable<StoredRequest>(metatable: "pekit.request")
    }

    static func state(_ runtime: LuaRuntime) -> State { runtime.moduleState(State.self, State.init) }

    /// The request of the handle at `index`, or nil when the value there is something else.
    package static func heldRequest(at index: Int32, in runtime: LuaRuntime) -> StoredRequest? {
        state(runtime).requests.object(at: index, in: runtime)
    }

    static let requestFields = ["method", "keep_method_case", "url", "url_as_curl", "path_as_is", "base", "params", "policy", "params_in", "methods_in_query", "headers", "json", "form",
                                "body", "body_file", "upload", "content_type", "multipart", "boundary", "auth", "jar", "connect", "sign", "target", "compressed",
                                "user_agent", "referer", "range", "cookie"] + CookiesModule.contextFields

    /// The request of the handle at `index`, with its send defaults.
    static func storedRequest(at index: Int32, _ call: LuaCall, expected: String = "request") throws -> StoredRequest {
        try state(call.runtime).requests.object(at: index, call, expected: expected)
    }

    static func request(at index: Int32, _ call: LuaCall) throws -> PekitRequest { try storedRequest(at: index, call).request }

    /// Reads the fields of a request table into a builder (errors name it argument #1, as the
    /// user wrote it, whatever its stack slot). `alsoAllowed` are other fields the caller reads
    /// from the same table (send options).
    /// `url` and `method`, when given, come from the call (`pekit.http.get(url, …)`) and may not
    /// be fields too.
    /// `fields`, when given, is the table already read (its names checked once for the request
    /// and its send options: `HTTPModule.batchItem`).
    static func requestBuilder(from call: LuaCall, table n: Int32, alsoAllowed: [String] = [], fields given: LuaFields? = nil, url fixedURL: String? = nil,
                               method fixedMethod: String? = nil, argument: Int32 = 1) throws -> RequestBuilder {
        let runtime = call.runtime, stack = call.stack
        guard let fields = try given ?? LuaFields.read(call, argument: argument, known: Self.requestFields + alsoAllowed.filter { !Self.requestFields.contains($0) }, at: n) else {
            throw call.typeError(argument, expected: "table")
        }
        // A URL value (pekit.url) is taken as its href.
        let fieldURL = try fields.with("url") { try URLModule.urlOrString(at: $0, call) }, fieldMethod = try fields.string("method")
        if fixedURL != nil && fieldURL != nil { throw fields.error("url", "the URL is the first argument") }
        if let fixedMethod, fieldMethod != nil { throw fields.error("method", "this function sends \(fixedMethod)") }
        guard let url = fixedURL ?? fieldURL else { throw call.badArgument(argument, "a request needs a field \"url\"") }
        var builder = RequestBuilder(url: url)
        if let method = fixedMethod ?? fieldMethod { builder.method = .init(method) }
        // The method as written ("wHat"), as curl's -X sends it; upper-cased otherwise.
        builder.keepsMethodCase = try fields.flag("keep_method_case") ?? false
        builder.uploadsAsCurl = try fields.flag("upload") ?? false
        // The URL as curl reads its command line (`pekit import curl` writes this where the two
        // readings differ), and its dot segments kept as with curl's --path-as-is.
        builder.readsURLAsCurl = try fields.flag("url_as_curl") ?? false
        builder.keepsDotSegments = try fields.flag("path_as_is") ?? false
        builder.base = try fields.with("base") { try URLModule.urlOrString(at: $0, call) }
        if let placement = try fields.choice("params_in", ["query", "body", "auto"]) {
            builder.placement = RequestBuilder.ParameterPlacement(rawValue: placement) ?? .auto
        }
        let contentType = try fields.string("content_type")
        var bodies: [RequestBody] = []
        if let path = try fields.string("body_file") {
            try call.require(.files, for: "field \"body_file\"")
            bodies.append(.file(path, contentType: contentType))
        }
        if let mappings = try fields.with("connect", { try hostMappings(at: $0, call) }) { builder.connect = mappings }
        builder.boundary = try fields.string("boundary")
        builder.target = try fields.string("target")
        if let policy = try fields.with("policy", { try PolicyModule.policy(from: call, argument: $0) }) { builder.policy = policy }
        builder.params = try fields.value("params")
        if let json = try fields.value("json") { bodies.append(.json(json)) }
        if let form = try fields.value("form") { bodies.append(.form(form)) }
        if let bytes = try fields.bytes("body") { bodies.append(.bytes(bytes, contentType: contentType)) }
        if let agent = try fields.with("user_agent", { i -> String? in
            if stack.type(i) == LUA_TBOOLEAN && !stack.bool(i) { return nil }
            guard stack.type(i) == LUA_TSTRING, let text = stack.string(i) else { throw fields.mismatch("user_agent", expected: "a string, or false for none") }
            return text
        }) { builder.userAgent = agent }
        builder.referer = try fields.string("referer")
        builder.range = try fields.string("range")
        builder.cookie = try fields.string("cookie")
        if try fields.flag("compressed") == true { builder.acceptEncoding = PekitClient.acceptEncoding }
        builder.environment = runtime.environment
        if let methods = try fields.strings("methods_in_query") { builder.methodsInQuery = Set(methods.map { $0.uppercased() }) }
        if let headers = try fields.with("headers", { try headerFields(at: $0, fields, call) }) { builder.headers = headers }
        // auth = {user = …, password = …} (Basic), or {bearer = TOKEN} (OAuth 2.0, RFC 6750).
        try fields.with("auth", { i in
            guard let credentials = try LuaFields.read(call, argument: argument, known: ["user", "password", "bearer"], at: i) else {
                throw fields.error("auth", "expected {user = …, password = …} or {bearer = …}")
            }
            if let token = try credentials.string("bearer") {
                builder.bearerToken = token
            } else if let user = try credentials.string("user"), let password = try credentials.string("password") {
                builder.basicAuth = (user, password)
            } else {
                throw fields.error("auth", "expected {user = …, password = …} or {bearer = …}")
            }
        })
        if let jar = try fields.with("jar", { try CookiesModule.jar(at: $0, call) }) { builder.jar = jar }
        // The jar's context, for the Cookie field it gives and, sent, for every hop.
        try CookiesModule.readContext(fields, into: &builder.cookieContext)
        if let signer = try fields.with("sign", { try SignModule.requestSigner(at: $0, call, argument: argument) }) { builder.signer = signer }
        if let parts = try fields.value("multipart") {
            guard case .array(let items) = parts else { throw fields.error("multipart", "expected a list of parts") }
            bodies.append(.multipart(try items.enumerated().map { i, item in try multipartPart(item, number: i + 1, call) }))
        }
        guard bodies.count <= 1 else { throw LuaArgumentError("give one body: json, form, body, body_file or multipart") }
        builder.body = bodies.first ?? .none
        return builder
    }

    /// `headers`: a table of names to values (`{["X-A"] = "1", Accept = false}`, in the order of
    /// the names), a `pekit.ordered` table (its order), or a list of `{name, value}` pairs (its
    /// order, a name repeated as often as given: `{{"X-Dup", "a"}, {"X-Dup", "b"}}`; a request's
    /// `headers` is one), where an entry may also be a whole line as curl's `-H` takes it
    /// (`"X-A:1"`, sent as written). `false` removes a default field; numbers are written as Lua
    /// writes them.
    private static func headerFields(at index: Int32, _ fields: LuaFields, _ call: LuaCall) throws -> [RequestBuilder.Header] {
        let runtime = call.runtime, stack = call.stack
        guard stack.type(index) == LUA_TTABLE else { throw fields.mismatch("headers", expected: "a table of header names to values, or a list of {name, value} pairs") }
        if let plain = try plainHeaderMap(at: index, runtime) { return plain }
        let ordered = runtime.marker(of: index) == .ordered
        let value: PekitValue
        do { value = try runtime.value(at: index, path: "headers") } catch { throw LuaArgumentError("\(error)") }
        func header(_ name: PekitValue, _ value: PekitValue, _ place: String) throws -> RequestBuilder.Header {
            guard case .string(let name) = name else { throw fields.error("headers", "\(place): a header is named by a string") }
            switch value {
            case .boolean(false): return RequestBuilder.Header(name.description, nil)
            case .string(let text): return RequestBuilder.Header(name.description, bytes: text.bytes)
            case .integer(let n): return RequestBuilder.Header(name.description, String(n))
            case .number(let x): return RequestBuilder.Header(name.description, x.luaString)
            default: throw fields.error("headers", "header \"\(name)\" must be a string, or false to remove it")
            }
        }
        switch value {
        case .map(let map):
            let list = try map.entries.map { try header(.string($0.key), $0.value, "\"\($0.key)\"") }
            return ordered ? list : inNameOrder(list)
        case .array(let items):
            return try items.enumerated().map { i, item in
                if case .string(let line) = item {
                    do { return try RequestBuilder.Header(lineBytes: line.bytes) } catch { throw fields.error("headers", "entry \(i + 1): \(error)") }
                }
                guard case .array(let pair) = item, pair.count == 2 else {
                    throw fields.error("headers", "entry \(i + 1) must be a {name, value} pair, or a line \"Name: value\"")
                }
                return try header(pair[0], pair[1], "entry \(i + 1)")
            }
        default:
            return []
        }
    }

    /// A table of names to strings without a metatable (nearly every request's `headers`), read
    /// straight into the list `headerFields` makes of it through a `PekitValue` (the names in
    /// byte order, then by their lower case: `PekitMap(unordered:)`, then the sort above); nil
    /// for any other table, which that reading takes. A load script's function makes one a request.
    static func plainHeaderMap(at index: Int32, _ runtime: LuaRuntime) throws -> [RequestBuilder.Header]? {
        let stack = runtime.stack, L = runtime.L
        if lua_getmetatable(L, index) != 0 { stack.pop(); return nil }
        var entries: [(name: [UInt8], value: [UInt8])] = []
        stack.pushNil()
        while lua_next(L, index) != 0 {
            guard stack.type(-2) == LUA_TSTRING, stack.type(-1) == LUA_TSTRING, let name = stack.bytes(-2), let value = stack.bytes(-1) else {
                stack.pop(2)
                return nil
            }
            // Charged as the general reading charges each string it copies.
            if name.count > 64 { try MemoryBudget.charge(name.count) }
            if value.count > 64 { try MemoryBudget.charge(value.count) }
            entries.append((name, value))
            stack.pop()
        }
        if entries.count > 1 { entries.sort { $0.name.lexicographicallyPrecedes($1.name) } }
        let list = entries.map { RequestBuilder.Header(String(decoding: $0.name, as: UTF8.self), bytes: $0.value) }
        return inNameOrder(list)
    }

    /// A map's header fields in the order they are sent: by name, case aside.
    private static func inNameOrder(_ list: [RequestBuilder.Header]) -> [RequestBuilder.Header] {
        list.count > 1 ? list.sorted { $0.name.lowercased() < $1.name.lowercased() } : list
    }

    /// One part of `multipart = {…}`: `{name=, value=|data=|path=, filename=, type=}`.
    private static func multipartPart(_ item: PekitValue, number: Int, _ call: LuaCall) throws -> MultipartBody.Part {
        guard case .map(let part) = item, case .string(let name)? = part["name"] else {
            throw call.badArgument(1, "multipart[\(number)] needs a name")
        }
        let known: Set<ByteString> = ["name", "value", "data", "path", "filename", "type"]
        if let unknown = part.entries.first(where: { !known.contains($0.key) }) {
            throw call.badArgument(1, "multipart[\(number)]: unknown field \"\(unknown.key)\"; known: name, value, data, path, filename, type")
        }
        func text(_ key: ByteString) -> String? { if case .string(let v)? = part[key] { return v.description }; return nil }
        let source: MultipartBody.Part.Source
        if let path = text("path") {
            try call.require(.files, for: "multipart[\(number)].path")
            source = .file(path)
        } else if case .string(let data)? = part["data"] {
            source = .data(data.bytes)
        } else if case .string(let data)? = part["value"] {
            source = .data(data.bytes)
        } else {
            throw call.badArgument(1, "multipart[\(number)] needs value, data or path")
        }
        var filename = text("filename")
        if filename == nil, case .file(let path) = source { filename = String(path.split(separator: "/").last ?? "") }
        return MultipartBody.Part(name: name.description, filename: filename, contentType: text("type"), source: source)
    }

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let stack = runtime.stack, L = runtime.L
        let setFunction = runtime.setFunction
        let meta = state(runtime).requests.install(in: runtime)
        setFunction(meta, "request", "__tostring") { call in
            let r = try request(at: 1, call)
            call.stack.push("request \(r.method) \(r.url)"); return 1
        }
        stack.newTable()
        let methods = stack.top
        setFunction(methods, "request", "raw") { call in call.stack.push(try request(at: 1, call).raw()); return 1 }
        setFunction(methods, "request", "curl") { call in call.stack.push(try request(at: 1, call).curl()); return 1 }
        setFunction(methods, "request", "header") { call in
            // The first value of a header field, by case-insensitive name (as r:header on responses).
            if let value = try request(at: 1, call).headers[try call.string(2)] { call.stack.push(value) } else { call.stack.pushNil() }
            return 1
        }
        setFunction(methods, "request", "send") { call in
            try call.require(.network)
            let stored = try storedRequest(at: 1, call)
            return try HTTPModule.send(stored.request, options: try HTTPModule.sendOptions(from: call, argument: 2, base: stored.sendDefaults), call)
        }
        setFunction(methods, "request", "json") { call in
            let r = try request(at: 1, call)
            call.stack.push(JSONText.write(r.summary))
            return 1
        }
        setFunction(methods, "request", "write_body") { call in
            try call.require(.files)
            let r = try request(at: 1, call)
            let path = try call.string(2)
            // Complete or not at all, like every file pekit writes.
            let writer = try PekitCore.Files.AtomicWriter(path: path)
            try r.writeBody { chunk in try writer.write(chunk) }
            try writer.commit()
            let written = writer.count
            call.stack.push(integer: Int64(written))
            return 1
        }
        stack.rawSet(meta, "__methods")
        // Fields are read from the Swift request; methods come from the table above.
        setFunction(meta, "request", "__index") { call in
            let r = try request(at: 1, call)
            let key = call.stack.string(2) ?? ""
            switch key {
            case "method": call.stack.push(r.method.rawValue)
            case "url": call.stack.push(r.url)
            case "target": call.stack.push(r.target)
            case "body": call.stack.push(try r.bodyBytes())
            case "headers":
                call.stack.newTable(narr: Int32(r.headers.fields.count))
                for (i, f) in r.headers.fields.enumerated() {
                    call.stack.newTable(narr: 2)
                    call.stack.push(f.name); call.stack.rawSetIndex(-2, 1)
                    call.stack.push(f.value); call.stack.rawSetIndex(-2, 2)
                    call.stack.rawSetIndex(-2, Int64(i + 1))
                }
                call.runtime.getRegistry(.headersMetatable)
                lua_setmetatable(call.L, -2)
            default:
                _ = luaL_getmetafield(call.L, 1, "__methods")
                _ = call.stack.rawGet(-1, key)
            }
            return 1
        }
        stack.pop()

        runtime.pushFunction("pekit.request") { call in
            // Called as pekit.request{…}: argument 1 is the module table, 2 the fields.
            let n: Int32 = call.stack.type(1) == LUA_TTABLE && call.count >= 2 ? 2 : 1
            try call.table(n)
            let builder = try requestBuilder(from: call, table: n)
            pushRequest(try builder.build(), builder: builder, in: call.runtime)
            return 1
        }
        stack.newTable()
        stack.pushValue(-2)
        stack.rawSet(-2, "__call")
        stack.newTable()
        stack.pushValue(-2)
        lua_setmetatable(L, -2)
        // pekit.request is a callable table, so later modules (pekit.request.xxx) can hang off it.
        stack.rawSet(pekit, "request")
        stack.pop(2)
    }

    /// Pushes a request handle, with the send options its builder implies.
    static func pushRequest(_ request: PekitRequest, builder: RequestBuilder, in runtime: LuaRuntime) {
        state(runtime).requests.push(StoredRequest(request: request, sendDefaults: SendOptions(cookiesOf: builder)), in: runtime)
    }

    /// A `connect` table: `{["logical:port"] = "address:port", …}`, in a defined order.
    static func hostMappings(at index: Int32, _ call: LuaCall) throws -> [HostMapping] {
        let stack = call.stack
        guard stack.type(index) == LUA_TTABLE else { throw LuaArgumentError("field \"connect\" must be a table {[\"host:port\"] = \"address:port\"}") }
        var mappings: [HostMapping] = []
        try call.runtime.forEachRaw(index) {
            guard stack.type(-2) == LUA_TSTRING, stack.type(-1) == LUA_TSTRING, let key = stack.string(-2), let value = stack.string(-1) else {
                throw LuaArgumentError("field \"connect\" maps strings to strings, as {[\"api.example.com:443\"] = \"203.0.113.7:443\"}")
            }
            mappings.append(try HostMapping(key, value))
        }
        return mappings.sorted { ($0.host, $0.port ?? 0) < ($1.host, $1.port ?? 0) }
    }
}
