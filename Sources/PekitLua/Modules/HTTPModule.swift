import CLua
import Foundation
import CLuaShim
import PekitCore
import PekitHTTP

/// A built request as a handle keeps it: the request and the send options its builder implies
/// (its jar, whether its Cookie header is the caller's).
package final class StoredRequest {
    /// Replaced when the request is signed (`pekit.sign.*`).
    package var request: PekitRequest
    let sendDefaults: SendOptions

    init(request: PekitRequest, sendDefaults: SendOptions) {
        self.request = request
        self.sendDefaults = sendDefaults
    }
}

/// `pekit.http`: sends requests (through PekitHTTP: its own HTTP/1.1 transport or libcurl). `send(req_or_fields [, options])`, `req:send(options)`,
/// and `get/post/put/patch/delete/head(url [, fields_and_options])`. The response is a table:
/// status, reason, http_version, headers, body, bytes, url, method, redirects, timing, address.
package enum HTTPModule: LuaModule {
    static let name = "http"

    /// What the module keeps for one runtime: the client and its connection cache (made on first
    /// send), whether the `insecure = true` warning was given, and the rate limiters by their
    /// text ("10/s"): every request naming a rate shares its limiter.
    package final class State {
        var client: PekitClient?
        var warnedInsecure = false
        var limiters: [String: RateLimiter] = [:]
        /// What the options just read said of pekit's own progress line (`progress = true` or
        /// `false`), for the send that follows them; nil: the default (shown for a download to
        /// a file, on a terminal).
        var progressLine: Bool?
        /// `pekit test`: the running test's jar, for every send that names none.
        package var defaultJar: CookieJar?
        /// `pekit test`: each exchange (every hop), for the explanation of a failed expectation.
        package var exchanges: ((PekitRequest, PekitResponse) -> Void)?
        /// `pekit test --har`: the running test, named in each entry's comment.
        package var harComment: String?
        /// `pekit test --connect`: host mappings added to every send.
        package var defaultConnect: [HostMapping] = []
        /// `pekit test --timeout`: the limit of a send that gives none of its own, in seconds.
        package var defaultTimeout: Double?
        /// The event streams scripts read (`pekit.http.events`).
        let eventSources = LuaHandleTable<EventSource>(metatable: "pekit.http.events")
        /// How every send's notices reach the script's warnings: made once, not a closure a send.
        var notice: (@Sendable (SendOptions.Notice) -> Void)?
    }

    package static func state(_ runtime: LuaRuntime) -> State { runtime.moduleState(State.self, State.init) }

    /// Whether a transfer of this runtime's client is going on (a task or a sleep must not start
    /// the engine again from inside it).
    static func isSending(_ runtime: LuaRuntime) -> Bool { state(runtime).client?.engine.isRunning == true }

    /// The send options' fields, from `SendOptions.fields` (one row an option).
    static let sendFields = SendOptions.fieldNames
    /// Each send option's row in `SendOptions.fields`, by name.
    static let sendFieldRows = Dictionary(SendOptions.fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    /// The names of a request table that is sent (`pekit.http.all`'s items, a load script's
    /// requests): the request's fields and the send options, listed once.
    static let itemFields = RequestModule.requestFields + sendFields.filter { !RequestModule.requestFields.contains($0) }
    static let itemFieldSet = Set(itemFields)

    /// Ctrl-C, as every send from Lua sees it (one closure for all, not one a call).
    static let interruptPending: @Sendable () -> Bool = { pekit_interrupt_pending() != 0 }

    /// Send options from the table at `argument` (none: `base` as it is), on top of `base` (what
    /// the request's builder implies: its jar, its hand-written Cookie header). Each row of
    /// `SendOptions.fields` is read by its kind; the `.script` ones by `scriptReaders`.
    /// - Parameter index: where the table is, when not at argument `n` itself (an item of a list).
    /// - Parameter fields: when given, the table already read (`batchItem`).
    static func sendOptions(from call: LuaCall, argument n: Int32, at index: Int32? = nil, base: consuming SendOptions, alsoAllowed: [String] = [],
                            fields given: LuaFields? = nil) throws -> SendOptions {
        var options = consume base
        options.isCancelled = Self.interruptPending
        guard !call.stack.isNoneOrNil(index ?? n),
              let fields = try given ?? LuaFields.read(call, argument: n, known: Self.sendFields + alsoAllowed.filter { !Self.sendFields.contains($0) }, at: index) else { return options }
        // The rows the table names, in the table's order of rows (a request table names a few of
        // the fifty, or none).
        var rows: [Int] = []
        for name in fields.present { if let row = Self.sendFieldRows[name] { rows.append(row) } }
        rows.sort()
        for row in rows {
            let field = SendOptions.fields[row]
            let value: SendOptions.Field.Value?
            switch field.kind {
            case .flag: value = try fields.flag(field.name).map { .flag($0) }
            case .seconds: value = try fields.seconds(field.name).map { .number($0) }
            case .count(let range): value = try fields.integer(field.name, in: Int64(range.lowerBound)...Int64(range.upperBound)).map { .integer($0) }
            case .bytes: value = try fields.integer(field.name, in: 0...Int64.max).map { .integer($0) }
            case .text: value = try fields.string(field.name).map { .text($0) }
            case .choice(let words): value = try fields.choice(field.name, words).map { .text($0) }
            case .script:
                if fields.has(field.name), let read = scriptReaders[field.name] { try read(fields, n, &options) }
                continue
            }
            if let value { field.set?(&options, value) }
        }
        return options
    }

    /// How the options only a script gives are read: each from its field of `fields` (argument
    /// `n`), into the options.
    static let scriptReaders: [String: (LuaFields, Int32, inout SendOptions) throws -> Void] = [
        "jar": { fields, _, options in
            if let jar = try fields.with("jar", { try CookiesModule.jar(at: $0, fields.call) }) { options.jar = jar }
        },
        "site_for_cookies": { fields, _, options in try CookiesModule.readSiteForCookies(fields, into: &options.cookieContext) },
        "top_level": { fields, _, options in try CookiesModule.readTopLevel(fields, into: &options.cookieContext) },
        "connect": { fields, _, options in
            if let mappings = try fields.with("connect", { try RequestModule.hostMappings(at: $0, fields.call) }) { options.connect = mappings }
        },
        "retry": { fields, n, options in
            if let retry = try fields.with("retry", { try retryPolicy(at: $0, fields.call, argument: n) }) { options.retry = retry }
        },
        "progress": { fields, _, options in
            let runtime = fields.call.runtime, stack = fields.call.stack
            try fields.with("progress") { i in
                // true: pekit's own progress line (on a terminal, under pekit run and the REPL); false: none.
                if stack.type(i) == LUA_TBOOLEAN {
                    state(runtime).progressLine = stack.bool(i)
                    return
                }
                guard stack.type(i) == LUA_TFUNCTION else { throw fields.mismatch("progress", expected: "true, false or a function(info)") }
                stack.pushValue(i)
                let callback = LuaCallback(runtime: runtime, origin: "progress")
                // {downloaded=, total=, uploaded=, upload_total=, elapsed=}. An error in it does not stop
                // the transfer (Ctrl-C does): it is said once on standard error.
                let warned = CallbackState(false)
                options.progress = { p in
                    let info = PekitValue.map(PekitMap(ordered: [
                        .init(key: "downloaded", value: .integer(p.downloaded)), .init(key: "total", value: .integer(p.downloadTotal)),
                        .init(key: "uploaded", value: .integer(p.uploaded)), .init(key: "upload_total", value: .integer(p.uploadTotal)),
                        .init(key: "elapsed", value: .number(p.elapsed.inSeconds)),
                    ]))
                    do { try callback.call([info]) { _, _ in () } } catch {
                        if !warned.value { warned.value = true; fputs("pekit.http: progress: \(error)\n", stderr) }
                    }
                }
            }
        },
        "rate": { fields, _, options in
            let runtime = fields.call.runtime, stack = fields.call.stack
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
                let state = state(runtime)
                if let shared = state.limiters[key] { options.rate = shared } else {
                    do { options.rate = try RateLimiter(text, acrossHosts: acrossHosts) } catch { throw fields.error("rate", "\(error)") }
                    state.limiters[key] = options.rate
                }
            }
        },
        "sink": { fields, _, options in
            let runtime = fields.call.runtime, stack = fields.call.stack
            try fields.with("sink") { i in
                switch stack.type(i) {
                case LUA_TSTRING: options.sink = .file(stack.string(i) ?? "")
                case LUA_TFUNCTION:
                    stack.pushValue(i)
                    let callback = LuaCallback(runtime: runtime, origin: "sink")
                    // `return false` stops the transfer: the response comes back with `stopped = true`.
                    options.sink = .custom { chunk in
                        let stop = try callback.call([.string(ByteString(chunk))]) { runtime, first in
                            runtime.stack.type(first) == LUA_TBOOLEAN && !runtime.stack.bool(first)
                        }
                        if stop { throw SendOptions.StopBody() }
                    }
                default:
                    throw fields.mismatch("sink", expected: "a file path or a function(chunk)")
                }
            }
        },
    ]

    /// `retry = {attempts=, on={429, 503, "connect", "timeout", …}, backoff={base=, max=, jitter=},
    /// all_methods=, max_time=}` (`retry = true`: the defaults).
    static func retryPolicy(at index: Int32, _ call: LuaCall, argument n: Int32) throws -> SendRetryPolicy {
        let stack = call.stack
        var policy = SendRetryPolicy()
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
            if let base = try backoff.seconds("base") { policy.baseSeconds = base }
            if let max = try backoff.seconds("max") { policy.maxSeconds = max }
            if let jitter = try backoff.flag("jitter") { policy.jitter = jitter }
        }
        if let all = try fields.flag("all_methods") { policy.allMethods = all }
        policy.maxTimeSeconds = try fields.seconds("max_time")
        return policy
    }

    /// The options as this runtime sends with them: recorded in the HAR log when there is one;
    /// the `insecure = true` warning and each notice said once.
    static func prepared(_ given: consuming SendOptions, for request: PekitRequest, in runtime: LuaRuntime) -> SendOptions {
        var options = consume given
        let state = state(runtime)
        options.hashingDigestAnswers()
        if options.jar == nil, let jar = state.defaultJar { options.jar = jar }
        if options.timeoutSeconds == nil, let limit = state.defaultTimeout { options.timeoutSeconds = limit }
        options.connect += state.defaultConnect
        // Cut short at a test's time limit, which then stops the test in its own words.
        let limit = pekit_time_limit_left(runtime.L)
        if limit >= 0 {
            let left = max(0.001, limit)
            options.timeoutSeconds = min(options.timeoutSeconds ?? left, left)
        }
        let har = runtime.harLog, exchanges = state.exchanges, comment = state.harComment
        if har != nil || exchanges != nil {
            options.record = { request, response, started in
                har?.add(request, response, started: started, comment: comment)
                exchanges?(request, response)
            }
            options.explainsCookies = true  // the HAR entries' comments say what the jar did
        }
        if state.notice == nil {
            state.notice = { [lifetime = runtime.lifetime] notice in
                if case .cookies = notice { return }  // for the HAR's comments only
                lifetime.current?.warnOnce(notice.text(.lua), from: "pekit.http")
            }
        }
        options.notice = state.notice
        if options.insecure && !state.warnedInsecure && request.url.lowercased().hasPrefix("https:") {
            state.warnedInsecure = true
            fputs("pekit.http: warning: insecure = true: TLS certificates and host names are not checked\n", stderr)
        }
        return options
    }

    /// The runtime's client (its connection cache), made on first use.
    static func httpClient(_ runtime: LuaRuntime) throws -> PekitClient {
        let state = state(runtime)
        if let client = state.client { return client }
        do {
            let client = try PekitClient()
            state.client = client
            return client
        } catch {
            throw LuaArgumentError("\(error)")
        }
    }

    /// What a failed send says to the script.
    static func message(for error: Error, _ request: PekitRequest) -> String {
        if error is RequestError { return "\(request.method) \(request.url): \(error)" }
        return luaMessage(error)
    }

    /// Sends and pushes the response table. In a task (`pekit.spawn`) the task is suspended
    /// instead, and resumed with the response (or the error) when the transfer is over.
    /// - Returns: the count of values pushed, or PEKIT_YIELD.
    static func send(_ request: PekitRequest, options given: consuming SendOptions, _ call: LuaCall) throws -> Int32 {
        let runtime = call.runtime
        var options = prepared(given, for: request, in: runtime)
        let progressLine = state(runtime).progressLine
        state(runtime).progressLine = nil
        let client = try httpClient(runtime)
        if let task = runtime.tasks.suspendable(call.L), !client.engine.isRunning {
            let name = call.name, scheduler = runtime.tasks
            lua_settop(call.L, 0)
            task.state = .waiting
            client.engine.add(request, options: options) { result in
                scheduler.wake(task) { runtime in
                    switch result {
                    case .success(let response):
                        runtime.stack.push(bool: true)
                        push(response: response, in: runtime)
                    case .failure(let error):
                        runtime.stack.push(bool: false)
                        runtime.stack.push("\(name): \(Self.message(for: error, request))")
                    }
                    return 2
                }
            }
            return PEKIT_YIELD
        }
        // A download to a file the script does not watch, or a send that asked (progress =
        // true): pekit's own progress line shows it, where there is one (a terminal).
        var display: ProgressDisplay?
        var isFile = false
        if case .file = options.sink { isFile = true }
        if options.progress == nil, progressLine ?? isFile, let shown = runtime.progressDisplay {
            display = shown
            options.progress = { shown.download($0) }
        }
        defer { display?.finish() }
        let response: PekitResponse
        // A sink function that sends again while a transfer runs gets an engine of its own (the client sees to it).
        do { response = try client.sendBlocking(request, options: options) } catch where error is HTTPError || error is RequestError {
            throw LuaArgumentError(Self.message(for: error, request))
        }
        push(response: response, in: runtime)
        return 1
    }

    /// Pushes the response table: the fields of one value made in C in one call (`pekit_push_response`),
    /// then the redirects and the headers (a pair per call). This runs per request.
    static func push(response r: PekitResponse, in runtime: LuaRuntime) {
        let stack = runtime.stack, L = runtime.L
        var reason = r.reason, version = r.httpVersion, url = r.url, method = r.method.rawValue, address = r.remoteAddress
        reason.withUTF8 { reason in version.withUTF8 { version in url.withUTF8 { url in method.withUTF8 { method in
            address.withUTF8 { address in r.body.withUnsafeBufferPointer { body in
                var fields = pekit_response_fields(
                    status: Int64(r.status), bytes: Int64(r.bodyLength), attempts: Int64(r.attempts),
                    reason: pekit_span(reason), http_version: pekit_span(version), url: pekit_span(url), method: pekit_span(method), body: pekit_span(body),
                    remote_address: pekit_span(address), remote_port: Int64(r.remotePort),
                    dns: r.timing.dns, connect: r.timing.connect, tls: r.timing.tls, first_byte: r.timing.firstByte, total: r.timing.total)
                pekit_push_response(L, &fields, 3)
            } }
        } } } }
        stack.newTable(narr: Int32(r.redirects.count))
        for (i, hop) in r.redirects.enumerated() {
            stack.newTable(nrec: 4)
            stack.push(hop.method.rawValue); stack.rawSet(-2, "method")
            stack.push(hop.url); stack.rawSet(-2, "url")
            stack.push(integer: Int64(hop.status)); stack.rawSet(-2, "status")
            stack.push(hop.location); stack.rawSet(-2, "location")
            stack.rawSetIndex(-2, Int64(i + 1))
        }
        stack.rawSet(-2, "redirects")
        // The fields, then the trailers (after a chunked body), each a list of {name, value}
        // read by name through the headers metatable.
        for (fields, key) in [(r.headers, "headers"), (r.trailers, "trailers")] {
            stack.newTable(narr: Int32(clamping: fields.count))
            for (i, field) in fields.enumerated() {
                var name = field.name
                name.withUTF8 { name in
                    field.value.bytes.withUnsafeBufferPointer { value in
                        let name = pekit_span(name), value = pekit_span(value)
                        pekit_push_pair(L, lua_Integer(i + 1), name.bytes, name.length, value.bytes, value.length)
                    }
                }
            }
            runtime.getRegistry(.headersMetatable)
            lua_setmetatable(L, -2)
            stack.rawSet(-2, key)
        }
        if r.stoppedEarly { stack.push(bool: true); stack.rawSet(-2, "stopped") }
        runtime.getRegistry(.responseMetatable)
        lua_setmetatable(L, -2)
    }

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        installTable(in: runtime, into: pekit) { http in fill(http, runtime) }
    }

    /// The request of `f(url [, t])` (`pekit.http.get`, `pekit.http.events`): the URL, and the
    /// request fields of `t` beside its send options and `alsoAllowed`.
    static func urlAndFields(_ call: LuaCall, method: String, alsoAllowed: [String]) throws -> RequestBuilder {
        let url = try URLModule.urlOrString(at: 1, call)
        if try call.optionalTable(2) {
            return try RequestModule.requestBuilder(from: call, table: 2, alsoAllowed: Self.sendFields + alsoAllowed, url: url, method: method, argument: 2)
        }
        var builder = RequestBuilder(url: url)
        builder.method = .init(method)
        return builder
    }

    private static func fill(_ http: Int32, _ runtime: LuaRuntime) {
        let setFunction = runtime.setFunction
        setFunction(http, "pekit.http", "send") { call in
            try call.require(.network)
            let runtime = call.runtime
            let request: PekitRequest, options: SendOptions
            if let stored = RequestModule.heldRequest(at: 1, in: runtime) {
                request = stored.request
                options = try sendOptions(from: call, argument: 2, base: stored.sendDefaults, alsoAllowed: Self.pollFields)
            } else {
                guard call.stack.type(1) == LUA_TTABLE else { throw call.typeError(1, expected: "request or table of request fields") }
                let builder = try RequestModule.requestBuilder(from: call, table: 1)
                request = try builder.build()
                options = try sendOptions(from: call, argument: 2, base: SendOptions(cookiesOf: builder), alsoAllowed: Self.pollFields)
            }
            if let poll = try poll(from: call, argument: 2, method: request.method.rawValue, options: options) { return try send(request, options: options, polling: poll, call) }
            return try send(request, options: options, call)
        }
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] {
            // get(url, {params=…, headers=…, jar=…, timeout=…}): request fields and send options in one table.
            setFunction(http, "pekit.http", method.lowercased()) { call in
                try call.require(.network)
                let builder = try urlAndFields(call, method: method, alsoAllowed: Self.pollFields)
                let request = try builder.build()
                let options = try sendOptions(from: call, argument: 2, base: SendOptions(cookiesOf: builder), alsoAllowed: RequestModule.requestFields + Self.pollFields)
                if let poll = try poll(from: call, argument: 2, method: method, options: options) { return try send(request, options: options, polling: poll, call) }
                return try send(request, options: options, call)
            }
        }
        // A function, not a field: curl_version() initialises libcurl's TLS and LDAP libraries,
        // which every pekit start-up would otherwise pay for.
        installBatchFunctions(into: http, in: runtime)
        installLoadFunction(into: http, in: runtime)
        installEvents(into: http, in: runtime)
        setFunction(http, "pekit.http", "curl_version") { call in call.stack.push(PekitClient.curlVersion); return 1 }
        setFunction(http, "pekit.http", "decode") { call in
            let body = try call.bytes(1), coding = try call.string(2)
            do { call.stack.push(ByteString(try ContentDecoding.decode(body, contentEncoding: coding))) } catch let failure as ContentDecoding.Failure {
                throw call.badArgument(1, failure.description)
            }
            return 1
        }
    }
}
