import CLua
import CLuaShim
import PekitCore
import PekitLua

/// How `pekit repl` shows a value to a person (`LuaREPL(runtime:forPeople: true)`): JSON values
/// (`pekit.ordered`, `pekit.array`, `pekit.null`, what `pekit.json.decode` gives) as JSON-like
/// text, a request as the first lines of its message, a URL with its fields; anything else as
/// `pekit.inspect` writes it. The plain form (`forPeople: false`) is `pekit.inspect`'s for
/// everything: Lua that reads back the same.
extension LuaREPL {
    /// Widest JSON-like value shown on one line; wider ones are indented.
    static let oneLineWidth = 100

    func display(at index: Int32) -> String {
        let runtime = self.runtime, stack = runtime.stack
        let i = stack.absolute(index)
        guard forPeople else { return runtime.inspect(at: i, fold: true) }
        if let url = URLModule.urlIfHandle(at: i, in: runtime) { return Self.describe(url) }
        if let stored = RequestModule.heldRequest(at: i, in: runtime) {
            return Self.describe(stored.request)
        }
        if stack.type(i) == LUA_TTABLE || stack.type(i) == LUA_TUSERDATA, runtime.marker(of: i) != nil, let value = try? runtime.value(at: i, path: "value") {
            let line = String(decoding: JSONText.display(value, style: JSONText.DisplayStyle(indent: nil)), as: UTF8.self)
            if line.count <= Self.oneLineWidth && !line.contains("\n") { return line }
            return String(decoding: JSONText.display(value, style: JSONText.DisplayStyle(indent: 2)), as: UTF8.self)
        }
        return runtime.inspect(at: i, fold: true)
    }

    /// `pekit.url.parse("…")` then each field on its own line, quoted as Lua writes strings.
    static func describe(_ url: WHATWGURL) -> String {
        let fields = WHATWGURL.Component.allCases.filter { $0 != .href }
        let width = fields.map(\.rawValue.count).max() ?? 0
        var lines = ["pekit.url.parse(\(LuaLiteral.quoted(url.href)))"]
        for field in fields {
            lines.append("  " + field.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + " = " + LuaLiteral.quoted(URLModule.urlField(url, field)))
        }
        return lines.joined(separator: "\n")
    }

    /// The request line and header fields as they go on the wire, and the size of the body.
    static func describe(_ request: PekitRequest) -> String {
        var lines = ["\(request.method) \(request.target) HTTP/1.1"] + request.headers.fields.map { printable($0.line) }
        let body = (try? request.bodyBytes().count) ?? 0
        if body > 0 { lines.append("(and \(body) byte\(body == 1 ? "" : "s") of body: r.body; the whole message: r:raw())") }
        return lines.joined(separator: "\n")
    }
}
