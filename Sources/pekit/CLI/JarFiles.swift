import PekitCore

/// Refuses to save a jar over a file that exists and did not load as one (no line loaded, some
/// skipped): it is someone's notes, not cookies. `--force` replaces it anyway.
func refuseToReplace(_ path: String, loaded: Int, skipped: Int, command: String) throws {
    guard loaded == 0, skipped > 0 else { return }
    throw CommandFailure(message: "pekit \(command): \(CookieError.notAJar(path: path, skipped: skipped)) (--force replaces it)")
}
