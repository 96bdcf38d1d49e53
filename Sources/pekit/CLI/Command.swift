/// One subcommand: its name, a one-line summary for `pekit help`, its full help, and its body.
struct Command {
    let name: String
    let summary: String
    let help: String
    /// Runs with the arguments after the command name; returns the exit status.
    let run: ([String]) throws -> Int32
}
