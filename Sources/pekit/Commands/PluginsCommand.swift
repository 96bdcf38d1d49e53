import PekitLua

let pluginsCommand = Command(
    name: "plugins",
    summary: "list the plugins on the search path",
    synopsis: """
    usage: pekit plugins [--plugins DIR] [--path]

    Lists every plugin on the search path (first match per name wins): name, kind, description
    and file; a file that fails to load is listed with its error. The search path is:
    --plugins DIR, then $PEKIT_PLUGIN_PATH (colon-separated), ./plugins when trusted
    (PEKIT_TRUST_LOCAL_PLUGINS=1: a checkout's own plugins are not run by default),
    ~/.config/pekit/plugins, and the plugins installed beside the pekit binary.
    """,
    sections: { [HelpSection("options:", PluginsOptions.all)] },
    epilogue: """
    examples:
      pekit plugins
      pekit plugins --path
      pekit plugins --plugins ./my-plugins
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
