import PekitCore
import PekitLua
import PekitTools

let pluginsCommand = Command(
    name: "plugins",
    summary: "list the plugins on the search path",
    synopsis: """
    usage: pekit plugins [--plugins DIR] [--path]
           pekit plugins export NAME

    Lists every plugin on the search path (first match per name wins): name, kind, description
    and file; a file that fails to load is listed with its error. The search path is:
    --plugins DIR, then $PEKIT_PLUGIN_PATH (colon-separated), ./plugins when trusted
    (PEKIT_TRUST_LOCAL_PLUGINS=1: a checkout's own plugins are not run by default),
    ~/.config/pekit/plugins, and the plugins installed beside the pekit binary.

    export NAME prints a built-in policy as the plugin file that reads back to it (the shipped
    plugins/NAME.lua is this text): a start for a policy of your own, under another name.
    """,
    sections: { [HelpSection("options:", PluginsOptions.all)] },
    epilogue: """
    examples:
      pekit plugins
      pekit plugins --path
      pekit plugins --plugins ./my-plugins
      pekit plugins export php > my-php.lua
    """,
    run: runPlugins
)

/// `pekit plugins`'s options, in the order its help shows them.
enum PluginsOptions {
    static let path = Option("path", "print the search path instead, one directory per line")
    static let all: [Option] = [path, .plugins, .help]
}

private func runPlugins(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try pluginsCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(pluginsCommand.help); return 0 }
    if parsed.positionals.first == "export" {
        guard parsed.positionals.count == 2 else { throw UsageError(command: "plugins", message: "give the built-in policy to export: pekit plugins export NAME") }
        let name = parsed.positionals[1]
        guard let policy = Policy.builtins[name] else {
            let near = Suggestion.closest(to: name, among: Array(Policy.builtins.keys)).map { "; did you mean \"\($0)\"?" } ?? ""
            throw UsageError(command: "plugins", message: "\"\(name)\" is not a built-in policy\(near) (built in: \(Policy.builtins.keys.sorted().joined(separator: ", ")))")
        }
        guard let text = builtinPolicyPluginText(policy) else { throw CommandFailure(message: "pekit plugins: \(name) cannot be written as a plugin file") }
        Output.stdout.write(Array(text.utf8))
        return 0
    }
    if let extra = parsed.positionals.first { throw UsageError(command: "plugins", message: "unexpected argument '\(extra)'") }
    let runtime = try makeRuntime(extraPluginDirectories: parsed.all(.plugins))
    if parsed.has(PluginsOptions.path) {
        for directory in runtime.pluginPath { Output.stdout.line(directory) }
        return 0
    }
    let list = runtime.listPlugins()
    if !list.isEmpty { Output.stdout.line(formatPlugins(list)) }
    if list.isEmpty { Output.stderr.line("pekit plugins: no plugins found in: \(runtime.pluginPath.joined(separator: ", "))") }
    return list.contains { $0.error != nil } ? 1 : 0
}
