import CLua
import Foundation
import CLuaShim
import PekitCore
import PekitHTTP

/// A built request as a handle keeps it: the request and the send options its builder implies
/// (its jar, whether its Cookie header is the caller's).
struct StoredRequest {
    let request: HTTPRequest
    let sendDefaults: SendOptions
}

/// `pekit.http`: sends requests with libcurl. `send(req_or_fields [, options])`, `req:send(options)`,
/// and `get/post/put/patch/delete/head(url [, fields_and_options])`. The response is a table:
/// status, reason, http_version, headers, body, bytes, url, method, redirects, timing, address.
extension LuaRuntime {
    static let sendFields = ["jar", "follow", "max_redirects", "timeout", "connect_timeout", "insecure", "cacert",
                             "proxy", "connect", "http", "compressed", "sink", "max_body", "retry", "rate", "progress"]

    /// Send options from the table at `argument` (none: `base` as it is), on top of `base` (what
    /// the request's builder implies: its jar, its hand-written Cookie header).
    /// Ctrl-C, as every send from Lua sees it (one closure for all, not one a call).
    static let interruptPending: @Sendable () -> Bool = { pekit_interrupt_pending() != 0 }

    /// - Parameter index: where the table is, when not at argument `n` itself (an item of a list).
    func sendOptions(from call: LuaCall, argument n: Int32, at index: Int32? = nil, base: consuming SendOptions, alsoAllowed: [String] = []) throws -> SendOptions {
        var options = consume base
        options.isCancelled = Self.interruptPending
        guard !call.stack.isNoneOrNil(index ?? n),
              let fields = try LuaFields.read(call, argument: n, known: Self.sendFields + alsoAllowed, at: index) else { return options }
        if let jar = try fields.with("jar", { try jar(at: $0, call) }) { options.jar = jar }
        if let follow = try fields.flag("follow") { options.followRedirects = follow }
        let redirects = SendOptions.redirectRange
        if let limit = try fields.integer("max_redirects", in: Int64(redirects.lowerBound)...Int64(redirects.upperBound)) { options.maxRedirects = limit }
        if let timeout = try fields.seconds("timeout") { options.timeout = timeout }
        if let timeout = try fields.seconds("connect_timeout") { options.connectTimeout = timeout }
        if let insecure = try fields.flag("insecure") { options.insecure = insecure }
        options.caCertificate = try fields.string("cacert")
        options.proxy = try fields.string("proxy")
        if let mappings = try fields.with("connect", { try hostMappings(at: $0, call) }) { options.connect = mappings }
        if let version = try fields.choice("http", ["1.1", "2", "auto"]) {
            options.version = SendOptions.Version(rawValue: version == "auto" ? "automatic" : version) ?? .automatic
        }
        if let compressed = try fields.flag("compressed") { options.compressed = compressed }
        if let limit = try fields.integer("max_body", in: 0...Int64.max) { options.maxBody = limit }
        if let retry = try fields.with("retry", { try retryPolicy(at: $0, call, argument: n) }) { options.retry = retry }
        try fields.with("progress") { i in
            guard stack.type(i) == LUA_TFUNCTION else { throw fields.mismatch("progress", expected: "a function(info)") }
            stack.pushValue(i)
            let callback = LuaCallback(runtime: self, origin: "progress")
            // {downloaded=, total=, uploaded=, upload_total=, elapsed=}. An error in it does not stop
            // the transfer (Ctrl-C does): it is said once on standard error.
            var warned = false
            options.progress = { p in
                let info = PekitValue.map(PekitMap(ordered: [
                    .init(key: "downloaded", value: .integer(p.downloaded)), .init(key: "total", value: .integer(p.downloadTotal)),
                    .init(key: "uploaded", value: .integer(p.uploaded)), .init(key: "upload_total", value: .integer(p.uploadTotal)),
                    .init(key: "elapsed", value: .number(p.elapsed)),
                ]))
                do { try callback.call([info]) { _, _ in () } } catch {
                    if !warned { warned = true; fputs("pekit.http: progress: \(error)\n", stderr) }
                }
            }
        }
        try fields.with("rate") { i in
            // "10/s": each host's requests spaced so; {"10/s", per = "all"}: every request's, whatever its host.
            var text: String?, acrossHosts = false
            if stack.type(i) == LUA_TSTRING {
                text = stack.string(i)
            } else if stack.type(i) == LUA_TTABLE {
                _ = stack.rawGetIndex(i, 1)
                text = stack.type(-1) == LUA_TSTRING ? stack.string(-1) : nil
                stack.pop()
                _ = stack.rawGet(i, "per")
                defer { stack.pop() }
                let per = stack.type(-1) == LUA_TSTRING ? stack.string(-1) : nil
                guard stack.type(-1) == LUA_TNIL || per == "host" || per == "all" else {
                    let shown = per.map { "\"\($0)\"" } ?? "a " + stack.typeName(-1)
                    throw fields.error("rate", "per is \"host\" (each host paced on its own, the default) or \"all\" (one pace for every host), not \(shown)")
                }
                acrossHosts = per == "all"
            }
            guard let text else { throw fields.mismatch("rate", expected: "\"COUNT/s\" (or /m, /h), or {\"COUNT/s\", per = \"host\" or \"all\"}") }
            // One limiter per rate for the whole run: requests made with the same rate share it.
            let key = acrossHosts ? text + " per all" : text
            if let shared = httpState.limiters[key] { options.rate = shared } else {
                do { options.rate = try RateLimiter(text, acrossHosts: acrossHosts) } catch { throw fields.error("rate", "\(error)") }
                httpState.limiters[key] = options.rate
            }
        }
        try fields.with("sink") { i in
            switch stack.type(i) {
            case LUA_TSTRING: options.sink = .file(stack.string(i) ?? "")
            case LUA_TFUNCTION:
                stack.pushValue(i)
                let callback = LuaCallback(runtime: self, origin: "sink")
                options.sink = .custom { chunk in try callback.call([.string(ByteString(chunk))]) { _, _ in () } }
            default:
                throw fields.mismatch("sink", expected: "a file path or a function(chunk)")
            }
        }
        return options
    }

    /// `retry = {attempts=, on={429, 503, "connect", "timeout", …}, backoff={base=, max=, jitter=},
    /// all_methods=, max_time=}` (`retry = true`: the defaults).
    func retryPolicy(at index: Int32, _ call: LuaCall, argument n: Int32) throws -> RetryPolicy {
        var policy = RetryPolicy()
        if stack.type(index) == LUA_TBOOLEAN {
            guard stack.bool(index) else { throw call.badArgument(n, "field \"retry\": true or a table of retry options") }
            return policy
        }
        guard let fields = try LuaFields.read(call, argument: n, known: ["attempts", "on", "backoff", "all_methods", "max_time"], at: index) else {
            throw call.badArgument(n, "field \"retry\": true or a table of retry options")
        }
        if let attempts = try fields.integer("attempts", in: 1...100) { policy.attempts = attempts }
        try fields.with("on") { i in
            guard stack.type(i) == LUA_TTABLE else { throw fields.mismatch("on", expected: "a list of statuses and \"connect\", \"timeout\" or \"any\"") }
            policy.statuses = []; policy.onConnectFailure = false; policy.onTimeout = false
            for k in 0..<stack.rawLength(i) {
                _ = stack.rawGetIndex(i, Int64(k + 1))
                defer { stack.pop() }
                if let status = stack.integer(-1), (100...599).contains(status) { policy.statuses.insert(Int(status)); continue }
                switch stack.string(-1) {
                case "connect": policy.onConnectFailure = true
                case "timeout": policy.onTimeout = true
                case "any": policy.onAnyError = true
                default: throw fields.error("retry", "on[\(k + 1)]: a status (100–599), \"connect\", \"timeout\" or \"any\"")
                }
            }
        }
        try fields.with("backoff") { i in
            guard let backoff = try LuaFields.read(call, argument: n, known: ["base", "max", "jitter"], at: i) else {
                throw fields.mismatch("backoff", expected: "{base =, max =, jitter =}")
            }
            if let base = try backoff.seconds("base") { policy.baseDelay = base }
            if let max = try backoff.seconds("max") { policy.maxDelay = max }
            if let jitter = try backoff.flag("jitter") { policy.jitter = jitter }
        }
        if let all = try fields.flag("all_methods") { policy.allMethods = all }
        policy.maxTime = try fields.seconds("max_time")
        return policy
    }

    /// Says `warning` on standard error, once for this runtime (nil: nothing to say).
    func warnOnce(_ warning: String?, from module: String) {
        guard let warning, httpState.warned.insert(warning).inserted else { return }
        fputs("\(module): warning: \(warning)\n", stderr)
    }

    /// The options as this runtime sends with them: recorded in the HAR log when there is one;
    /// the `insecure = true` warning and each notice said once.
    func prepared(_ given: consuming SendOptions, for request: HTTPRequest) -> SendOptions {
        var options = consume given
        if let har = harLog { options.record = { har.add($0, $1, started: $2) } }
        options.notice = { [weak self] in self?.warnOnce($0.text(.lua), from: "pekit.http") }
        if options.insecure && !httpState.warnedInsecure && request.url.lowercased().hasPrefix("https:") {
            httpState.warnedInsecure = true
            fputs("pekit.http: warning: insecure = true: TLS certificates and host names are not checked\n", stderr)
        }
        return options
    }

    /// The runtime's client (its connection cache), made on first use.
    func httpClient() throws -> HTTPClient {
        if let client = httpState.client { return client }
        do {
            let client = try HTTPClient()
            httpState.client = client
            return client
        } catch {
            throw LuaArgumentError("\(error)")
        }
    }

    /// What a failed send says to the script.
    static func message(for error: Error, _ request: HTTPRequest) -> String {
        if error is RequestError { return "\(request.method) \(request.url): \(error)" }
        return "\(error)"
    }

    /// Sends and pushes the response table. In a task (`pekit.spawn`) the task is suspended
    /// instead, and resumed with the response (or the error) when the transfer is over.
    /// - Returns: the count of values pushed, or PEKIT_YIELD.
    func send(_ request: HTTPRequest, options given: consuming SendOptions, _ call: LuaCall) throws -> Int32 {
        var options = prepared(given, for: request)
        let client = try httpClient()
        if let task = tasks.suspendable(call.L), !client.engine.isRunning {
            let name = call.name, scheduler = tasks
            lua_settop(call.L, 0)
            task.state = .waiting
            client.engine.add(request, options: options) { result in
                scheduler.wake(task) { runtime in
                    switch result {
                    case .success(let response):
                        runtime.stack.push(bool: true)
                        runtime.push(response: response)
                    case .failure(let error):
                        runtime.stack.push(bool: false)
                        runtime.stack.push("\(name): \(Self.message(for: error, request))")
                    }
                    return 2
                }
            }
            return PEKIT_YIELD
        }
        // A download to a file the script does not watch: pekit run's progress line shows it.
        var display: ProgressDisplay?
        if case .file = options.sink, options.progress == nil, let shown = progressDisplay {
            display = shown
            options.progress = shown.download
        }
        defer { display?.finish() }
        let response: HTTPResponse
        // A sink function that sends again while a transfer runs gets an engine of its own (the client sees to it).
        do { response = try client.send(request, options: options) } catch where error is HTTPError || error is RequestError {
            throw LuaArgumentError(Self.message(for: error, request))
        }
        push(response: response)
        return 1
    }

    /// Pushes the response table: the fields of one value made in C in one call (`pekit_push_response`),
    /// then the redirects and the headers (a pair per call). This runs per request.
    func push(response r: HTTPResponse) {
        let stack = self.stack
        var reason = r.reason, version = r.httpVersion, url = r.url, method = r.method, address = r.remoteAddress
        func span(_ bytes: UnsafeBufferPointer<UInt8>) -> pekit_span {
            pekit_span(bytes: bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, length: bytes.count)
        }
        reason.withUTF8 { reason in version.withUTF8 { version in url.withUTF8 { url in method.withUTF8 { method in
            address.withUTF8 { address in r.body.withUnsafeBufferPointer { body in
                var fields = pekit_response_fields(
                    status: Int64(r.status), bytes: Int64(r.bodyLength), attempts: Int64(r.attempts),
                    reason: span(reason), http_version: span(version), url: span(url), method: span(method), body: span(body),
                    remote_address: span(address), remote_port: Int64(r.remotePort),
                    dns: r.timing.dns, connect: r.timing.connect, tls: r.timing.tls, first_byte: r.timing.firstByte, total: r.timing.total)
                pekit_push_response(L, &fields, 2)
            } }
        } } } }
        stack.newTable(narr: Int32(r.redirects.count))
        for (i, hop) in r.redirects.enumerated() {
            stack.newTable(nrec: 4)
            stack.push(hop.method); stack.rawSet(-2, "method")
            stack.push(hop.url); stack.rawSet(-2, "url")
            stack.push(integer: Int64(hop.status)); stack.rawSet(-2, "status")
            stack.push(hop.location); stack.rawSet(-2, "location")
            stack.rawSetIndex(-2, Int64(i + 1))
        }
        stack.rawSet(-2, "redirects")
        stack.newTable(narr: Int32(r.headers.count))
        for (i, field) in r.headers.enumerated() {
            var name = field.name
            name.withUTF8 { name in
                field.value.bytes.withUnsafeBufferPointer { value in
                    let name = span(name), value = span(value)
                    pekit_push_pair(L, lua_Integer(i + 1), name.bytes, name.length, value.bytes, value.length)
                }
            }
        }
        getRegistry(.headersMetatable)
        lua_setmetatable(L, -2)
        stack.rawSet(-2, "headers")
        getRegistry(.responseMetatable)
        lua_setmetatable(L, -2)
    }

    func installHTTPModule(into pekit: Int32) {
        stack.newTable()
        let http = stack.top
        setFunction(http, "pekit.http", "send") { call in
            try call.require(.network)
            let runtime = call.runtime
            if runtime.handleID(at: 1, metatable: Self.requestMetatable) != nil {
                let stored = try runtime.storedRequest(at: 1, call)
                return try runtime.send(stored.request, options: try runtime.sendOptions(from: call, argument: 2, base: stored.sendDefaults), call)
            }
            guard call.stack.type(1) == LUA_TTABLE else { throw call.typeError(1, expected: "request or table of request fields") }
            let builder = try runtime.requestBuilder(from: call, table: 1)
            let request = try builder.build()
            return try runtime.send(request, options: try runtime.sendOptions(from: call, argument: 2, base: SendOptions(cookiesOf: builder)), call)
        }
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] {
            // get(url, {params=…, headers=…, jar=…, timeout=…}): request fields and send options in one table.
            setFunction(http, "pekit.http", method.lowercased()) { call in
                try call.require(.network)
                let runtime = call.runtime
                let url = try runtime.urlOrString(at: 1, call)
                var builder: RequestBuilder
                if try call.optionalTable(2) {
                    builder = try runtime.requestBuilder(from: call, table: 2, alsoAllowed: Self.sendFields, url: url, method: method, argument: 2)
                } else {
                    builder = RequestBuilder(url: url)
                    builder.method = method
                }
                let request = try builder.build()
                return try runtime.send(request, options: try runtime.sendOptions(from: call, argument: 2, base: SendOptions(cookiesOf: builder),
                                                                                   alsoAllowed: Self.requestFields), call)
            }
        }
        // A function, not a field: curl_version() initialises libcurl's TLS and LDAP libraries,
        // which every pekit start-up would otherwise pay for.
        installBatchFunctions(into: http)
        setFunction(http, "pekit.http", "curl_version") { call in call.stack.push(HTTPClient.curlVersion); return 1 }
        stack.rawSet(pekit, "http")
    }
}
