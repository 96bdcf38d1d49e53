/// A logical host mapped to a physical address, curl's `--connect-to`: the socket goes to
/// `address`, while the URL, the Host header, TLS SNI, the certificate check and cookie matching
/// all keep the logical name. The clean form of "IP direct" (HTTPDNS) connections.
///
/// Written `["api.example.com:443"] = "203.0.113.7:443"`; either port may be left out (any port on
/// the left, the same port on the right); IPv6 addresses go in brackets (`[2001:db8::7]:443`).
public struct HostMapping: Equatable, Sendable, CustomStringConvertible {
    /// The logical host (lower-cased, IPv6 without brackets).
    public var host: String
    /// The logical port; nil matches any.
    public var port: Int?
    /// Where to connect instead (IPv6 without brackets).
    public var address: String
    /// The port to connect to; nil keeps the URL's port.
    public var addressPort: Int?

    /// - Parameters: `host` is read as a URL's host is (`例子.中国` is `xn--fsqu00a.xn--fiqs8s`,
    ///   `0x7F.1` is `127.0.0.1`), so a mapping matches however the request's URL writes it.
    public init(host: String, port: Int?, address: String, addressPort: Int?) {
        self.host = RequestURL.canonicalHost(host); self.port = port; self.address = RequestURL.canonicalHost(address)
        self.addressPort = addressPort
    }

    /// Parses one `connect` entry.
    /// - Parameter logical: `host:port` as requests name it (`example.com:443`).
    /// - Parameter physical: `address:port` to connect to instead.
    /// - Parameter written: the entry as the user wrote it, for messages (default: the Lua field,
    ///   `connect["name:443"] = "address:443"`; the CLI passes `--connect name:443=address:443`).
    /// - Throws: `RequestError.invalid` naming the entry and what is wrong with it.
    public init(_ logical: String, _ physical: String, written: String? = nil) throws {
        let from = try Self.hostPort(logical, what: written ?? "connect key \"\(logical)\"")
        let to = try Self.hostPort(physical, what: written ?? "connect[\"\(logical)\"] = \"\(physical)\"")
        self.init(host: from.host, port: from.port, address: to.host, addressPort: to.port)
    }

    /// Whether a request to `host:port` is redirected by this mapping. A mapping for the host
    /// `*` (curl's `--resolve '*:PORT:ADDR'`) or for no host (`--connect-to ':PORT:…'`) takes
    /// every host.
    public func matches(host: String, port: Int) -> Bool {
        (self.host.isEmpty || self.host == "*" || self.host == RequestURL.canonicalHost(host)) && (self.port == nil || self.port == port)
    }

    /// curl's `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT` (an empty port matches any / keeps it).
    public var curlArgument: String {
        "\(host == "*" ? "" : Self.bracketed(host)):\(port.map(String.init) ?? ""):\(Self.bracketed(address)):\(addressPort.map(String.init) ?? "")"
    }

    public var description: String {
        "\(Self.bracketed(host))\(port.map { ":\($0)" } ?? "") -> \(Self.bracketed(address))\(addressPort.map { ":\($0)" } ?? "")"
    }

    /// `host` as a URL writes it: an IPv6 address in brackets.
    public static func bracketed(_ host: String) -> String { host.utf8.contains(0x3A) ? "[\(host)]" : host }

    static func hostPort(_ text: String, what: String) throws -> (host: String, port: Int?) {
        func fail(_ reason: String) -> RequestError { .invalid("\(what): \(reason)") }
        let (host, portText) = try RequestURL.splitHostPort(Substring(text), fail)
        if host.contains(":") && !text.hasPrefix("[") { throw fail("write an IPv6 address in brackets, as [2001:db8::1]:443") }
        guard !host.isEmpty else { throw fail("no host") }
        guard host.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F && !"/?#@[]".utf8.contains($0) }) else {
            throw fail("the host may not contain spaces, control bytes or any of / ? # @ [ ]")
        }
        do { _ = try RequestURL.checkedCanonicalHost(String(host)) } catch { throw fail("\(error)") }
        guard let portText else { return (String(host), nil) }
        guard let port = Int(portText), (1...65535).contains(port) else { throw fail("the port must be a number from 1 to 65535") }
        return (String(host), port)
    }
}
