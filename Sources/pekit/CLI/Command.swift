/// One subcommand: its name, a one-line summary for `pekit help`, its full help, and its body.
struct Command {
    let name: String
    let summary: String
    let help: String
    /// Runs with the arguments after the command name, as the bytes the shell passed (not
    /// repaired into UTF-8: `pekit encode $'\xff'` means the byte FF); returns the exit status.
    let run: ([[UInt8]]) throws -> Int32
}
