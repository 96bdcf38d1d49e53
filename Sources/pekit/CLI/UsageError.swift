import PekitCore
import PekitHTTP

/// A command line that cannot be run as written (exit status 2).
struct UsageError: Error, CustomStringConvertible {
    let command: String
    let message: String
    var description: String { "pekit \(command): \(message) (see 'pekit \(command) --help')" }
}

/// A failure while running a well-formed command (exit status 1, or curl's own code for a
/// transfer `pekit request` made).
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    var status: Int32 = 1
    /// A transfer's failure (curl's own code), which curl's -s keeps quiet unless -S.
    var isTransfer = false
    var description: String { message }

    /// Whether this failure's line is left out: a transfer's, under `pekit request -s` without
    /// -S, as curl -s says nothing of it (the exit status says it).
    var isQuiet: Bool { isTransfer && QuietTransfers.on }
}

/// `pekit request -s` without `-S`: transfers' failures are not written (curl's -s).
enum QuietTransfers {
    nonisolated(unsafe) static var on = false
}

extension HTTPError {
    /// The exit status curl gives for this failure, as `pekit request` exits with it: libcurl's
    /// code for a transfer (6 for a name, 7 for a refused connection, 28 for a timeout, 60 for
    /// a certificate…), 47 for too many redirects, 63 for --max-filesize, 3 for a redirect to a
    /// URL that cannot be used; 1 for what curl has no code of its own for.
    var curlExitStatus: Int32 {
        switch self {
        case .transfer(_, _, let code, _, _): return Int32(clamping: code)
        case .tooManyRedirects: return 47
        case .bodyTooLarge: return 63
        // A Location curl's URL parser refuses: CURLE_URL_MALFORMAT (its test 1142); one it
        // reads, with a scheme other than http(s): CURLE_UNSUPPORTED_PROTOCOL (1563).
        case .badRedirect(_, let location, _):
            guard let target = try? RequestURL(location, readingHostAsCurl: true) else { return 3 }
            return target.scheme == "http" || target.scheme == "https" ? 3 : 1
        default: return 1
        }
    }
}
