import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 for tests of connections that fail: `unused()`, a port nobody listens
/// on (a connect is refused); `neverAccepting()`, a listener whose queue is full and that never
/// accepts (the kernel drops each new SYN, so a connect hangs until a limit ends it).
final class LoopbackListener {
    let port: Int
    private var sockets: [Int32]

    private init(port: Int, sockets: [Int32]) {
        self.port = port
        self.sockets = sockets
    }

    deinit { sockets.forEach { close($0) } }

    /// A port that was free a moment ago: bound, read and closed again.
    static func unused() -> LoopbackListener {
        let (socket, port) = bound()
        close(socket)
        return LoopbackListener(port: port, sockets: [])
    }

    /// A listener with a backlog of 0, filled by three connects it never accepts.
    static func neverAccepting() -> LoopbackListener {
        let (listener, port) = bound()
        listen(listener, 0)
        var sockets = [listener]
        var address = loopback(port: port)
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            sockets.append(filler)
        }
        // The fillers' handshakes settle (the first is queued, the others' SYNs dropped).
        usleep(100_000)
        return LoopbackListener(port: port, sockets: sockets)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A socket bound to a port the kernel chose, and that port.
    private static func bound() -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
