/// The names of curl's flags as `pekit import curl` reads a pasted command.

/// curl flags the copying tools emit that change nothing pekit sends (they are left out, saying
/// so on standard error): pekit sends the path as it is, and draws no progress bar.
/// `-q`/`--disable` keep curl from reading `.curlrc` only as the first flag (taken there, before
/// the loop); the progress flags change only what curl draws on the terminal.
let ignoredCurlFlags: Set<String> = ["--no-buffer", "-N", "--progress-bar", "-#", "-q", "--disable", "--no-progress-meter",
                                     // pekit never shows a proxy's answer to CONNECT: what curl shows with this flag.
                                     "--suppress-connect-headers"]

/// The long options `pekit import curl` reads itself, besides those pekit request takes.
let curlOwnNames = ["--config", "--next", "--url", "--request", "--raw"]

/// The long option `name` stands for, as curl 7.88 reads it (tool_getparam.c): itself when it
/// is one of curl's flags or one pekit knows, else the one flag of curl's it is the start of
/// (`--sil` is `--silent`; `--trace` is curl's --trace, never pekit's --trace-ascii), else nil
/// (unknown). A flag of curl's that pekit does not take comes back too: the caller refuses it,
/// saying why.
/// - Parameter takesValue: pekit request's flags, as `pekit import curl` knows them.
/// - Throws: `CommandFailure` (exit 2, as curl) for a start several of curl's flags have.
func curlLongName(_ name: String, takesValue: [String: Bool]) throws -> String? {
    if takesValue[name] != nil || ignoredCurlFlags.contains(name) || curlOwnNames.contains(name) { return name }
    let curlNames = curlFlagList.map { "--" + $0.long }
    if curlNames.contains(name) { return name }
    var starting = curlNames.filter { $0.hasPrefix(name) }
    // A start of none of curl's: pekit's own long options (a newer curl's flags pekit takes).
    if starting.isEmpty {
        starting = Set(takesValue.keys.filter { $0.hasPrefix("--") } + ignoredCurlFlags.filter { $0.hasPrefix("--") } + curlOwnNames)
            .filter { $0.hasPrefix(name) }.sorted()
    }
    if starting.count > 1 {
        throw CommandFailure(message: "pekit import: curl's option \(name) is ambiguous: \(starting.joined(separator: ", "))", status: 2)
    }
    return starting.first
}
