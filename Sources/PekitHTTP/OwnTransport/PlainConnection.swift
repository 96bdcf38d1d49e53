import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to an HTTP/1.1 server that pekit reads and writes itself (no libcurl): a
/// non-blocking socket with Nagle's algorithm off, as libcurl sets its own. Closed when released.
final class PlainConnection {
    let fd: Int32
    /// The address and port connected to, as a response reports them.
    let address: String
    let port: Int
    /// Which requests may use it: "host:port" as the URL spells them.
    let key: String
    /// The server answered the last request on this connection in HTTP/1.0 (and kept it open):
    /// curl asks the next one in HTTP/1.0 too (its test 1074).
    var answersHTTP10 = false

    private init(fd: Int32, address: String, port: Int, key: String) {
        self.fd = fd; self.address = address; self.port = port; self.key = key
    }

    deinit { close(fd) }

    /// Starts connecting to `address` (an IPv4 or IPv6 literal) and `port`; the connection is
    /// usable once the socket is writable and `connectError()` is 0.
    /// - Returns: nil when no socket can be made or the connect fails at once.
    static func start(address: String, port: Int, key: String) -> PlainConnection? {
        var v4 = sockaddr_in(), v6 = sockaddr_in6()
        let family: Int32
        if address.withCString({ inet_pton(AF_INET, $0, &v4.sin_addr) }) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
        } else if address.withCString({ inet_pton(AF_INET6, $0, &v6.sin6_addr) }) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
        } else {
            return nil
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let result = family == AF_INET
            ? withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            : withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        guard result == 0 || errno == EINPROGRESS else {
            close(fd)
            return nil
        }
        return PlainConnection(fd: fd, address: address, port: port, key: key)
    }

    /// The connection's own address and port, as `%{local_ip}` shows them: asked of the socket
    /// once (getsockname), not for every request the connection carries.
    private(set) lazy var localEnd: (address: String, port: Int) = askLocalEnd()

    private func askLocalEnd() -> (address: String, port: Int) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        guard got == 0 else { return ("", 0) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        func written() -> String { String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET {
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var address = v4.pointee.sin_addr
                    inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                    return (written(), Int(UInt16(bigEndian: v4.pointee.sin_port)))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var address = v6.pointee.sin6_addr
                inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                return (written(), Int(UInt16(bigEndian: v6.pointee.sin6_port)))
            }
        }
    }

    /// Whether an idle connection has something to read: bytes sent before any request asked
    /// for them, the server's close, or an error. One poll, not waiting.
    func hasUnaskedInput() -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) != 0
    }

    /// The outcome of a connect in progress, once the socket is writable: 0 when connected.
    func connectError() -> Int32 {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return errno }
        return error
    }
}

/// Where a plain-HTTP URL goes: its "host:port" key and the host's address when pekit can connect
/// without asking a resolver (an IP literal, or a name whose address libcurl found lately).
struct PlainRoute {
    let key: String
    /// The host as in the URL (an IPv6 literal without its brackets).
    let host: String
    let port: Int

    /// The route of an `http://` URL with no user info (libcurl sends that as Authorization),
    /// or nil: read from the parse the URL carries, never scanned again.
    init?(_ url: RequestURL) {
        guard url.scheme == "http", url.userinfo == nil, !url.host.isEmpty, url.effectivePort > 0 else { return nil }
        key = url.authority
        host = url.host
        port = url.effectivePort
    }

    /// The route of the request's URL (its carried parse, or a parse now).
    init?(_ request: PekitRequest) {
        guard let url = try? request.requestURL() else { return nil }
        self.init(url)
    }

    /// The route of a URL given as text (for tests and callers without a parse).
    init?(_ text: String) {
        guard let url = try? RequestURL(text) else { return nil }
        self.init(url)
    }

    /// The host when it is an IP address literal (nothing to resolve; `PlainConnection.start`
    /// reads it, and a form it cannot read leaves the request to libcurl).
    var literalAddress: String? { RequestURL.isIPAddress(host) ? host : nil }
}
