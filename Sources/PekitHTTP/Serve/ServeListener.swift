import CTLSShim
import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// A plain HTTP/1.1 server on one address: connections accepted and read with `poll` on one
/// thread (a slow or silent client holds up no other), each request framed by
/// `RequestFraming`, handed to `run`'s handler, and answered; kept-alive connections serve
/// several. Bounded: at most `maxConnections` at once, a connection idle `idleSeconds` closed.
package final class ServeListener {
    /// An answer to write: a status, header fields and a body (`Content-Length` is added).
    package struct Answer {
        package var status: Int
        package var headers: [(String, String)]
        package var body: [UInt8]
        /// An event stream (`text/event-stream`): the head is written without a length and the
        /// connection kept for `broadcast`.
        package var streams = false
        package init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], streams: Bool = false) {
            self.status = status; self.headers = headers; self.body = body; self.streams = streams
        }
    }

    /// Why the server could not start.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The address it listens on, as given, and the port (the one the system chose for 0).
    package let host: String
    package let port: Int
    package var framing = RequestFraming()
    package var maxConnections = 256
    package var idleSeconds = 30.0
    /// TLS on every connection (`--tls`), or plain HTTP.
    package var tls: ServeTLS?
    private let listener: Int32
    private var connections: [Connection] = []

    private final class Connection {
        let fd: Int32, peer: String
        var buffer: [UInt8] = []
        var lastActive: Double
        var sentContinue = false
        /// An event stream's reader: written to by `broadcast`, never closed for being idle.
        var subscribed = false
        var broken = false
        /// Its TLS session (`--tls`), and whether its handshake is over.
        var session: UnsafeMutableRawPointer?
        var handshaken = false
        init(fd: Int32, peer: String, now: Double) { self.fd = fd; self.peer = peer; lastActive = now }
        deinit { pekit_tls_session_free(session) }
    }

    /// Binds `host` (an IPv4 or IPv6 address) and `port` (0: any free port).
    /// - Throws: `Failure` naming the address and the system's reason.
    package init(host: String, port: Int) throws {
        self.host = host
        var v4 = sockaddr_in(), v6 = sockaddr_in6()
        let isV6 = host.contains(":")
        if isV6 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(clamping: port)).bigEndian
            guard host.withCString({ inet_pton(AF_INET6, $0, &v6.sin6_addr) }) == 1 else {
                throw Failure(description: "--listen: \(host) is not an IP address (give one, as 127.0.0.1 or ::1)")
            }
        } else {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
            guard host.withCString({ inet_pton(AF_INET, $0, &v4.sin_addr) }) == 1 else {
                throw Failure(description: "--listen: \(host) is not an IP address (give one, as 127.0.0.1 or ::1)")
            }
        }
        let fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "cannot make a socket: \(cText(strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = isV6
            ? withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
            : withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = cText(strerror(errno))
            close(fd)
            throw Failure(description: "cannot listen on \(isV6 ? "[\(host)]" : host):\(port): \(reason)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        var chosen = sockaddr_in6()
        _ = withUnsafeMutablePointer(to: &chosen) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        // sin_port and sin6_port sit at the same offset.
        self.port = Int(UInt16(bigEndian: chosen.sin6_port))
        listener = fd
    }

    deinit { close(listener) }

    /// Serves until `stop` returns true (asked at least once a second).
    /// - Parameter handle: the answer to each request, in the order they arrive.
    package func run(stop: () -> Bool, handle: (ServedRequest) -> Answer) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var lastPing = UnixTime.monotonic()
        while !stop() {
            var polls = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)] + connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polls, nfds_t(polls.count), 1000)
            let now = UnixTime.monotonic()
            if ready < 0 && errno != EINTR { break }
            var closed: Set<Int32> = []
            // The connections polled (one accepted below waits for the next round).
            for (i, connection) in connections.enumerated() where polls[i + 1].revents != 0 {
                if let session = connection.session {
                    // The handshake first (a client that never finishes it is closed when idle),
                    // then every byte the session has (it may hold more than the socket shows).
                    if !connection.handshaken {
                        switch pekit_tls_handshake(session) {
                        case 1: connection.handshaken = true
                        case 0: continue
                        default: closed.insert(connection.fd); continue
                        }
                    }
                    var read = 0, ended = false
                    while true {
                        let n = buffer.withUnsafeMutableBytes { pekit_tls_read(session, $0.baseAddress, $0.count) }
                        if n > 0 { connection.buffer += buffer[0..<n]; read += n; continue }
                        ended = n < 0
                        break
                    }
                    if read > 0 {
                        connection.lastActive = now
                        if !serve(connection, handle: handle) { closed.insert(connection.fd); continue }
                    }
                    if ended { closed.insert(connection.fd) }
                    continue
                }
                let n = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 {
                    if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                    closed.insert(connection.fd)
                    continue
                }
                connection.buffer += buffer[0..<n]
                connection.lastActive = now
                if !serve(connection, handle: handle) { closed.insert(connection.fd) }
            }
            // An event stream's reader gets a comment now and then: a peer that went away is
            // found by the write failing.
            if now - lastPing >= 15 {
                lastPing = now
                broadcast(Array(": ping\n\n".utf8))
            }
            for connection in connections where connection.broken || (!connection.subscribed && now - connection.lastActive > idleSeconds) {
                closed.insert(connection.fd)
            }
            if polls[0].revents & Int16(POLLIN) != 0 { accept(into: &connections, now: now) }
            if !closed.isEmpty {
                for fd in closed { close(fd) }
                connections.removeAll { closed.contains($0.fd) }
            }
        }
        for connection in connections { close(connection.fd) }
        connections = []
    }

    /// Writes `bytes` to every event stream's reader (an event: `event: NAME\ndata: …\n\n`).
    package func broadcast(_ bytes: [UInt8]) {
        for connection in connections where connection.subscribed && !connection.broken {
            if !write(bytes, to: connection) { connection.broken = true }
        }
    }

    private func accept(into connections: inout [Connection], now: Double) {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) } }
            guard fd >= 0 else { return }
            guard connections.count < maxConnections else { close(fd); continue }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let connection = Connection(fd: fd, peer: Self.describe(&address), now: now)
            if let tls {
                guard let session = pekit_tls_session(tls.context, fd) else { close(fd); continue }
                connection.session = session
            }
            connections.append(connection)
        }
    }

    /// Answers every whole request the connection's bytes hold; false when it is to be closed.
    private func serve(_ connection: Connection, handle: (ServedRequest) -> Answer) -> Bool {
        while true {
            switch framing.frame(connection.buffer) {
            case .incomplete(let expectsContinue):
                if expectsContinue && !connection.sentContinue {
                    connection.sentContinue = true
                    return write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: connection)
                }
                return true
            case .refused(let status, let reason):
                _ = write(Self.bytes(of: Answer(status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close")],
                                               body: Array("pekit serve: \(reason)\n".utf8))), to: connection)
                return false
            case .request(var request, let consumed):
                connection.buffer.removeFirst(consumed)
                connection.sentContinue = false
                request.peer = connection.peer
                if connection.session != nil { request.scheme = "https" }
                let closes = request.header("Connection").map { $0.lowercased().contains("close") } ?? (request.version == "HTTP/1.0")
                var answer = handle(request)
                if answer.streams {
                    connection.subscribed = true
                    return write(Self.bytes(of: answer), to: connection)
                }
                if closes { answer.headers.append(("Connection", "close")) }
                guard write(Self.bytes(of: answer, head: request.method == "HEAD"), to: connection), !closes else { return false }
            }
        }
    }

    /// The answer's bytes: status line, fields, Content-Length, then the body (none for HEAD).
    static func bytes(of answer: Answer, head: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(answer.status) \(reason(answer.status))\r\n"
        for (name, value) in answer.headers { text += "\(name): \(value)\r\n" }
        // An event stream has no length: it ends when the connection does.
        text += answer.streams ? "\r\n" : "Content-Length: \(answer.body.count)\r\n\r\n"
        return Array(text.utf8) + (head ? [] : answer.body)
    }

    /// The reason phrase RFC 9110 §15 gives a status (429 and 431: RFC 6585's); "Status" for
    /// one it names none for (a recorded response's own code, under --mock).
    static func reason(_ status: Int) -> String { reasons[status] ?? "Status" }

    private static let reasons: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
        204: "No Content", 205: "Reset Content", 206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently", 302: "Found",
        303: "See Other", 304: "Not Modified", 305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
        411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
        416: "Range Not Satisfiable", 417: "Expectation Failed", 421: "Misdirected Request", 422: "Unprocessable Content",
        426: "Upgrade Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
        501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]

    /// Linux's MSG_NOSIGNAL (which Swift's Glibc module does not carry): a peer that closed is
    /// an error from `send`, not a SIGPIPE that would end the server.
    private static let noSignal: Int32 = 0x4000

    /// Writes every byte (through its TLS session, if it has one), waiting up to five seconds
    /// at a time for room; false when it cannot.
    private func write(_ bytes: [UInt8], to connection: Connection) -> Bool {
        let fd = connection.fd
        var sent = 0
        while sent < bytes.count {
            if let session = connection.session {
                let n = bytes[sent...].withUnsafeBytes { pekit_tls_write(session, $0.baseAddress, $0.count) }
                if n > 0 { sent += n; continue }
                guard n == 0 else { return false }
                // TLS may need to read (a renegotiation) as well as write.
                var room = pollfd(fd: fd, events: Int16(POLLOUT) | Int16(POLLIN), revents: 0)
                guard poll(&room, 1, 5000) > 0 else { return false }
                continue
            }
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Self.noSignal) }
            if n > 0 { sent += n; continue }
            guard n < 0, errno == EAGAIN || errno == EINTR else { return false }
            var room = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&room, 1, 5000) > 0 else { return false }
        }
        return true
    }

    private static func describe(_ address: inout sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if address.ss_family == sa_family_t(AF_INET6) {
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                var a = p.pointee.sin6_addr
                inet_ntop(AF_INET6, &a, &text, socklen_t(text.count))
                return "[\(cText(text))]:\(UInt16(bigEndian: p.pointee.sin6_port))"
            } }
        }
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
            var a = p.pointee.sin_addr
            inet_ntop(AF_INET, &a, &text, socklen_t(text.count))
            return "\(cText(text)):\(UInt16(bigEndian: p.pointee.sin_port))"
        } }
    }
}
