/// The names of curl's flags as `pekit import curl` reads a pasted command.

/// curl flags the copying tools emit that change nothing pekit sends (they are left out, saying
/// so on standard error): pekit sends the path as it is, and draws no progress bar.
/// `-q`/`--disable` keep curl from reading `.curlrc` only as the first flag (taken there, before
/// the loop); the progress flags change only what curl draws on the terminal.
let ignoredCurlFlags: Set<String> = ["--no-buffer", "-N", "--progress-bar", "-#", "-q", "--disable", "--no-progress-meter"]

/// The long options `pekit import curl` reads itself, besides those pekit request takes.
let curlOwnNames = ["--config", "--next", "--url", "--request", "--raw"]

/// The long option `name` stands for: itself when known, else the one option it is the start
/// of (curl's rule, tool_getparam.c: `--sil` is `--silent`), else nil (unknown).
/// - Parameter takesValue: pekit request's flags, as `pekit import curl` knows them.
/// - Throws: `CommandFailure` (exit 2, as curl) for a start several options have.
func curlLongName(_ name: String, takesValue: [String: Bool]) throws -> String? {
    if takesValue[name] != nil || ignoredCurlFlags.contains(name) || curlOwnNames.contains(name) { return name }
    let starting = Set(takesValue.keys.filter { $0.hasPrefix("--") } + ignoredCurlFlags.filter { $0.hasPrefix("--") } + curlOwnNames)
        .filter { $0.hasPrefix(name) }.sorted()
    if starting.count > 1 {
        throw CommandFailure(message: "pekit import: curl's option \(name) is ambiguous: \(starting.joined(separator: ", "))", status: 2)
    }
    return starting.first
}
