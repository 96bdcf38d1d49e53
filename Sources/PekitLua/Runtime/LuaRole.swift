/// Who a runtime's code is, and so what it may do. Capabilities are checked by each function at
/// the point of use (`LuaCall.require`), never by hiding tables: a plugin that reaches a function
/// anyway still gets a clear refusal.
enum LuaRole: Equatable {
    /// A script the user runs (`pekit run`, the REPL, one-shot commands): everything.
    case host
    /// `pekit run --sandbox`: pure functions only, but the script may load plugins and define
    /// policies in its own runtime.
    case sandbox
    /// A plugin file, in a runtime of its own: pure functions only.
    case plugin(name: String, file: String)

    var isPlugin: Bool { if case .plugin = self { return true } else { return false } }

    func allows(_ capability: LuaCapability) -> Bool {
        switch self {
        case .host: return true
        case .sandbox: return capability == .plugins || capability == .policies || capability == .tasks || capability == .waiting
        case .plugin: return false
        }
    }

    /// Where the refused code runs, for messages.
    var place: String {
        switch self {
        case .host: return "here"
        case .sandbox: return "in a sandboxed script"
        case .plugin: return "in a plugin"
        }
    }
}

/// What a function needs beyond computing a result from its arguments.
enum LuaCapability: Equatable {
    case files, network, plugins, policies, tasks, waiting

    /// Why the function needs it, for messages.
    var reason: String {
        switch self {
        case .files: return "it reads or writes files"
        case .network: return "it sends over the network"
        case .plugins: return "it loads plugin files"
        case .policies: return "it defines policies for the whole runtime"
        case .tasks: return "its tasks would run after the plugin's call"
        case .waiting: return "it waits, and a plugin's call must end within its budget"
        }
    }
}

/// The registry keys pekit stores values under (metatable names are registry keys too).
enum RegistryKey: String {
    case nullMetatable = "pekit.mt.null", orderedMetatable = "pekit.mt.ordered", setMetatable = "pekit.mt.set",
         arrayMetatable = "pekit.mt.array", headersMetatable = "pekit.mt.headers", responseMetatable = "pekit.mt.response",
         errorMetatable = "pekit.mt.error"
    case null = "pekit.null", inspect = "pekit.inspect", lockDown = "pekit.lockdown", orders = "pekit.orders"
    case pluginPath = "pekit.plugins.path"
    /// The `pekit` table, where a module installed on first use sets its fields.
    case pekit = "pekit.table"
}
