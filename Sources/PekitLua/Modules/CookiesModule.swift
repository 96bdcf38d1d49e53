import CLua
import CLuaShim
import Foundation
import PekitCore

/// `pekit.cookies`: RFC 6265 jars, filters from plugins, persistence.
extension LuaRuntime {
    static let jarMetatable = "pekit.cookies.jar"

    /// The public suffix list, read once per runtime (nil when the file is missing: every
    /// `jar{}` then fails with the reason, unless it says `public_suffixes = false`).
    func publicSuffixList() throws -> PublicSuffixList {
        if let list = cachedSuffixes { return list }
        let list = try PublicSuffixList.load(environment: options.environment)
        cachedSuffixes = list
        return list
    }

    /// The jar of the userdata at `index`.
    func jar(at index: Int32, _ call: LuaCall) throws -> CookieJar {
        guard let id = handleID(at: index, metatable: Self.jarMetatable) else { throw call.typeError(index, expected: "cookie jar") }
        guard let jar = jars[id] else { throw LuaArgumentError("the cookie jar was closed") }
        return jar
    }

    /// A URL as filters see it.
    static func value(of url: RequestURL) -> PekitValue {
        .map(PekitMap(ordered: [
            .init(key: "url", value: .text(url.description)), .init(key: "scheme", value: .text(url.scheme)),
            .init(key: "host", value: .text(url.host)), .init(key: "port", value: .integer(Int64(url.effectivePort))),
            .init(key: "path", value: .text(url.cookiePath)),
        ]))
    }

    static func value(of cookie: Cookie) -> PekitValue {
        var entries: [PekitMap.Entry] = [
            .init(key: "name", value: .text(cookie.name)), .init(key: "value", value: .text(cookie.value)),
            .init(key: "domain", value: .text(cookie.domain)), .init(key: "path", value: .text(cookie.path)),
            .init(key: "creation", value: .number(cookie.creation)), .init(key: "last_access", value: .number(cookie.lastAccess)),
            .init(key: "host_only", value: .boolean(cookie.hostOnly)), .init(key: "secure", value: .boolean(cookie.secure)),
            .init(key: "http_only", value: .boolean(cookie.httpOnly)), .init(key: "partitioned", value: .boolean(cookie.partitioned)),
        ]
        if let expires = cookie.expires { entries.append(.init(key: "expires", value: .number(expires))) }
        if let sameSite = cookie.sameSite { entries.append(.init(key: "same_site", value: .text(sameSite.rawValue))) }
        return .map(PekitMap(unordered: entries))
    }

    /// A cookie from a table with at least name, value and domain.
    static func cookie(from value: PekitValue, now: Double) throws -> Cookie {
        guard case .map(let map) = value else { throw LuaArgumentError("a cookie must be a table") }
        func text(_ key: ByteString) -> String? { if case .string(let s)? = map[key] { return s.description }; return nil }
        func number(_ key: ByteString) -> Double? {
            switch map[key] { case .number(let x)?: return x; case .integer(let n)?: return Double(n); default: return nil }
        }
        func flag(_ key: ByteString) -> Bool? { if case .boolean(let b)? = map[key] { return b }; return nil }
        guard let name = text("name"), let value = text("value"), let domain = text("domain") else {
            throw LuaArgumentError("a cookie needs string fields name, value and domain")
        }
        var sameSite: Cookie.SameSite?
        if let s = text("same_site") {
            guard let v = Cookie.SameSite.allCases.first(where: { $0.rawValue.lowercased() == s.lowercased() }) else {
                throw LuaArgumentError("same_site must be \"Strict\", \"Lax\" or \"None\", not \"\(s)\"")
            }
            sameSite = v
        }
        var d = domain.lowercased()
        if d.hasPrefix(".") { d.removeFirst() }
        return Cookie(name: name, value: value, domain: d, path: text("path") ?? "/", expires: number("expires"),
                      creation: number("creation") ?? 0, lastAccess: number("last_access"),
                      hostOnly: flag("host_only") ?? !domain.hasPrefix("."), secure: flag("secure") ?? false,
                      httpOnly: flag("http_only") ?? false, sameSite: sameSite, partitioned: flag("partitioned") ?? false)
    }

    func requestURL(_ call: LuaCall, _ n: Int32) throws -> RequestURL {
        do { return try RequestURL(call.string(n)) } catch let error as RequestURL.ParseError { throw call.badArgument(n, "\(error)") }
    }

    // MARK: Filters

    /// Filters from a spec: a plugin name, `{ "name", option = … }`, a table of functions, or a list of these.
    func cookieFilters(at index: Int32, _ call: LuaCall) throws -> [CookieFilter] {
        let stack = call.stack
        let i = stack.absolute(index)
        switch stack.type(i) {
        case LUA_TNIL, LUA_TNONE: return []
        case LUA_TSTRING: return [try filterFromPlugin(name: stack.string(i) ?? "", options: nil)]
        case LUA_TTABLE: break
        default: throw LuaArgumentError("filter must be a plugin name, a table of functions, or a list of these")
        }
        // A list of filters: only positional entries, each a string or a table.
        var onlyPositional = true
        try forEachRaw(i) { if !stack.isInteger(-2) { onlyPositional = false } }
        let first = stack.rawGetIndex(i, 1)
        stack.pop()
        if onlyPositional && stack.rawLength(i) > 0 && (first == LUA_TTABLE || stack.rawLength(i) > 1) {
            var result: [CookieFilter] = []
            for n in 1...stack.rawLength(i) {
                _ = stack.rawGetIndex(i, Int64(n))
                defer { stack.pop() }
                result += try cookieFilters(at: stack.top, call)
            }
            return result
        }
        if first == LUA_TSTRING {
            _ = stack.rawGetIndex(i, 1)
            let name = stack.string(-1) ?? ""
            stack.pop()
            return [try filterFromPlugin(name: name, options: i)]
        }
        return [filter(fromTable: i, name: "inline")]
    }

    /// The filter a cookie-filter plugin makes with no options (`pekit cookies --filter NAME`).
    /// - Throws: an error naming the plugin: not found, not a cookie-filter, failing to load.
    public func cookieFilter(plugin name: String) throws -> CookieFilter {
        try filterFromPlugin(name: name, options: nil)
    }

    /// A filter from a cookie-filter plugin: its table, or what its `new(options)` returns. The
    /// options are copied into the plugin's own state; its functions run there, under its limits.
    private func filterFromPlugin(name: String, options: Int32?) throws -> CookieFilter {
        let loaded = try plugins.load(name)
        let place = "plugin \"\(name)\" (\(loaded.file))"
        guard loaded.kind == .cookieFilter else {
            throw PluginError(description: "\(place) is a \(loaded.kind.rawValue), not a cookie-filter")
        }
        var optionsCopy = LuaCopy.table([], marker: nil)
        if let options {
            do { optionsCopy = try copy(at: options, path: "filter options", functions: false) } catch {
                throw LuaArgumentError("\(error)")
            }
        }
        let plugin = loaded.runtime
        let stack = plugin.stack
        let base = stack.top
        defer { stack.setTop(base) }
        loaded.push()
        let table = stack.top
        if stack.rawGet(table, "new") == LUA_TFUNCTION {
            plugin.push(copy: optionsCopy)
            do {
                try plugin.call(1, results: 1, traceback: false)
            } catch let error as LuaError {
                throw PluginError(description: "\(place): new: \(error.message)")
            }
            guard stack.type(-1) == LUA_TTABLE else {
                throw PluginError(description: "\(place): new must return a table of functions")
            }
            return plugin.filter(fromTable: stack.top, name: name, origin: place)
        }
        stack.pop()
        return plugin.filter(fromTable: table, name: name, origin: place)
    }

    /// A filter whose functions are those of the table at `index` of this runtime's current stack.
    private func filter(fromTable index: Int32, name: String, origin: String? = nil) -> CookieFilter {
        var filter = CookieFilter(name: name)
        let place = origin ?? "filter \"\(name)\""
        func callback(_ field: String) -> LuaCallback? {
            guard stack.rawGet(index, field) == LUA_TFUNCTION else { stack.pop(); return nil }
            return LuaCallback(runtime: self, origin: "\(place): \(field)")
        }
        if let host = callback("host") {
            filter.host = { url in
                try host.call([Self.value(of: url)]) { runtime, i in runtime.stack.string(i) }
            }
        }
        if let accept = callback("accept") {
            filter.accept = { cookie, url in
                try accept.call([Self.value(of: cookie), Self.value(of: url)]) { runtime, i in runtime.stack.bool(i) }
            }
        }
        if let match = callback("match") {
            filter.match = { cookie, url in
                try match.call([Self.value(of: cookie), Self.value(of: url)]) { runtime, i in runtime.stack.bool(i) }
            }
        }
        if let rewrite = callback("rewrite") {
            filter.rewrite = { cookie, url in
                try rewrite.call([Self.value(of: cookie), Self.value(of: url)]) { runtime, i in
                    runtime.stack.isNoneOrNil(i) ? nil : try Self.cookie(from: runtime.value(at: i, path: "cookie"), now: 0)
                }
            }
        }
        return filter
    }

    // MARK: The module

    func installCookiesModule(into pekit: Int32) {
        let meta = newHandleMetatable(Self.jarMetatable) { runtime, id in
            runtime.jars[id] = nil
            runtime.jarClocks[id] = nil
        }
        setFunction(meta, "jar", "__tostring") { call in
            call.stack.push("cookie jar (\(try call.runtime.jar(at: 1, call).count) cookies)"); return 1
        }
        setFunction(meta, "jar", "__len") { call in
            call.stack.push(integer: Int64(try call.runtime.jar(at: 1, call).count)); return 1
        }
        stack.newTable()
        let methods = stack.top
        setFunction(methods, "jar", "receive") { call in
            let runtime = call.runtime
            let jar = try runtime.jar(at: 1, call)
            let url = try runtime.requestURL(call, 2)
            let headers = call.stack.type(3) == LUA_TTABLE ? try call.strings(3, expected: "a list of Set-Cookie strings") : [try call.string(3)]
            var stored: [PekitValue] = [], rejected: [PekitValue] = [], removed = 0
            let evictedBefore = jar.evicted
            for header in headers {
                switch try jar.receive(header, from: url) {
                case .stored(let cookie): stored.append(Self.value(of: cookie))
                case .removed(_, let count): removed += count
                case .rejected(let name, let reason):
                    rejected.append(.map(PekitMap(unordered: [.init(key: "name", value: .text(name)), .init(key: "reason", value: .text(reason))])))
                }
            }
            runtime.push(.map(PekitMap(unordered: [
                .init(key: "stored", value: .array(stored)), .init(key: "rejected", value: .array(rejected)),
                .init(key: "removed", value: .integer(Int64(removed))),
                .init(key: "evicted", value: .integer(Int64(jar.evicted - evictedBefore))),
            ])), keepOrder: false)
            return 1
        }
        func context(_ call: LuaCall, _ n: Int32) throws -> CookieJar.RequestContext {
            var context = CookieJar.RequestContext()
            guard let fields = try LuaFields.read(call, argument: n, known: ["http_only", "same_site"]) else { return context }
            if let http = try fields.flag("http_only") { context.http = http }
            let sites = ["same-site", "cross-site-navigation", "cross-site"]
            if let site = try fields.choice("same_site", sites).flatMap(CookieJar.RequestContext.Site.init(rawValue:)) { context.site = site }
            return context
        }
        setFunction(methods, "jar", "header") { call in
            let jar = try call.runtime.jar(at: 1, call)
            if let header = try jar.header(for: try call.runtime.requestURL(call, 2), context: try context(call, 3)) {
                call.stack.push(header)
            } else {
                call.stack.pushNil()
            }
            return 1
        }
        setFunction(methods, "jar", "cookies") { call in
            let jar = try call.runtime.jar(at: 1, call)
            let list = try jar.cookies(for: try call.runtime.requestURL(call, 2), context: try context(call, 3))
            call.runtime.push(.array(list.map(Self.value(of:))), keepOrder: false)
            return 1
        }
        setFunction(methods, "jar", "all") { call in
            call.runtime.push(.array(try call.runtime.jar(at: 1, call).all.map(Self.value(of:))), keepOrder: false)
            return 1
        }
        setFunction(methods, "jar", "set") { call in
            let jar = try call.runtime.jar(at: 1, call)
            try call.table(2)
            let cookie = try Self.cookie(from: call.runtime.value(at: 2, path: "cookie"), now: jar.clock())
            jar.set(cookie)
            return 0
        }
        setFunction(methods, "jar", "delete") { call in
            let jar = try call.runtime.jar(at: 1, call)
            call.stack.push(integer: Int64(try jar.delete(for: try call.runtime.requestURL(call, 2), name: try call.optionalString(3))))
            return 1
        }
        setFunction(methods, "jar", "clock") { call in
            // jar:clock() → the jar's time; jar:clock(t) fixes it at t; jar:clock(false) follows the system clock.
            guard let id = call.runtime.handleID(at: 1, metatable: Self.jarMetatable), let clock = call.runtime.jarClocks[id] else {
                throw call.typeError(1, expected: "cookie jar")
            }
            if call.count >= 2 {
                if call.stack.type(2) == LUA_TBOOLEAN && !call.stack.bool(2) { clock.fixed = nil }
                else if let t = call.stack.number(2), t.isFinite, abs(t) <= 1e11 { clock.fixed = t }
                else { throw call.typeError(2, expected: "time in seconds since 1970 or false") }
            }
            call.stack.push(number: clock.now())
            return 1
        }
        setFunction(methods, "jar", "clear") { call in try call.runtime.jar(at: 1, call).clear(); return 0 }
        setFunction(methods, "jar", "expire") { call in
            call.stack.push(integer: Int64(try call.runtime.jar(at: 1, call).removeExpired())); return 1
        }
        setFunction(methods, "jar", "explain") { call in
            let jar = try call.runtime.jar(at: 1, call)
            let verdicts = try jar.explain(try call.runtime.requestURL(call, 2), context: try context(call, 3))
            call.runtime.push(.array(verdicts.map { v in
                .map(PekitMap(unordered: [.init(key: "cookie", value: Self.value(of: v.cookie)), .init(key: "sent", value: .boolean(v.sent)),
                                          .init(key: "reason", value: .text(v.reason))]))
            }), keepOrder: false)
            return 1
        }
        setFunction(methods, "jar", "save") { call in
            try call.require(.files)
            let jar = try call.runtime.jar(at: 1, call)
            let path = try call.string(2)
            let options = try LuaFields.read(call, argument: 3, known: ["format", "sessions"])
            let format = try options?.choice("format", ["netscape", "json"]).flatMap(CookieJar.FileFormat.init(rawValue:))
            let sessions = try options?.flag("sessions") ?? false
            try jar.save(to: path, format: format, sessions: sessions)
            return 0
        }
        setFunction(methods, "jar", "load") { call in
            try call.require(.files)
            let jar = try call.runtime.jar(at: 1, call)
            let (loaded, warnings) = try jar.load(from: try call.string(2))
            call.stack.push(integer: Int64(loaded))
            call.runtime.push(.array(warnings.map(PekitValue.text)), keepOrder: false)
            return 2
        }
        stack.rawSet(meta, "__index")
        stack.pop()

        stack.newTable()
        setFunction(-1, "pekit.cookies", "jar") { call in
            let runtime = call.runtime
            var suffixes: PublicSuffixList? = nil
            var clockValue: Double? = nil
            var filters: [CookieFilter] = []
            var usePSL = true
            if let options = try LuaFields.read(call, argument: 1, known: ["filter", "now", "public_suffixes"]) {
                clockValue = try options.number("now", in: -1e11...1e11, expected: "a time in seconds since 1970")
                usePSL = try options.flag("public_suffixes") ?? true
                filters = try options.with("filter") { try runtime.cookieFilters(at: $0, call) } ?? []
            }
            if usePSL { suffixes = try runtime.publicSuffixList() }
            let clock = JarClock(fixed: clockValue)
            let jar = CookieJar(publicSuffixes: suffixes, clock: { clock.now() })
            jar.filters = filters
            let id = runtime.nextHandleID()
            runtime.jars[id] = jar
            runtime.jarClocks[id] = clock
            runtime.pushHandle(id, metatable: Self.jarMetatable)
            return 1
        }
        setFunction(-1, "pekit.cookies", "parse") { call in
            guard let parsed = SetCookie(try call.string(1)) else { call.stack.pushNil(); return 1 }
            var entries: [PekitMap.Entry] = [.init(key: "name", value: .text(parsed.name)), .init(key: "value", value: .text(parsed.value)),
                                             .init(key: "secure", value: .boolean(parsed.secure)), .init(key: "http_only", value: .boolean(parsed.httpOnly)),
                                             .init(key: "partitioned", value: .boolean(parsed.partitioned))]
            if let e = parsed.expires { entries.append(.init(key: "expires", value: .integer(e))) }
            if let m = parsed.maxAge { entries.append(.init(key: "max_age", value: .integer(m))) }
            if let d = parsed.domain { entries.append(.init(key: "domain", value: .text(d))) }
            if let p = parsed.path { entries.append(.init(key: "path", value: .text(p))) }
            if let s = parsed.sameSite { entries.append(.init(key: "same_site", value: .text(s.rawValue))) }
            call.runtime.push(.map(PekitMap(unordered: entries)), keepOrder: false)
            return 1
        }
        stack.rawSet(pekit, "cookies")
    }
}

/// A jar's clock: the system's, or a fixed time the caller set (`now = …`).
final class JarClock: @unchecked Sendable {
    var fixed: Double?
    init(fixed: Double?) { self.fixed = fixed }
    func now() -> Double { fixed ?? Date().timeIntervalSince1970 }
}
