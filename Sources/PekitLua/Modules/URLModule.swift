#if canImport(Glibc)
import Glibc
#endif
import CLua
import CLuaShim
import PekitCore

/// `pekit.url`: URLs as the WHATWG URL Standard (and browsers) parse them.
/// `pekit.url.parse(input [, base])` is a URL value — `href`, `origin`, `protocol`, `username`,
/// `password`, `host`, `hostname`, `port`, `pathname`, `search`, `hash` read as strings and set with
/// the Standard's setter rules; `query` read and set as `{{name, value}, …}`; `tostring(url)` and
/// `..` give `href`; `url:resolve(ref)`, `url:copy()`, `url:fields()` — or nil and the reason.
/// `pekit.url.build{…}`, `pekit.url.domain_to_ascii(s)`, `pekit.url.domain_to_unicode(s)`.
package enum URLModule: LuaModule {
    static let name = "url"
    static let urlMetatable = "pekit.url"

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let stack = runtime.stack, L = runtime.L
        let setFunction = runtime.setFunction, pushFunction = runtime.pushFunction
        luaL_newmetatable(L, Self.urlMetatable)
        let meta = stack.top
        stack.push(Self.urlMetatable); stack.rawSet(meta, "__name")
        stack.push(Self.urlMetatable); stack.rawSet(meta, "__metatable")
        stack.pushValue(meta)
        runtime.urlMetatableRef = runtime.reference()
        // No __gc: a URL value is plain memory and a Lua string, which Lua frees itself.
        setFunction(meta, "url", "__tostring") { call in
            try pushHref(at: 1, call)
            return 1
        }
        // How the REPL and pekit.inspect show a URL value: as the call that makes it.
        setFunction(meta, "url", "__summary") { call in
            call.stack.push("pekit.url.parse(\"\(try urlHref(at: 1, call))\")")
            return 1
        }
        setFunction(meta, "url", "__eq") { call in
            call.stack.push(bool: try urlHref(at: 1, call) == (try urlHref(at: 2, call)))
            return 1
        }
        setFunction(meta, "url", "__concat") { call in
            // "GET " .. url and url .. "#top": either side may be the URL.
            let left = try urlOrString(at: 1, call), right = try urlOrString(at: 2, call)
            call.stack.push(left + right)
            return 1
        }
        stack.newTable()
        let methods = stack.top
        setFunction(methods, "url", "resolve") { call in
            try pushParsedURL(at: 2, base: try url(at: 1, call), call)
        }
        setFunction(methods, "url", "copy") { call in
            pushURL(try url(at: 1, call), in: call.runtime)
            return 1
        }
        setFunction(methods, "url", "fields") { call in
            let url = try url(at: 1, call)
            call.stack.newTable(nrec: Int32(WHATWGURL.Component.allCases.count))
            for field in WHATWGURL.Component.allCases {
                call.stack.push(Self.urlField(url, field))
                call.stack.rawSet(-2, field.rawValue)
            }
            return 1
        }
        stack.rawSet(meta, "__methods")
        // __index reads the fields that are ranges of the href in C (urlvalue.c); this is the rest.
        stack.pushValue(meta)
        pushFunction("url") { call in
            let url = try url(at: 1, call)
            let key = call.stack.string(2) ?? ""
            if let field = WHATWGURL.Component(rawValue: key) {
                call.stack.push(Self.urlField(url, field))
            } else if key == "query" {
                pushPairs(url.queryPairs, in: call.runtime)
            } else {
                _ = luaL_getmetafield(call.L, 1, "__methods")
                guard call.stack.rawGet(-1, key) != LUA_TNIL else {
                    throw LuaArgumentError("a URL has no field \"\(key)\" (fields: \((WHATWGURL.Component.allCases.map(\.rawValue) + ["query"]).joined(separator: ", ")); methods: copy, fields, resolve)")
                }
            }
            return 1
        }
        pekit_push_url_index(L, Self.urlRanger, Self.urlValueSize)
        stack.rawSet(meta, "__index")
        pushFunction("url") { call in
            var url = try url(at: 1, call)
            let key = call.stack.string(2) ?? ""
            if key == "query" {
                url.setQueryPairs(try queryPairs(at: 3, call, field: "query"))
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
            try storeURL(url, at: 1, call)
            return 0
        }
        stack.rawSet(meta, "__newindex")
        stack.pop()

        stack.newTable()
        pushFunction("pekit.url.parse") { call in
            var base: WHATWGURL?
            if !call.stack.isNoneOrNil(2) {
                if let url = urlIfHandle(at: 2, in: call.runtime) { base = url } else {
                    let text = try call.string(2)
                    do { base = try WHATWGURL(text) } catch { throw call.badArgument(2, "invalid base URL \"\(text)\": \(error)") }
                }
            }
            return try pushParsedURL(at: 1, base: base, call)
        }
        pekit_push_url_parse(L, Self.urlParser)
        stack.rawSet(-2, "parse")
        setFunction(-1, "pekit.url", "build") { call in
            try pushBuiltURL(call)
        }
        setFunction(-1, "pekit.url", "domain_to_ascii") { call in
            pushDomainResult(call.stack) { try IDNA.domainToASCII(try call.string(1)) }
        }
        setFunction(-1, "pekit.url", "domain_to_unicode") { call in
            pushDomainResult(call.stack) { try IDNA.domainToUnicode(try call.string(1)) }
        }
        stack.rawSet(pekit, "url")
    }

    package static func urlField(_ url: WHATWGURL, _ field: WHATWGURL.Component) -> String {
        switch field {
        case .href: return url.href
        case .origin: return url.origin
        case .protocol: return url.protocolName
        case .username: return url.username
        case .password: return url.password
        case .host: return url.hostWithPort
        case .hostname: return url.hostname
        case .port: return url.portString
        case .pathname: return url.pathname
        case .search: return url.search
        case .hash: return url.hash
        }
    }

    /// The components in urlvalue.c's numbering of fields (asked of it by name).
    static let urlComponentsBySlot: [WHATWGURL.Component] = WHATWGURL.Component.allCases.sorted { a, b in
        func slot(_ c: WHATWGURL.Component) -> Int32 { c.rawValue.withCString { pekit_url_field($0, c.rawValue.utf8.count) } }
        return slot(a) < slot(b)
    }

    /// A URL value's memory: the spans of the URL (its user value 1 is the href).
    static var urlValueSize: Int { MemoryLayout<WHATWGURL.Spans>.size }

    /// urlvalue.c's ranger: where a field is in a URL value's href of `count` bytes.
    static let urlRanger: pekit_url_ranger = { value, count, field, range in
        let components = urlComponentsBySlot
        guard let value, let range, field >= 0, Int(field) < components.count else { return 0 }
        let spans = value.loadUnaligned(as: WHATWGURL.Spans.self)
        // Made by the parser, a value's spans fit its href; a forged value's are refused here.
        guard spans.fit(count), let found = spans.range(of: components[Int(field)], count: count) else { return 0 }
        range.pointee = pekit_url_range(start: UInt32(found.lowerBound), end: UInt32(found.upperBound))
        return 1
    }

    /// urlvalue.c's parser for `pekit.url.parse(s)`, the call scripts make most: pushes the value
    /// when `s` is a URL, or nothing for the Swift function to say why not.
    static let urlParser: pekit_url_parser = { L, input, length in
        guard let L, let runtime = LuaRuntime.runtime(for: L) else { return 0 }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(input)?.assumingMemoryBound(to: UInt8.self), count: length)
        return runtime.enter(L, name: "pekit.url.parse") {
            do {
                try WHATWGURL.parse(bytes: bytes, base: nil) { href, spans in pushURL(href: href, spans: spans, input: (1, bytes), in: runtime) }
                return 1
            } catch {
                return 0
            }
        }
    }

    /// The URL in the value at `index`.
    static func url(at index: Int32, _ call: LuaCall) throws -> WHATWGURL {
        guard let url = urlIfHandle(at: index, in: call.runtime) else { throw call.typeError(index, expected: "url (from pekit.url.parse)") }
        return url
    }

    /// The memory of the URL value at `index`, or nil when it is something else.
    static func urlUserdata(at index: Int32, in runtime: LuaRuntime) -> UnsafeMutableRawPointer? {
        let L = runtime.L
        // The size is checked too: debug.setmetatable can give the metatable to any userdata.
        guard lua_type(L, index) == LUA_TUSERDATA, lua_rawlen(L, index) == Self.urlValueSize, let raw = lua_touserdata(L, index),
              lua_getmetatable(L, index) != 0 else { return nil }
        runtime.pushReference(runtime.urlMetatableRef)
        let isURL = lua_rawequal(L, -1, -2) != 0
        runtime.stack.pop(2)
        return isURL ? raw : nil
    }

    package static func urlIfHandle(at index: Int32, in runtime: LuaRuntime) -> WHATWGURL? {
        let L = runtime.L, stack = runtime.stack
        guard let raw = urlUserdata(at: index, in: runtime) else { return nil }
        let spans = raw.loadUnaligned(as: WHATWGURL.Spans.self)
        lua_getiuservalue(L, index, 1)
        defer { stack.pop() }
        guard let href = stack.string(-1) else { return nil }
        return try? WHATWGURL(href: href, spans: spans)
    }

    /// The href of the URL value at `index`.
    static func urlHref(at index: Int32, _ call: LuaCall) throws -> String {
        try pushHref(at: index, call)
        defer { call.stack.pop() }
        return call.stack.string(-1) ?? ""
    }

    /// Pushes the href of the URL value at `index` (the string it holds, not a copy).
    static func pushHref(at index: Int32, _ call: LuaCall) throws {
        guard urlUserdata(at: index, in: call.runtime) != nil else { throw call.typeError(index, expected: "url (from pekit.url.parse)") }
        lua_getiuservalue(call.L, index, 1)
    }

    /// A URL value's href, or a string (numbers as Lua writes them).
    static func urlOrString(at index: Int32, _ call: LuaCall) throws -> String {
        if urlUserdata(at: index, in: call.runtime) != nil { return try urlHref(at: index, call) }
        return try call.string(index)
    }

    static func pushURL(_ url: WHATWGURL, in runtime: LuaRuntime) {
        var href = url.href
        href.withUTF8 { pushURL(href: $0, spans: url.spans, in: runtime) }
    }

    /// Pushes a new URL value with this href and spans. When the href is the input itself (a
    /// URL already in canonical form), `input` (its stack index) is kept instead of a copy.
    static func pushURL(href: UnsafeBufferPointer<UInt8>, spans: WHATWGURL.Spans, input: (index: Int32, bytes: UnsafeBufferPointer<UInt8>)? = nil,
                        in runtime: LuaRuntime) {
        let L = runtime.L, stack = runtime.stack
        guard let raw = lua_newuserdatauv(L, Self.urlValueSize, 1) else { stack.pushNil(); return }
        raw.storeBytes(of: spans, as: WHATWGURL.Spans.self)
        if let input, input.bytes.count == href.count, let a = input.bytes.baseAddress, let b = href.baseAddress, memcmp(a, b, href.count) == 0 { stack.pushValue(input.index) } else { stack.push(href) }
        lua_setiuservalue(L, -2, 1)
        runtime.pushReference(runtime.urlMetatableRef)
        lua_setmetatable(L, -2)
    }

    /// Makes the URL value at `index` hold `url` (what a setter changed).
    static func storeURL(_ url: WHATWGURL, at index: Int32, _ call: LuaCall) throws {
        let stack = call.stack
        guard let raw = urlUserdata(at: index, in: call.runtime) else { throw call.typeError(index, expected: "url (from pekit.url.parse)") }
        var href = url.href
        href.withUTF8 { bytes in
            raw.storeBytes(of: url.spans, as: WHATWGURL.Spans.self)
            stack.push(bytes)
        }
        lua_setiuservalue(call.L, index, 1)
    }

    /// Pushes the URL value for the string argument `n` (resolved against `base`), or nil and
    /// the reason.
    static func pushParsedURL(at n: Int32, base: WHATWGURL?, _ call: LuaCall) throws -> Int32 {
        let stack = call.stack
        return try call.withBytes(n) { input in
            do {
                let index = stack.absolute(n)
                let asGiven = stack.type(index) == LUA_TSTRING ? (index, input) : nil
                try WHATWGURL.parse(bytes: input, base: base) { href, spans in pushURL(href: href, spans: spans, input: asGiven, in: call.runtime) }
                return 1
            } catch let error as WHATWGURL.ParseError {
                stack.pushNil()
                stack.push("invalid URL \"\(String(decoding: UTF8Decoding.repaired(input), as: UTF8.self))\": \(error)")
                return 2
            }
        }
    }

    static func pushDomainResult(_ stack: LuaStack, _ body: () throws -> String) -> Int32 {
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
    static func pushPairs(_ pairs: [(name: String, value: String)], in runtime: LuaRuntime) {
        let stack = runtime.stack
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
    static func queryPairs(at index: Int32, _ call: LuaCall, field: String) throws -> [(name: String, value: String)] {
        let runtime = call.runtime, stack = call.stack
        if stack.isNoneOrNil(index) { return [] }
        guard stack.type(index) == LUA_TTABLE else {
            throw LuaArgumentError("url.\(field) is set to {{name, value}, …} or a table of parameters (got a \(stack.typeName(index)))")
        }
        let value = try runtime.value(at: index, path: field)
        return try runtime.policies.defaultEntry().policy.pairs(value).map {
            (String(decoding: $0.key.bytes, as: UTF8.self), String(decoding: ($0.value ?? ByteString([])).bytes, as: UTF8.self))
        }
    }
}
