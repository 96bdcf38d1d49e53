import CLua
import CLuaShim
import PekitCore

/// `pekit.url`: URLs as the WHATWG URL Standard (and browsers) parse them.
/// `pekit.url.parse(input [, base])` is a URL value — `href`, `origin`, `protocol`, `username`,
/// `password`, `host`, `hostname`, `port`, `pathname`, `search`, `hash` read as strings and set with
/// the Standard's setter rules; `query` read and set as `{{name, value}, …}`; `tostring(url)` and
/// `..` give `href`; `url:resolve(ref)`, `url:copy()`, `url:fields()` — or nil and the reason.
/// `pekit.url.build{…}`, `pekit.url.domain_to_ascii(s)`, `pekit.url.domain_to_unicode(s)`.
extension LuaRuntime {
    static let urlMetatable = "pekit.url"
    static let urlFields = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"]

    func installURLModule(into pekit: Int32) {
        luaL_newmetatable(L, Self.urlMetatable)
        let meta = stack.top
        stack.push(Self.urlMetatable); stack.rawSet(meta, "__name")
        stack.push(Self.urlMetatable); stack.rawSet(meta, "__metatable")
        stack.pushValue(meta)
        urlMetatableRef = reference()
        setFunction(meta, "url", "__gc") { call in
            // Released once: the pointer is cleared, so a resurrected handle reads as no URL.
            if let raw = call.runtime.urlUserdata(at: 1), let pointer = raw.load(as: UnsafeMutableRawPointer?.self) {
                Unmanaged<URLBox>.fromOpaque(pointer).release()
                raw.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
            }
            return 0
        }
        setFunction(meta, "url", "__tostring") { call in
            call.stack.push(try call.runtime.urlBox(at: 1, call).href)
            return 1
        }
        // How the REPL and pekit.inspect show a URL value: as the call that makes it.
        setFunction(meta, "url", "__summary") { call in
            call.stack.push("pekit.url.parse(\"\(try call.runtime.urlBox(at: 1, call).href)\")")
            return 1
        }
        setFunction(meta, "url", "__eq") { call in
            call.stack.push(bool: try call.runtime.url(at: 1, call) == (try call.runtime.url(at: 2, call)))
            return 1
        }
        setFunction(meta, "url", "__concat") { call in
            // "GET " .. url and url .. "#top": either side may be the URL.
            let left = try call.runtime.urlOrString(at: 1, call), right = try call.runtime.urlOrString(at: 2, call)
            call.stack.push(left + right)
            return 1
        }
        stack.newTable()
        let methods = stack.top
        setFunction(methods, "url", "resolve") { call in
            try call.runtime.pushParsedURL(try call.string(2), base: try call.runtime.url(at: 1, call))
        }
        setFunction(methods, "url", "copy") { call in
            call.runtime.pushURL(try call.runtime.url(at: 1, call))
            return 1
        }
        setFunction(methods, "url", "fields") { call in
            let box = try call.runtime.urlBox(at: 1, call)
            call.stack.newTable(nrec: Int32(Self.urlFields.count))
            for field in Self.urlFields {
                call.stack.push(Self.urlField(box, field) ?? "")
                call.stack.rawSet(-2, field)
            }
            return 1
        }
        stack.rawSet(meta, "__methods")
        pushFunction("url") { call in
            let box = try call.runtime.urlBox(at: 1, call)
            let key = call.stack.string(2) ?? ""
            if let value = Self.urlField(box, key) {
                call.stack.push(value)
            } else if key == "query" {
                call.runtime.pushPairs(box.url.queryPairs)
            } else {
                _ = luaL_getmetafield(call.L, 1, "__methods")
                guard call.stack.rawGet(-1, key) != LUA_TNIL else {
                    throw LuaArgumentError("a URL has no field \"\(key)\" (fields: \((Self.urlFields + ["query"]).joined(separator: ", ")); methods: copy, fields, resolve)")
                }
            }
            return 1
        }
        stack.rawSet(meta, "__index")
        pushFunction("url") { call in
            let box = try call.runtime.urlBox(at: 1, call)
            var url = box.url
            let key = call.stack.string(2) ?? ""
            if key == "query" {
                url.setQueryPairs(try call.runtime.queryPairs(at: 3, call, field: "query"))
            } else {
                guard key != "origin", WHATWGURL.settableComponents.contains(key) else {
                    throw LuaArgumentError("a URL's \"\(key)\" cannot be set (settable: \((WHATWGURL.settableComponents + ["query"]).joined(separator: ", ")))")
                }
                let value: String
                switch call.stack.type(3) {
                case LUA_TSTRING, LUA_TNUMBER: value = try call.string(3)
                case LUA_TNIL: value = ""
                default: throw LuaArgumentError("\(key) is set to a string (got a \(call.stack.typeName(3)))")
                }
                do { _ = try url.set(key, to: value) } catch let error as WHATWGURL.ParseError {
                    throw LuaArgumentError("href: invalid URL \"\(value)\": \(error)")
                }
            }
            box.url = url
            return 0
        }
        stack.rawSet(meta, "__newindex")
        stack.pop()

        stack.newTable()
        setFunction(-1, "pekit.url", "parse") { call in
            let input = try call.string(1)
            var base: WHATWGURL?
            if !call.stack.isNoneOrNil(2) {
                if let url = call.runtime.urlIfHandle(at: 2) { base = url } else {
                    let text = try call.string(2)
                    do { base = try WHATWGURL(text) } catch { throw call.badArgument(2, "invalid base URL \"\(text)\": \(error)") }
                }
            }
            return try call.runtime.pushParsedURL(input, base: base)
        }
        setFunction(-1, "pekit.url", "build") { call in
            try call.runtime.pushBuiltURL(call)
        }
        setFunction(-1, "pekit.url", "domain_to_ascii") { call in
            call.runtime.pushDomainResult { try IDNA.domainToASCII(try call.string(1)) }
        }
        setFunction(-1, "pekit.url", "domain_to_unicode") { call in
            call.runtime.pushDomainResult { try IDNA.domainToUnicode(try call.string(1)) }
        }
        stack.rawSet(pekit, "url")
    }

    static func urlField(_ box: URLBox, _ name: String) -> String? {
        let url = box.url
        switch name {
        case "href": return box.href
        case "origin": return url.origin
        case "protocol": return url.protocolName
        case "username": return url.username
        case "password": return url.password
        case "host": return url.hostWithPort
        case "hostname": return url.hostname
        case "port": return url.portString
        case "pathname": return url.pathname
        case "search": return url.search
        case "hash": return url.hash
        default: return nil
        }
    }

    /// The URL in the handle at `index`.
    func url(at index: Int32, _ call: LuaCall) throws -> WHATWGURL { try urlBox(at: index, call).url }

    func urlBox(at index: Int32, _ call: LuaCall) throws -> URLBox {
        guard let box = urlBoxIfHandle(at: index) else { throw call.typeError(index, expected: "url (from pekit.url.parse)") }
        return box
    }

    func urlBoxIfHandle(at index: Int32) -> URLBox? {
        guard let raw = urlUserdata(at: index), let pointer = raw.load(as: UnsafeMutableRawPointer?.self) else { return nil }
        return Unmanaged<URLBox>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The memory of the URL handle at `index`, or nil when it is something else.
    func urlUserdata(at index: Int32) -> UnsafeMutableRawPointer? {
        guard lua_type(L, index) == LUA_TUSERDATA, let raw = lua_touserdata(L, index), lua_getmetatable(L, index) != 0 else { return nil }
        pushReference(urlMetatableRef)
        let isURL = lua_rawequal(L, -1, -2) != 0
        stack.pop(2)
        return isURL ? raw : nil
    }

    func urlIfHandle(at index: Int32) -> WHATWGURL? { urlBoxIfHandle(at: index)?.url }

    /// A URL handle's href, or a string (numbers as Lua writes them).
    func urlOrString(at index: Int32, _ call: LuaCall) throws -> String {
        if let box = urlBoxIfHandle(at: index) { return box.href }
        return try call.string(index)
    }

    func pushURL(_ url: WHATWGURL) {
        let raw = pekit_newuserdata(L, MemoryLayout<UnsafeMutableRawPointer>.size)!
        raw.storeBytes(of: Unmanaged.passRetained(URLBox(url)).toOpaque(), as: UnsafeMutableRawPointer?.self)
        pushReference(urlMetatableRef)
        lua_setmetatable(L, -2)
    }

    /// Pushes the URL value for `input` (resolved against `base`), or nil and the reason.
    func pushParsedURL(_ input: String, base: WHATWGURL?) throws -> Int32 {
        do {
            pushURL(try WHATWGURL(input, base: base))
            return 1
        } catch let error as WHATWGURL.ParseError {
            stack.pushNil()
            stack.push("invalid URL \"\(input)\": \(error)")
            return 2
        }
    }

    func pushDomainResult(_ body: () throws -> String) -> Int32 {
        do {
            stack.push(try body())
            return 1
        } catch {
            stack.pushNil()
            stack.push("\(error)")
            return 2
        }
    }

    /// `{{name, value}, …}`, as `pekit.query.pairs` gives them.
    func pushPairs(_ pairs: [(name: String, value: String)]) {
        stack.newTable(narr: Int32(clamping: pairs.count))
        for (i, pair) in pairs.enumerated() {
            stack.newTable(narr: 2)
            stack.push(pair.name); stack.rawSetIndex(-2, 1)
            stack.push(pair.value); stack.rawSetIndex(-2, 2)
            stack.rawSetIndex(-2, Int64(i + 1))
        }
    }

    /// A query given as `{{name, value}, …}` (repeats and order kept) or as parameters, which
    /// the default policy flattens into pairs (nested keys, arrays, booleans as it says).
    func queryPairs(at index: Int32, _ call: LuaCall, field: String) throws -> [(name: String, value: String)] {
        if stack.isNoneOrNil(index) { return [] }
        guard stack.type(index) == LUA_TTABLE else {
            throw LuaArgumentError("url.\(field) is set to {{name, value}, …} or a table of parameters (got a \(stack.typeName(index)))")
        }
        let value = try self.value(at: index, path: field)
        return try policies.defaultEntry().policy.pairs(value).map {
            (String(decoding: $0.key.bytes, as: UTF8.self), String(decoding: ($0.value ?? ByteString([])).bytes, as: UTF8.self))
        }
    }
}
