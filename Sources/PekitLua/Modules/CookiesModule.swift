import CLua
import CLuaShim
import Foundation
import PekitCore

/// `pekit.cookies`: RFC 6265 jars, filters from plugins, persistence.
package enum CookiesModule: LuaModule {
    static let name = "cookies"

    /// A jar as a script holds it, with its clock (`jar:clock(t)` fixes it).
    struct HeldJar {
        let jar: CookieJar
        let clock: JarClock
    }

    /// What the module keeps for one runtime: the jars its scripts hold, the public suffix list
    /// (read once), and the jars bound to a file.
    final class State {
        let jars = LuaHandleTable<HeldJar>(metatable: "pekit.cookies.jar")
        var suffixes: PublicSuffixList?
        /// Jars bound to a file (`jar{file = …}`), saved on `jar:flush()` and when the script ends.
        var bound: [(jar: CookieJar, path: String)] = []
        /// jar:receive's records of the cookies it stored, kept between calls for their capacity;
        /// nil while a call uses them (a filter's receive, inside it, takes its own).
        var records: CookieRecords?
        /// Descriptors held in reserve while a jar is bound, so that saving it at the end (a
        /// lock, the file read again, a temporary file) works even when the script used up the
        /// process's descriptors; let go just before the save.
        var reserve: [Int32] = []

        func holdReserve() {
            while reserve.count < 3 {
                let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { return }
                reserve.append(fd)
            }
        }

        func releaseReserve() {
            for fd in reserve { close(fd) }
            reserve = []
        }

        deinit { releaseReserve() }
    }

    static func state(_ runtime: LuaRuntime) -> State { runtime.moduleState(State.self, State.init) }

    /// The public suffix list, read once per runtime (nil when the file is missing: every
    /// `jar{}` then fails with the reason, unless it says `public_suffixes = false`).
    static func publicSuffixList(_ runtime: LuaRuntime) throws -> PublicSuffixList {
        let state = state(runtime)
        if let list = state.suffixes { return list }
        let list = try PublicSuffixList.load(environment: runtime.environment)
        state.suffixes = list
        return list
    }

    /// The jar (and its clock) of the handle at `index`.
    static func heldJar(at index: Int32, _ call: LuaCall) throws -> HeldJar {
        try state(call.runtime).jars.object(at: index, call, expected: "cookie jar")
    }

    /// The jar of the handle at `index`.
    package static func jar(at index: Int32, _ call: LuaCall) throws -> CookieJar { try heldJar(at: index, call).jar }

    // MARK: The module

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let stack = runtime.stack
        let setFunction = runtime.setFunction
        let meta = state(runtime).jars.install(in: runtime)
        setFunction(meta, "jar", "__tostring") { call in
            call.stack.push("cookie jar (\(try jar(at: 1, call).count) cookies)"); return 1
        }
        setFunction(meta, "jar", "__len") { call in
            call.stack.push(integer: Int64(try jar(at: 1, call).count)); return 1
        }
        stack.newTable()
        let methods = stack.top
        setFunction(methods, "jar", "receive") { call in
            let runtime = call.runtime
            let jar = try jar(at: 1, call)
            let url = try requestURL(call, 2)
            // The values read where Lua keeps them (no string made of each): a list is checked
            // whole first, so a bad item stores nothing.
            let stack = call.stack
            let list = stack.type(3) == LUA_TTABLE
            let count = list ? try call.stringCount(3, expected: "a list of Set-Cookie strings") : 1
            if !list { _ = try call.string(3) }
            // The response's context, as jar:header takes it: a cross-site one cannot set a
            // SameSite=Lax or Strict cookie; http_only = false is a non-HTTP API.
            let given = try context(call, 4)
            // Each stored cookie goes into the list's records as it comes; its table is made when
            // the script first reads the list (cookie_list.c), which most scripts never do.
            let state = state(runtime)
            let records = state.records ?? CookieRecords()
            state.records = nil
            defer { state.records = records }
            records.start()
            var rejected: [(name: String, reason: String, rule: CookieRule)] = [], warnings = rejected, removed = 0
            let evictedBefore = jar.evicted
            for i in 0..<count {
                if list { _ = stack.rawGetIndex(3, Int64(i + 1)) } else { stack.pushValue(3) }
                defer { stack.pop() }
                var length = 0
                guard let pointer = lua_tolstring(call.L, -1, &length) else { continue }
                let outcome = try pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                    try jar.receive(bytes: UnsafeBufferPointer(start: $0, count: length), from: url, context: given)
                }
                switch consume outcome {
                case .stored(var cookie, let ignored):
                    try records.append(&cookie)
                    for warning in ignored { warnings.append((cookie.name, warning.reason, warning.rule)) }
                case .removed(_, let count): removed += count
                case .rejected(let name, let reason, let rule): rejected.append((name, reason, rule))
                }
            }
            // {stored = {cookie…}, rejected = {{name =, reason =, rule =}…}, warnings = {…}, removed = n,
            // evicted = n}, made directly.
            stack.newTable(nrec: 5)
            let result = stack.top
            records.push(in: call.L)
            stack.rawSet(result, "stored")
            for (key, list) in [("rejected", rejected), ("warnings", warnings)] {
                stack.newTable(narr: Int32(clamping: list.count))
                for (i, item) in list.enumerated() {
                    stack.newTable(nrec: 3)
                    stack.push(item.name); stack.rawSet(-2, "name")
                    stack.push(item.reason); stack.rawSet(-2, "reason")
                    stack.push(item.rule.rawValue); stack.rawSet(-2, "rule")
                    stack.rawSetIndex(-2, Int64(i + 1))
                }
                stack.rawSet(result, key)
            }
            stack.push(integer: Int64(removed)); stack.rawSet(-2, "removed")
            stack.push(integer: Int64(jar.evicted - evictedBefore)); stack.rawSet(-2, "evicted")
            return 1
        }
        func context(_ call: LuaCall, _ n: Int32) throws -> CookieJar.RequestContext {
            var context = CookieJar.RequestContext()
            guard let fields = try LuaFields.read(call, argument: n, known: Self.contextArgumentFields) else { return context }
            if let http = try fields.flag("http_only") { context.http = http }
            if let method = try fields.string("method") { context.method = method }
            try Self.readContext(fields, into: &context)
            return context
        }
        setFunction(methods, "jar", "header") { call in
            let jar = try jar(at: 1, call)
            if let header = try jar.headerBytes(for: try requestURL(call, 2), context: try context(call, 3)) {
                call.stack.push(ByteString(header))
            } else {
                call.stack.pushNil()
            }
            return 1
        }
        setFunction(methods, "jar", "cookies") { call in
            let jar = try jar(at: 1, call)
            let list = try jar.cookies(for: try requestURL(call, 2), context: try context(call, 3))
            push(list, in: call.runtime)
            return 1
        }
        setFunction(methods, "jar", "all") { call in
            push(try jar(at: 1, call).all, in: call.runtime)
            return 1
        }
        setFunction(methods, "jar", "set") { call in
            let jar = try jar(at: 1, call)
            try call.table(2)
            let cookie = try Self.cookie(from: call.runtime.value(at: 2, path: "cookie"), now: jar.clock())
            try jar.set(cookie)
            return 0
        }
        setFunction(methods, "jar", "delete") { call in
            let jar = try jar(at: 1, call)
            call.stack.push(integer: Int64(try jar.delete(for: try requestURL(call, 2), name: try call.optionalString(3))))
            return 1
        }
        setFunction(methods, "jar", "clock") { call in
            // jar:clock() → the jar's time; jar:clock(t) fixes it at t; jar:clock(false) follows the system clock.
            let clock = try heldJar(at: 1, call).clock
            if call.count >= 2 {
                if call.stack.type(2) == LUA_TBOOLEAN && !call.stack.bool(2) { clock.fixed = nil }
                else if let t = call.stack.number(2), t.isFinite, abs(t) <= 1e11 { clock.fixed = t }
                else { throw call.typeError(2, expected: "time in seconds since 1970 or false") }
            }
            call.stack.push(number: clock.now())
            return 1
        }
        setFunction(methods, "jar", "clear") { call in try jar(at: 1, call).clear(); return 0 }
        setFunction(methods, "jar", "expire") { call in
            call.stack.push(integer: Int64(try jar(at: 1, call).removeExpired())); return 1
        }
        setFunction(methods, "jar", "explain") { call in
            let jar = try jar(at: 1, call)
            let verdicts = try jar.explain(try requestURL(call, 2), context: try context(call, 3))
            call.runtime.push(.array(verdicts.map { v in
                .map(PekitMap(unordered: [.init(key: "cookie", value: Self.value(of: v.cookie)), .init(key: "sent", value: .boolean(v.sent)),
                                          .init(key: "reason", value: .text(v.reason)), .init(key: "rule", value: .text(v.rule.rawValue))]))
            }), keepOrder: false)
            return 1
        }
        setFunction(methods, "jar", "save") { call in
            try call.require(.files)
            let jar = try jar(at: 1, call)
            let path = try call.string(2)
            let options = try LuaFields.read(call, argument: 3, known: ["format", "sessions", "force"])
            let format = try options?.choice("format", ["netscape", "json"]).flatMap(CookieJar.FileFormat.init(rawValue:))
            // Session cookies are kept by default, as curl's -c keeps them.
            let sessions = try options?.flag("sessions") ?? true
            // Merged into the file as it is now, under its lock: another process's cookies stay.
            do { try jar.save(mergingInto: path, format: format, sessions: sessions, force: try options?.flag("force") ?? false) } catch let error as CookieError {
                if case .notAJar = error { throw LuaArgumentError("\(error) ({force = true} replaces it)") }
                throw error
            }
            return 0
        }
        setFunction(methods, "jar", "load") { call in
            try call.require(.files)
            let jar = try jar(at: 1, call)
            let path = try call.string(2)
            // {missing_ok = true}: a file that is not there yet is an empty jar (its first run).
            let missingOK = try LuaFields.read(call, argument: 3, known: ["missing_ok"])?.flag("missing_ok") ?? false
            if missingOK, !FileManager.default.fileExists(atPath: path) {
                call.stack.push(integer: 0)
                call.runtime.push(.array([]), keepOrder: false)
                return 2
            }
            let (loaded, warnings) = try jar.load(from: path)
            call.stack.push(integer: Int64(loaded))
            call.runtime.push(.array(warnings.map(PekitValue.text)), keepOrder: false)
            return 2
        }
        setFunction(methods, "jar", "flush") { call in
            // A jar bound to a file: saved now, atomically and under the file's lock.
            try call.require(.files)
            let jar = try jar(at: 1, call)
            guard let bound = state(call.runtime).bound.first(where: { $0.jar === jar }) else {
                throw LuaArgumentError("this jar has no file: make it with pekit.cookies.jar{file = PATH}, or use jar:save(path)")
            }
            try jar.save(mergingInto: bound.path, sessions: true, force: true)
            return 0
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
            var file: String?
            var asCurl = false
            if let options = try LuaFields.read(call, argument: 1, known: ["filter", "now", "public_suffixes", "file", "as_curl"]) {
                file = try options.string("file")
                asCurl = try options.flag("as_curl") ?? false
                clockValue = try options.number("now", in: -1e11...1e11, expected: "a time in seconds since 1970")
                usePSL = try options.flag("public_suffixes") ?? true
                filters = try options.with("filter") { try Self.filters(at: $0, call) } ?? []
            }
            if usePSL { suffixes = try publicSuffixList(runtime) }
            let clock = JarClock(fixed: clockValue)
            let jar = CookieJar(publicSuffixes: suffixes, clock: { clock.now() })
            jar.filters = filters
            if asCurl { jar.keepAsCurl() }
            if let file {
                // Loaded when it is there (a missing file is an empty jar); a file that is not a
                // jar is refused now rather than replaced at the end.
                try call.require(.files, for: "field \"file\"")
                if FileManager.default.fileExists(atPath: file) {
                    let (loaded, warnings) = try jar.load(from: file)
                    for warning in warnings { fputs("pekit.cookies.jar: warning: \(warning)\n", stderr) }
                    if loaded == 0, !warnings.isEmpty {
                        throw LuaArgumentError("\(CookieError.notAJar(path: file, skipped: warnings.count)); it would be replaced when the script ends")
                    }
                }
                state(runtime).bound.append((jar, file))
                state(runtime).holdReserve()
            }
            state(runtime).jars.push(HeldJar(jar: jar, clock: clock), in: runtime)
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

extension CookiesModule {
    /// The fields of a jar's context that a request table, send options and `jar:header`'s
    /// context all take, read by `readContext`.
    static let contextFields = ["same_site", "site_for_cookies", "navigation", "top_level"]
    /// The fields of a jar method's context argument: `contextFields`, `http_only` and `method`.
    static let contextArgumentFields = ["http_only", "method"] + contextFields

    /// Reads `contextFields` from `fields` into `context`: the site given or the page to judge
    /// it from (not both), a top-level navigation, and the top-level page (CHIPS).
    static func readContext(_ fields: LuaFields, into context: inout CookieJar.RequestContext) throws {
        if let site = try fields.choice("same_site", CookieJar.RequestContext.Site.allCases.map(\.rawValue)).flatMap(CookieJar.RequestContext.Site.init(rawValue:)) {
            context.site = site
        }
        try readSiteForCookies(fields, into: &context)
        if let navigation = try fields.flag("navigation") { context.navigation = navigation }
        try readTopLevel(fields, into: &context)
    }

    /// `site_for_cookies = url` (RFC 6265bis §5.2): the page the request is for.
    static func readSiteForCookies(_ fields: LuaFields, into context: inout CookieJar.RequestContext) throws {
        guard let page = try fields.string("site_for_cookies") else { return }
        if fields.has("same_site") { throw fields.error("site_for_cookies", "give same_site or site_for_cookies, not both") }
        do { context.siteForCookies = try RequestURL(page) } catch { throw fields.error("site_for_cookies", "\(error)") }
    }

    /// `top_level = url` (CHIPS): the top-level page a partitioned cookie is kept and sent under.
    static func readTopLevel(_ fields: LuaFields, into context: inout CookieJar.RequestContext) throws {
        guard let top = try fields.string("top_level") else { return }
        do { context.topLevel = try RequestURL(top) } catch { throw fields.error("top_level", "\(error)") }
    }
}

