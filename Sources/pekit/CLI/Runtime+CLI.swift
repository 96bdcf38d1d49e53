import Foundation
import PekitLua

/// Makes the Lua runtime the way every command that needs one wants it.
func makeRuntime(extraPluginDirectories: [String], sandboxed: Bool = false) throws -> LuaRuntime {
    var options = LuaRuntime.Options()
    options.extraPluginDirectories = extraPluginDirectories
    options.sandboxed = sandboxed
    options.executablePath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first
    return try LuaRuntime(options: options)
}

/// The `--plugins DIR` option every Lua-backed command takes.
let pluginsOption = Arguments.Option(name: "plugins", short: nil, takesValue: true)
