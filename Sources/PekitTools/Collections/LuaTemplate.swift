import PekitLua

/// Text holding `{{name}}` variables (a .http file's, a Postman collection's) as one Lua
/// expression: the text in string literals, each variable as the Lua the format reads it with.
enum LuaTemplate {
    /// A piece of a value: text as it is, or Lua that gives text.
    enum Part { case literal(String), expression(String) }

    /// The pieces of `text`: each `{{…}}` (what is between the braces given to `variable`, which
    /// returns the Lua that reads it) and the text around them.
    static func parts(_ text: String, variable: (Substring) -> String) -> [Part] {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            if open.lowerBound > rest.startIndex { parts.append(.literal(String(rest[..<open.lowerBound]))) }
            parts.append(.expression(variable(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        return parts
    }

    /// Parts as one Lua expression, neighbouring texts in one string.
    static func joined(_ parts: [Part]) -> String {
        var out: [String] = [], pending: String?
        for part in parts {
            switch part {
            case .literal(let text): pending = (pending ?? "") + text
            case .expression(let code):
                if let text = pending { out.append(LuaLiteral.quoted(text)); pending = nil }
                out.append(code)
            }
        }
        if let text = pending { out.append(LuaLiteral.quoted(text)) }
        return out.isEmpty ? "\"\"" : out.joined(separator: " .. ")
    }
}
