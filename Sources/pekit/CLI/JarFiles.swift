/// Refuses to save a jar over a file that exists and did not load as one (no line loaded, some
/// skipped): it is someone's notes, not cookies. `--force` replaces it anyway.
func refuseToReplace(_ path: String, loaded: Int, skipped: Int, command: String) throws {
    guard loaded == 0, skipped > 0 else { return }
    throw CommandFailure(message: "pekit \(command): \(path) does not look like a cookie jar (\(skipped) line\(skipped == 1 ? "" : "s") skipped, none loaded); not replacing it (--force replaces it)")
}
