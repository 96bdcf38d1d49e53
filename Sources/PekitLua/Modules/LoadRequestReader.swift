import CLua
import CLuaShim
import PekitCore
import PekitHTTP

/// The tables a load script's `request` function returns, one a request, read the quick way
/// where they allow it. A table of nothing but `url` and `method` (strings), `headers` (names to
/// strings) and `follow` (a boolean), shaped as the one before it (the same URL, method, field
/// names and `follow`), is made from that one's `RequestTemplate` with its own values; any other
/// table, and the first two of a shape, is read as `pekit.http.all` reads an item
/// (`HTTPModule.batchItem`). The template is made on the second table of a shape in a row, so
/// that a script whose every URL differs builds each table once, as it would without templates.
/// `LoadReadingDifferential` holds the two readings to the same requests, heads and errors on
/// random tables (`LoadRequestReaderTests`, and the `lua` fuzz target).
final class LoadRequestReader {
    /// A table's fields, where it has only those a template can serve.
    struct PlainTable {
        var url: String
        var method: String?
        var headers: [RequestBuilder.Header] = []
        var follow: Bool?
    }

    /// The builder's method where a table names none.
    private static let defaultMethod = RequestBuilder(url: "").method.rawValue
    private var template: RequestTemplate?
    /// The template's send options (all a plain table's come from `follow`).
    private var options = SendOptions()
    private var follow: Bool?
    /// The last plain table's key and `follow`, where it had no template.
    private var last: (key: RequestTemplate.Key, follow: Bool?)?

    /// The request of the table at `index` and its send options (not yet `prepared`).
    /// - Throws: what `HTTPModule.batchItem` throws for the table.
    func item(at index: Int32, _ call: LuaCall) throws -> (PekitRequest, SendOptions) {
        guard let plain = try Self.plainTable(at: index, call.runtime) else {
            return try HTTPModule.batchItem(at: index, call, argument: 1, base: SendOptions())
        }
        let method = plain.method ?? Self.defaultMethod
        if let template, plain.follow == follow, let request = try template.request(url: plain.url, method: method, headers: plain.headers) {
            return (request, options)
        }
        // Read as every item is; the second of a shape in a row makes the template for the next.
        let (builder, options) = try HTTPModule.tableItem(at: index, call, argument: 1, base: SendOptions())
        guard let last, last.follow == plain.follow, last.key.matches(url: plain.url, method: method, headers: plain.headers) else {
            self.last = (RequestTemplate.Key(url: plain.url, method: method, headers: plain.headers), plain.follow)
            return (try builder.build(), options)
        }
        let (template, request) = try RequestTemplate.make(builder)
        self.template = template
        self.options = options
        follow = plain.follow
        self.last = nil
        return (request, options)
    }

    /// The table at `index` as a `PlainTable`, or nil when it has anything else (a metatable,
    /// another field, a value of another type: a `pekit.url`, a number, an ordered table).
    static func plainTable(at given: Int32, _ runtime: LuaRuntime) throws -> PlainTable? {
        let stack = runtime.stack, L = runtime.L
        let index = lua_absindex(L, given)
        guard stack.type(index) == LUA_TTABLE else { return nil }
        if lua_getmetatable(L, index) != 0 { stack.pop(); return nil }
        var url: String?, method: String?, headers: [RequestBuilder.Header] = [], follow: Bool?
        stack.pushNil()
        while lua_next(L, index) != 0 {
            var length = 0
            guard stack.type(-2) == LUA_TSTRING, let name = lua_tolstring(L, -2, &length) else { stack.pop(2); return nil }
            let key = UnsafeRawBufferPointer(start: name, count: length)
            let type = stack.type(-1)
            if type == LUA_TSTRING && key.elementsEqual("url".utf8) {
                url = stack.string(-1)
            } else if type == LUA_TSTRING && key.elementsEqual("method".utf8) {
                method = stack.string(-1)
            } else if type == LUA_TBOOLEAN && key.elementsEqual("follow".utf8) {
                follow = stack.bool(-1)
            } else if type == LUA_TTABLE && key.elementsEqual("headers".utf8), let plain = try RequestModule.plainHeaderMap(at: lua_absindex(L, -1), runtime) {
                headers = plain
            } else {
                stack.pop(2)
                return nil
            }
            stack.pop()
        }
        guard let url else { return nil }
        return PlainTable(url: url, method: method, headers: headers, follow: follow)
    }
}
