/// A command line that cannot be run as written (exit status 2).
struct UsageError: Error, CustomStringConvertible {
    let command: String
    let message: String
    var description: String { "pekit \(command): \(message) (see 'pekit \(command) --help')" }
}

/// A failure while running a well-formed command (exit status 1).
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
