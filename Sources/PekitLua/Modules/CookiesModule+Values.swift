import CLua
import CLuaShim
import Foundation
import PekitCore

/// Cookies and URLs as Lua sees them (tables), and back.
extension CookiesModule {
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
            .init(key: "name", value: .text(cookie.name)), .init(key: "value", value: .string(ByteString(cookie.valueBytes))),
            .init(key: "domain", value: .text(cookie.domain)), .init(key: "path", value: .text(cookie.path)),
            .init(key: "creation", value: .number(cookie.creation)), .init(key: "last_access", value: .number(cookie.lastAccess)),
            .init(key: "host_only", value: .boolean(cookie.hostOnly)), .init(key: "secure", value: .boolean(cookie.secure)),
            .init(key: "http_only", value: .boolean(cookie.httpOnly)), .init(key: "partitioned", value: .boolean(cookie.partitioned)),
        ]
        if let expires = cookie.expires { entries.append(.init(key: "expires", value: .number(expires))) }
        if let sameSite = cookie.sameSite { entries.append(.init(key: "same_site", value: .text(sameSite.rawValue))) }
        if let key = cookie.partitionKey { entries.append(.init(key: "partition_key", value: .text(key))) }
        return .map(PekitMap(unordered: entries))
    }

    /// Pushes `cookie` as the table `value(of:)` describes, made in C in one call
    /// (`pekit_push_cookie`: a received cookie's table is made on every `jar:receive`).
    static func push(_ cookie: Cookie, in runtime: LuaRuntime) {
        var cookie = cookie
        withFields(of: &cookie) { pekit_push_cookie(runtime.L, &$0) }
    }

    /// Calls `body` with the cookie's fields as C reads them: its text read where it is, no
    /// string copied (`inout` so that each field's bytes are borrowed in place; the cookie is
    /// not changed).
    static func withFields<T>(of cookie: inout Cookie, _ body: (inout pekit_cookie_fields) -> T) -> T {
        // The SameSite words are static strings: their bytes need no copy.
        let sameSite: StaticString = switch cookie.sameSite { case .strict?: "Strict"; case .lax?: "Lax"; case .none?: "None"; case nil: "" }
        let (creation, lastAccess, expires) = (cookie.creation, cookie.lastAccess, cookie.expires)
        let flags = (hostOnly: cookie.hostOnly, secure: cookie.secure, httpOnly: cookie.httpOnly, partitioned: cookie.partitioned)
        var partition = cookie.partitionKey ?? ""
        return cookie.name.withUTF8 { name in cookie.domain.withUTF8 { domain in cookie.path.withUTF8 { path in partition.withUTF8 { partition in
            // The value's bytes as they came (one that is not UTF-8 too: a Lua string holds bytes).
            func make(_ value: UnsafeBufferPointer<UInt8>) -> T {
                var fields = pekit_cookie_fields(
                    name: pekit_span(name), value: pekit_span(value), domain: pekit_span(domain), path: pekit_span(path),
                    same_site: pekit_span(UnsafeBufferPointer(start: sameSite.utf8Start, count: sameSite.utf8CodeUnitCount)),
                    partition_key: pekit_span(partition),
                    creation: creation, last_access: lastAccess, expires: expires ?? 0,
                    has_expires: expires == nil ? 0 : 1, host_only: flags.hostOnly ? 1 : 0, secure: flags.secure ? 1 : 0,
                    http_only: flags.httpOnly ? 1 : 0, partitioned: flags.partitioned ? 1 : 0)
                return body(&fields)
            }
            if let raw = cookie.rawValue { return raw.withUnsafeBufferPointer(make) }
            return cookie.value.withUTF8(make)
        } } } }
    }

    /// Pushes a list of cookies' tables.
    static func push(_ cookies: [Cookie], in runtime: LuaRuntime) {
        let stack = runtime.stack
        stack.newTable(narr: Int32(clamping: cookies.count))
        for (i, cookie) in cookies.enumerated() {
            push(cookie, in: runtime)
            stack.rawSetIndex(-2, Int64(i + 1))
        }
    }

    /// A cookie from a table with at least name, value and domain.
    static func cookie(from value: PekitValue, now: Double) throws -> Cookie {
        guard case .map(let map) = value else { throw LuaArgumentError("a cookie must be a table") }
        func text(_ key: ByteString) -> String? { if case .string(let s)? = map[key] { return s.description }; return nil }
        func number(_ key: ByteString) -> Double? { map[key]?.doubleValue }
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
        var cookie = Cookie(name: name, value: value, domain: d, path: text("path") ?? "/", expires: number("expires"),
                            creation: number("creation") ?? 0, lastAccess: number("last_access"),
                            hostOnly: flag("host_only") ?? !domain.hasPrefix("."), secure: flag("secure") ?? false,
                            httpOnly: flag("http_only") ?? false, sameSite: sameSite, partitioned: flag("partitioned") ?? false,
                            partitionKey: text("partition_key"))
        // A Lua string is bytes: the value keeps them.
        if case .string(let bytes)? = map["value"] { cookie.setValue(bytes: bytes.bytes) }
        return cookie
    }

    static func requestURL(_ call: LuaCall, _ n: Int32) throws -> RequestURL {
        do { return try RequestURL(call.string(n)) } catch let error as RequestURL.ParseError { throw call.badArgument(n, "\(error)") }
    }
}
