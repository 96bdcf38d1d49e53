import CLua
import PekitCore

extension URLModule {
    static let buildFields = ["scheme", "username", "password", "host", "port", "path", "query", "policy", "fragment"]

    /// `pekit.url.build{scheme=, username=, password=, host=, port=, path=, query=, policy=, fragment=}`:
    /// `path` is text (`"/a b"`) or a list of segments, each encoded whole; `query` is text as it
    /// is to appear, or parameters encoded with `policy` (the default policy when not given).
    /// Returns a URL value; a part that makes no URL is an error naming it.
    static func pushBuiltURL(_ call: LuaCall) throws -> Int32 {
        let runtime = call.runtime, stack = call.stack
        guard let fields = try LuaFields.read(call, argument: 1, known: Self.buildFields) else { throw call.typeError(1, expected: "table") }
        guard let scheme = try fields.string("scheme") else { throw call.badArgument(1, "pekit.url.build needs a field \"scheme\"") }
        var port: Int?
        _ = try fields.with("port") { i in
            let text = stack.type(i) == LUA_TNUMBER ? stack.toStringMeta(i) : (stack.string(i) ?? "")
            guard stack.type(i) == LUA_TNUMBER || stack.type(i) == LUA_TSTRING, let n = Int(text), (0...65535).contains(n) else {
                throw fields.error("port", "a port is a whole number in 0…65535")
            }
            port = n
        }
        var path = WHATWGURL.PathInput.segments([])
        _ = try fields.with("path") { i in
            switch stack.type(i) {
            case LUA_TSTRING: path = .text(stack.string(i) ?? "")
            case LUA_TTABLE: path = .segments(try call.strings(i, expected: "field \"path\": a list of segments (strings)"))
            default: throw fields.error("path", "the path is a string or a list of segments")
            }
        }
        var query: String?
        _ = try fields.with("query") { i in
            switch stack.type(i) {
            case LUA_TSTRING: query = stack.string(i)
            case LUA_TTABLE:
                let policy = try fields.with("policy") { p in try PolicyModule.policy(from: call, argument: p) } ?? runtime.policies.defaultEntry().policy
                let encoded = try policy.queryString(try runtime.value(at: i, path: "query"))
                // The policy's prefix ("?") is the URL's own.
                var text = String(decoding: encoded.bytes, as: UTF8.self)
                if text.hasPrefix("?") { text.removeFirst() }
                query = text
            default: throw fields.error("query", "the query is a string or a table of parameters")
            }
        }
        if try fields.with("policy", { _ in true }) == true, query == nil {
            throw fields.error("policy", "a policy encodes a query given as parameters (field \"query\")")
        }
        do {
            let url = try WHATWGURL(scheme: scheme, username: try fields.string("username") ?? "", password: try fields.string("password") ?? "",
                                    host: try fields.string("host"), port: port, path: path, query: query, fragment: try fields.string("fragment"))
            pushURL(url, in: runtime)
        } catch let error as WHATWGURL.ParseError {
            throw call.badArgument(1, "no URL can be built from these parts: \(error.reason)")
        }
        return 1
    }
}
