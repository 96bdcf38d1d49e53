import CLua
import CLuaShim
import PekitCore

/// `pekit.url`: URLs as the WHATWG URL Standard (and browsers) parse them.
/// `pekit.url.parse(input [, base])` is a URL value (`href`, `origin`, `protocol`, `username`,
/// `password`, `host`, `hostname`, `port`, `pathname`, `search`, `hash`; `tostring(url)` is
/// `href`; `url:resolve(ref)`), or nil and the reason.
extension LuaRuntime {
    static let urlMetatable = "pekit.url"

    func installURLModule(into pekit: Int32) {
        luaL_newmetatable(L, Self.urlMetatable)
        let meta = stack.top
        stack.push(Self.urlMetatable); stack.rawSet(meta, "__name")
        stack.push(Self.urlMetatable); stack.rawSet(meta, "__metatable")
        setFunction(meta, "url", "__tostring") { call in
            guard call.stack.type(1) == LUA_TTABLE, call.stack.rawGet(1, "href") == LUA_TSTRING else { throw call.typeError(1, expected: "url") }
            return 1
        }
        stack.newTable()
        setFunction(-1, "url", "resolve") { call in
            guard call.stack.type(1) == LUA_TTABLE, call.stack.rawGet(1, "href") == LUA_TSTRING, let href = call.stack.string(-1) else {
                throw call.typeError(1, expected: "url (from pekit.url.parse)")
            }
            call.stack.pop()
            return try call.runtime.pushParsedURL(try call.string(2), base: href)
        }
        stack.rawSet(meta, "__index")
        stack.pop()

        stack.newTable()
        setFunction(-1, "pekit.url", "parse") { call in
            let input = try call.string(1)
            var base: String?
            if !call.stack.isNoneOrNil(2) {
                if call.stack.type(2) == LUA_TTABLE, call.stack.rawGet(2, "href") == LUA_TSTRING { base = call.stack.string(-1); call.stack.pop() }
                else { base = try call.string(2) }
            }
            return try call.runtime.pushParsedURL(input, base: base)
        }
        stack.rawSet(pekit, "url")
    }

    /// Pushes the URL value for `input` (resolved against `base`), or nil and the reason.
    func pushParsedURL(_ input: String, base: String?) throws -> Int32 {
        let url: WHATWGURL
        do {
            let baseURL = try base.map { text -> WHATWGURL in
                do { return try WHATWGURL(text) } catch { throw LuaArgumentError("bad base URL: \(error)") }
            }
            url = try WHATWGURL(input, base: baseURL)
        } catch let error as WHATWGURL.ParseError {
            stack.pushNil()
            stack.push("invalid URL \"\(input)\": \(error)")
            return 2
        }
        stack.newTable(nrec: 11)
        for (key, value) in [("href", url.href), ("origin", url.origin), ("protocol", url.protocolName), ("username", url.username),
                             ("password", url.password), ("host", url.hostWithPort), ("hostname", url.hostname), ("port", url.portString),
                             ("pathname", url.pathname), ("search", url.search), ("hash", url.hash)] {
            stack.push(value)
            stack.rawSet(-2, key)
        }
        _ = pekit_getmetatable_named(L, Self.urlMetatable)
        lua_setmetatable(L, -2)
        return 1
    }
}
