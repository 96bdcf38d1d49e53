import PekitHTTP

/// The one client a `pekit request` (or `pekit import curl --send`) process sends with: every
/// URL of the command and every request after curl's `--next` share its connections, as curl's
/// transfers share one connection cache (`-w %{num_connects}` is 0 for a request sent on a kept
/// connection, curl's tests 2051 and 3224).
enum CommandClient {
    private static let made = Result { try PekitClient() }

    /// The command's client, made on first use.
    /// - Throws: what `PekitClient()` throws (an engine that cannot start).
    static func shared() throws -> PekitClient { try made.get() }
}
