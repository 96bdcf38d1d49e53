import PekitCore

/// A HAR file's entries, for the commands that take one (`pekit har`, `pekit export`,
/// `pekit serve --mock`): '-' reads standard input.
/// - Throws: `CommandFailure` of `command` naming the file and why it cannot be read, or where
///   it is not HAR (`HAR.Failure`, or JSON's own error with its place).
func harEntries(_ path: String, command: String) throws -> [HAR.Entry] {
    guard let bytes = path == "-" ? try readAllInput() : Files.read(path) else {
        throw CommandFailure(message: "pekit \(command): cannot read \(printable(path)) (\(FilePaths.exists(path) ? "permission denied or not a file" : "no such file"))")
    }
    do { return try HAR.entries(bytes) } catch {
        throw CommandFailure(message: "pekit \(command): \(printable(path)): \(error)")
    }
}
