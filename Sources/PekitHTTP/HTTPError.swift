import PekitCore

/// Why a request could not be sent or completed. An HTTP error status is not one of these: a
/// 404 or a 500 is a response.
public enum HTTPError: Error, Equatable, CustomStringConvertible {
    /// How the options the hints name are spelt: Lua fields (`cacert = "ca.pem"`) or
    /// command-line flags (`--cacert ca.pem`).
    public enum Naming: Sendable { case lua, commandLine }

    /// A next step for the failures whose fix is clear.
    public enum Hint: Equatable, Sendable {
        case wrongHostName, untrustedCertificate, timeout, unresolvedHost, unsupportedProtocol, tooManyOpenFiles

        public func text(_ naming: Naming) -> String {
            let lua = naming == .lua
            switch self {
            case .wrongHostName:
                return "the certificate is not for this host name: to reach a host at another address, keep its name in the URL and map it with "
                    + (lua ? "connect = {[\"name:443\"] = \"address:443\"}" : "--connect name:443=address:443")
            case .untrustedCertificate:
                return lua ? "to trust a private CA pass cacert = \"ca.pem\" (insecure = true skips the check: never in production)"
                           : "to trust a private CA pass --cacert ca.pem (--insecure skips the check: never in production)"
            case .timeout: return lua ? "raise timeout or connect_timeout (seconds)" : "raise --timeout or --connect-timeout (seconds)"
            case .unresolvedHost: return "check the host name, or map it to an address with " + (lua ? "connect" : "--connect")
            case .unsupportedProtocol: return "pekit sends http and https only"
            case .tooManyOpenFiles: return "too many open files: raise `ulimit -n` or lower the concurrency"
            }
        }
    }

    /// The transfer failed: curl's error code, its detailed message, and a hint when the fix is clear.
    case transfer(method: String, url: String, code: Int, reason: String, hint: Hint?)
    case tooManyRedirects(url: String, limit: Int)
    /// The response body passed the limit (`SendOptions.maxBody`).
    case bodyTooLarge(url: String, limit: Int, inMemory: Bool)
    /// A Location that cannot be followed (another scheme, not a URL).
    case badRedirect(url: String, location: String, reason: String)
    /// Stopped by the caller (Ctrl-C).
    case cancelled(url: String)
    /// The handle or an option could not be set up.
    case setup(String)

    /// The message, with hints naming Lua fields.
    public var description: String { message(.lua) }

    /// The message, with hints naming the options as `naming` spells them.
    public func message(_ naming: Naming) -> String {
        switch self {
        case .transfer(let method, let url, let code, let reason, let hint):
            return "\(method) \(url): \(reason) (curl error \(code))" + (hint.map { "; \($0.text(naming))" } ?? "")
        case .tooManyRedirects(let url, let limit):
            return "\(url): more than \(limit) redirects " + (naming == .lua ? "(raise max_redirects, or follow = false to see the response)"
                                                                            : "(raise --max-redirects, or --no-follow to see the response)")
        case .bodyTooLarge(let url, let limit, let inMemory):
            let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            let lua = naming == .lua
            let stream = inMemory ? (lua ? "stream it with sink = \"file\" or sink = function(chunk), or " : "write it to a file with -o FILE, or ") : ""
            return "\(url): the response body is larger than \(size) (\(lua ? "max_body" : "--max-filesize")); \(stream)raise \(lua ? "max_body" : "--max-filesize")"
        case .badRedirect(let url, let location, let reason):
            return "\(url): cannot follow redirect to \"\(PercentDecodingError.printable(Array(location.utf8)))\": \(reason)"
        case .cancelled(let url):
            return "\(url): interrupted"
        case .setup(let message):
            return message
        }
    }
}
