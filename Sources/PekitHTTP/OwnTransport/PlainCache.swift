import CCurlShim
import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// What an engine keeps from one plain transfer to the next: its idle connections per host and
/// port, the addresses libcurl found for host names, the last request's head, and how soon
/// answers have lately come (whether to spin for the next one).
final class PlainCache {
    private var idle: [String: [(connection: PlainConnection, since: Double)]] = [:]
    /// How long a connection may stay idle and be used again: libcurl's default (118 s).
    static let maxIdle = 118.0
    /// Names libcurl resolved for plain-HTTP URLs ("host:port" → address, when), kept as long as
    /// libcurl keeps an address (60 s).
    private var learned: [String: (address: String, at: Double)] = [:]
    static let learnedFor = 60.0
    /// The last plain request's head, and what it was made from.
    private var lastHead: (method: String, url: String, target: String?, fields: [PekitHeaders.Field], bytes: [UInt8])?
    /// Send-to-answer times of recent plain transfers, smoothed.
    private var recentWait = Double.infinity

    /// A connection for `route`: a kept one (`reused`), else a new one to its address when that
    /// is known without resolving (an IP literal, or learned); nil when there is none.
    func connection(for route: PlainRoute, now: Double) -> (connection: PlainConnection, reused: Bool)? {
        while var list = idle[route.key], let last = list.popLast() {
            idle[route.key] = list.isEmpty ? nil : list
            idleCount -= 1
            // Idle too long: libcurl would have closed it (CURLOPT_MAXAGE_CONN); a new one.
            // Readable while idle: bytes no request asked for (they would be taken as the next
            // answer, and every answer after would be one late) or the server's close. Either
            // way the connection is not used again.
            if now - last.since > Self.maxIdle || last.connection.hasUnaskedInput() {
                if list.isEmpty { return PlainConnection.start(address: last.connection.address, port: last.connection.port, key: route.key).map { ($0, false) } }
                continue
            }
            return (last.connection, true)
        }
        var address = route.literalAddress
        if address == nil, let known = learned[route.key] {
            if now - known.at < Self.learnedFor { address = known.address } else { learned[route.key] = nil }
        }
        guard let address else { return nil }
        if let fresh = PlainConnection.start(address: address, port: route.port, key: route.key) { return (fresh, false) }
        // Out of descriptors: the idle connections give theirs back, and it is tried once more.
        guard errno == EMFILE || errno == ENFILE, idleCount > 0 else { return nil }
        closeIdle()
        return PlainConnection.start(address: address, port: route.port, key: route.key).map { ($0, false) }
    }

    /// Idle connections kept at most, by each of the two caches (this and libcurl's): a quarter
    /// of the descriptors the process may have, so that files, jars and new connections find one.
    static let connectionBudget = max(4, pekit_descriptor_limit() / 4)
    private var idleCount = 0

    /// Keeps `connection` for the next request to its host and port (within the budget; one
    /// over it is closed as it goes).
    func keep(_ connection: PlainConnection, now: Double) {
        guard idleCount < Self.connectionBudget else { return }
        idle[connection.key, default: []].append((connection, now))
        idleCount += 1
    }

    /// Closes every idle connection (the process ran out of descriptors).
    func closeIdle() {
        idle = [:]
        idleCount = 0
    }

    /// Notes the address libcurl connected to for `route`, a host name.
    func learn(_ route: PlainRoute, address: String, now: Double) {
        learned[route.key] = (address, now)
    }

    /// `request`'s head: the last one's when it is the same request (a loop sends one again and
    /// again), else made and kept.
    func head(of request: PekitRequest) -> [UInt8] {
        if let last = lastHead, last.method == request.method.rawValue, last.url == request.url, last.target == request.requestTarget,
           last.fields == request.headers.fields {
            return last.bytes
        }
        let bytes = request.head()
        lastHead = (request.method.rawValue, request.url, request.requestTarget, request.headers.fields, bytes)
        return bytes
    }

    /// Notes how long a transfer's answer took to come (nil: it did not).
    func noteAnswer(after wait: Double?) {
        guard let wait else { return }
        recentWait = recentWait.isFinite ? 0.7 * recentWait + 0.3 * wait : wait
    }

    /// Whether to wait for one answer by asking its socket again and again, yielding the CPU
    /// between asks: when answers have lately come within `spinLimit` (a server on this machine
    /// or next to it), going to sleep and being woken costs more than the answer takes to come
    /// (on this project's machine three times more: 7,000 against 24,000 requests a second in a C
    /// loop). It spins at most `spinLimit` and then waits as usual; answers that come slower (a
    /// server far away) stop it. `PEKIT_SPIN=0` turns it off.
    static let spinLimit = 0.0005
    private static let spinAllowed = getenv("PEKIT_SPIN").map { cText($0) != "0" } ?? true

    /// Spins for `transfer`'s answer (see `spinLimit`); returns whether its socket became ready.
    func spun(for transfer: PlainTransfer) -> Bool {
        guard Self.spinAllowed, transfer.phase == .receiving, recentWait < Self.spinLimit else { return false }
        let deadline = UnixTime.monotonic() + Self.spinLimit
        var entry = pollfd(fd: transfer.connection.fd, events: Int16(POLLIN), revents: 0)
        repeat {
            if poll(&entry, 1, 0) > 0 { return true }
            sched_yield()  // a server on the same CPU gets it now
        } while UnixTime.monotonic() < deadline
        return false
    }
}
