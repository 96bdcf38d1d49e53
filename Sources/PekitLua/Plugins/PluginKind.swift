import CLua
import CLuaShim

/// What a plugin file is, and how its table is checked when it loads: a misspelt field or a
/// value of the wrong type is an error naming the plugin then, not a silent default later.
enum PluginKind: String, CaseIterable {
    case policy
    case cookieFilter = "cookie-filter"

    /// The fields a cookie-filter plugin may have beside name, kind and description; each a function.
    static let filterFunctions = ["new", "host", "accept", "match", "rewrite"]

    /// `"policy" or "cookie-filter"`, for messages.
    static var names: String { allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ") }

    /// Checks the table at `index` of `plugin`'s current stack.
    /// - Throws: `LuaArgumentError` naming the field and what it takes.
    func validate(table index: Int32, in plugin: LuaRuntime, origin: String) throws {
        switch self {
        case .policy:
            // Reading the policy checks every field; the policy itself is built on first use.
            _ = try PolicyDefinition(runtime: plugin, table: index, origin: origin)
        case .cookieFilter:
            let stack = plugin.stack
            let known = ["name", "kind", "description"] + Self.filterFunctions
            try plugin.forEachRaw(index) {
                guard stack.type(-2) == LUA_TSTRING, let field = stack.string(-2), known.contains(field) else {
                    let name = stack.type(-2) == LUA_TSTRING ? "\"\(stack.string(-2) ?? "")\"" : "[\(stack.toStringMeta(-2))]"
                    throw LuaArgumentError("unknown field \(name) (a cookie-filter has: \(known.joined(separator: ", ")))")
                }
                if Self.filterFunctions.contains(field) && stack.type(-1) != LUA_TFUNCTION {
                    throw LuaArgumentError("field \"\(field)\" must be a function, not a \(stack.typeName(-1))")
                }
            }
        }
    }
}
