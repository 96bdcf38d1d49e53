import PekitCore

/// Why a request could not be sent or completed. An HTTP error status is not one of these: a
/// 404 or a 500 is a response.
public enum HTTPError: Error, Equatable, CustomStringConvertible {
    /// How the options the messages name are spelt: Lua fields (`cacert = "ca.pem"`),
    /// command-line flags (`--cacert ca.pem`), or `SendOptions` properties
    /// (`caCertificate = "ca.pem"`), each from the option's row (`SendOptions.fields`).
    public enum Naming: Sendable {
        /// A script's fields (`max_redirects`).
        case lua
        /// `pekit request`'s flags (`--max-redirects`).
        case commandLine
        /// `SendOptions`' properties (`maxRedirects`).
        case swift
    }

    /// A next step for the failures whose fix is clear.
    public enum Hint: Equatable, Sendable {
        /// The certificate names another host: map the name to the address instead.
        case wrongHostName
        /// The certificate's issuer is not trusted: give its CA.
        case untrustedCertificate
        /// Time ran out: raise the limits.
        case timeout
        /// The name did not resolve: check it, or map it to an address.
        case unresolvedHost
        /// A scheme pekit does not send.
        case unsupportedProtocol
        /// The process ran out of file descriptors.
        case tooManyOpenFiles

        /// The hint, naming the options as `naming` spells them.
        public func text(_ naming: Naming) -> String {
            func name(_ field: String) -> String { SendOptions.spelling(field, naming) }
            switch self {
            case .wrongHostName:
                return "the certificate is not for this host name: to reach a host at another address, keep its name in the URL and map it with "
                    + SendOptions.hostMapping("name", 443, "address", naming)
            case .untrustedCertificate:
                return "to trust a private CA pass \(SendOptions.setting("cacert", .text("ca.pem"), naming)) "
                    + "(\(SendOptions.setting("insecure", .flag(true), naming)) skips the check: never in production)"
            case .timeout: return "raise \(name("timeout")) or \(name("connect_timeout")) (seconds)"
            case .unresolvedHost: return "check the host name, or map it to an address with " + name("connect")
            case .unsupportedProtocol: return "pekit sends http and https only"
            case .tooManyOpenFiles: return "too many open files: raise `ulimit -n` or lower the concurrency"
            }
        }
    }

    /// The transfer failed: curl's error code, its detailed message, and a hint when the fix is clear.
    case transfer(method: String, url: String, code: Int, reason: String, hint: Hint?)
    /// More redirects than the limit (`SendOptions.maxRedirects`).
    case tooManyRedirects(url: String, limit: Int)
    /// The response body passed the limit (`SendOptions.maxBody`).
    case bodyTooLarge(url: String, limit: Int, inMemory: Bool)
    /// A Location that cannot be followed (another scheme, not a URL).
    case badRedirect(url: String, location: String, reason: String)
    /// Stopped by the caller (Ctrl-C).
    case cancelled(url: String)
    /// The handle or an option could not be set up.
    case setup(String)

    /// The message, naming the `SendOptions` properties a Swift caller sets (the Lua host and
    /// the command line ask for their own names with `message(_:)`).
    public var description: String { message(.swift) }

    /// The message, with hints naming the options as `naming` spells them.
    public func message(_ naming: Naming) -> String {
        func name(_ field: String) -> String { SendOptions.spelling(field, naming) }
        switch self {
        case .transfer(let method, let url, let code, let reason, let hint):
            return "\(method) \(url): \(reason) (curl error \(code))" + (hint.map { "; \($0.text(naming))" } ?? "")
        case .tooManyRedirects(let url, let limit):
            return "\(url): more than \(limit) redirects (raise \(name("max_redirects")), or \(SendOptions.setting("follow", .flag(false), naming)) to see the response)"
        case .bodyTooLarge(let url, let limit, let inMemory):
            let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            let stream: String
            switch naming {
            case _ where !inMemory: stream = ""
            case .lua: stream = "stream it with sink = \"file\" or sink = function(chunk), or "
            case .swift: stream = "stream it with sink = .file(path) or .custom { chunk in … }, or "
            case .commandLine: stream = "write it to a file with -o FILE, or "
            }
            return "\(url): the response body is larger than \(size) (\(name("max_body"))); \(stream)raise \(name("max_body"))"
        case .badRedirect(let url, let location, let reason):
            return "\(url): cannot follow redirect to \"\(PercentDecodingError.printable(Array(location.utf8)))\": \(reason)"
        case .cancelled(let url):
            return "\(url): interrupted"
        case .setup(let message):
            return message
        }
    }
}
