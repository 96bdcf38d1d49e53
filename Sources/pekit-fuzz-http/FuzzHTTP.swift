// libFuzzer target for the two HTTP/1.1 readers (scripts/fuzz http): each input is a response a
// server sends, byte for byte, on a loopback connection; pekit's own reader (the plain path) and
// libcurl each receive it for the same GET, and what they make of it must be the same: status,
// reason, version, fields, trailers, body, the cookies a jar stores, and the error (libcurl's
// code and words). A difference is a finding. Without -DPEKIT_FUZZ (a plain build) it runs the
// same comparison over N random mutations of its seeds: `swift run pekit-fuzz-http [N]`.
// `pekit load`'s fast path (LoadConnections: the same reader, its own connections) is held to
// pekit's general path on the same bytes too: the status and body length it counts, or its error;
// and `pekit serve`'s request framing reads the same bytes as a request (`framingProblem`).
import Foundation
import PekitCore
import PekitHTTP
#if canImport(Glibc)
import Glibc
#endif

/// A loopback server that answers every connection with the current response, then closes.
final class CannedServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var response: [UInt8] = []

    init() {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        listen(fd, 64)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    func answer(with bytes: [UInt8]) { lock.lock(); response = bytes; lock.unlock() }

    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            // The request head, then the response, then the close.
            var head: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let n = recv(client, &buffer, buffer.count, 0)
                if n <= 0 { break }
                head += buffer[0..<n]
            }
            lock.lock(); let bytes = response; lock.unlock()
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
            shutdown(client, Int32(SHUT_WR))
            // Let the client read to the close before the socket goes.
            while recv(client, &buffer, buffer.count, 0) > 0 {}
            close(client)
        }
    }
}

/// What one sender made of the response, as text.
func outcome(_ server: CannedServer, plain: Bool) -> String {
    let jar = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
    var options = SendOptions()
    options.plainHTTP = plain
    options.followRedirects = false
    options.timeout = .seconds(5)
    options.jar = jar
    let cookies = { jar.all.map { "\($0.name)=\($0.value)" }.sorted().joined(separator: ",") }
    do {
        let request = try RequestBuilder(url: "http://127.0.0.1:\(server.port)/f").build()
        let r = try PekitClient().sendBlocking(request, options: options)
        func shown(_ bytes: [UInt8]) -> String { bytes.count <= 64 ? "\(bytes)" : "\(bytes.count) bytes, hash \(bytes.hashValue)" }
        let fields = r.headers.map { "\(Array($0.name.utf8)): \(shown($0.value.bytes))" }
        let trailers = r.trailers.map { "\(Array($0.name.utf8)): \(shown($0.value.bytes))" }
        return "\(r.status) \(Array(r.reason.utf8)) \(r.httpVersion)\n\(fields)\n\(trailers)\nbody \(shown(r.body))\ncookies \(cookies())"
    } catch {
        // The URL's port differs between runs; the words are what is compared.
        return "error \(error)".replacingOccurrences(of: "\(server.port)", with: "PORT") + "\ncookies \(cookies())"
    }
}

/// Send options that leave a request to be sent and read, nothing more (what the fast path
/// takes); with `follows`, redirects followed (the canned answer again on every hop: two at most).
func bareOptions(follows: Bool) -> SendOptions {
    var options = SendOptions()
    options.followRedirects = follows
    options.maxRedirects = 2
    options.timeout = .seconds(5)
    return options
}

/// What `pekit load`'s fast path counted of one request: `status body N`, or its error's words.
func loadOutcome(_ server: CannedServer, follows: Bool) -> String {
    let options = bareOptions(follows: follows)
    do {
        let request = try RequestBuilder(url: "http://127.0.0.1:\(server.port)/f").build()
        let runner = LoadRunner(plan: LoadPlan(connections: 1, duration: nil, requests: 1, timeout: 5), request: request, options: options)
        let result = try runner.run()
        if let (status, _) = result.statuses.first { return "\(status) body \(result.bytesReceived)" }
        return "error \(result.messages.first?.text ?? "none")".replacingOccurrences(of: "\(server.port)", with: "PORT")
    } catch {
        return "error \(error)"
    }
}

/// The same of pekit's general path (`PekitClient`, the plain transfer).
func generalOutcome(_ server: CannedServer, follows: Bool) -> String {
    let options = bareOptions(follows: follows)
    do {
        let request = try RequestBuilder(url: "http://127.0.0.1:\(server.port)/f").build()
        let r = try PekitClient().sendBlocking(request, options: options)
        return "\(r.status) body \(r.bodyLength)"
    } catch {
        return "error \(error)".replacingOccurrences(of: "\(server.port)", with: "PORT")
    }
}

let server = CannedServer()

/// `pekit serve`'s reader of requests (`RequestFraming`) on the same bytes, read as a request:
/// a stranger's bytes stop it on nothing, and what it frames is the input's first bytes, its
/// body within the limit; the bytes given in two parts frame as they do whole.
func framingProblem(_ bytes: [UInt8]) -> String? {
    let framing = RequestFraming(maxHead: 2048, maxBody: 1024)
    guard case .request(let request, let consumed) = framing.frame(bytes) else { return nil }
    guard consumed <= bytes.count, request.raw == Array(bytes[..<consumed]), request.body.count <= 1024 else {
        return "pekit serve's framing took \(consumed) of \(bytes.count) bytes, a body of \(request.body.count)"
    }
    // Fewer bytes than it took are not yet a request.
    if consumed > 0, case .request = framing.frame(Array(bytes[..<(consumed - 1)])) {
        return "pekit serve's framing found a request in \(consumed - 1) bytes and another in \(consumed)"
    }
    return nil
}

/// Compares both readers on `bytes`; a difference is reported with both outcomes.
func compare(_ bytes: [UInt8]) -> String? {
    if let problem = framingProblem(bytes) { return problem }
    server.answer(with: bytes)
    let ours = outcome(server, plain: true)
    let curls = outcome(server, plain: false)
    if ours != curls { return "pekit's reader:\n\(ours)\nlibcurl:\n\(curls)" }
    let general = generalOutcome(server, follows: false), fast = loadOutcome(server, follows: false)
    if general != fast { return "pekit's general path:\n\(general)\npekit load's fast path:\n\(fast)" }
    // A redirect's status: followed too, the fast path handing its answer to the general path.
    guard general.hasPrefix("30") else { return nil }
    let generalFollowing = generalOutcome(server, follows: true), fastFollowing = loadOutcome(server, follows: true)
    return generalFollowing == fastFollowing ? nil : "following redirects, pekit's general path:\n\(generalFollowing)\npekit load's fast path:\n\(fastFollowing)"
}

#if PEKIT_FUZZ
@_cdecl("LLVMFuzzerTestOneInput")
public func pekitFuzzHTTP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let difference = compare(bytes) {
        FileHandle.standardError.write(Data("finding: the two readers differ on \(bytes)\n\(difference)\n".utf8))
        abort()
    }
    return 0
}
#else
@main
enum FuzzHTTPSmoke {
    static func main() {
        // `--show FILE…`: both outcomes for each file's bytes (for reading libcurl's behaviour).
        if CommandLine.arguments.dropFirst().first == "--show" {
            for path in CommandLine.arguments.dropFirst(2) {
                let bytes = Array(FileManager.default.contents(atPath: path) ?? Data())
                server.answer(with: bytes)
                let ours = outcome(server, plain: true), curls = outcome(server, plain: false)
                print("== \(path)\(ours == curls ? " (same)" : "")\nlibcurl: \(curls)\(ours == curls ? "" : "\npekit:   \(ours)")")
            }
            return
        }
        let runs = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 500
        let seeds = [
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nSet-Cookie: a=1\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-T: 1\r\n\r\n",
            "HTTP/1.0 302 Found\r\nLocation: /x\r\nX-Fold: a\r\n b\r\n\r\nbody",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n",
        ].map { Array($0.utf8) }
        var state: UInt64 = 0x9E3779B97F4A7C15
        func random(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(max(1, bound)))
        }
        let interesting: [UInt8] = [0, 9, 10, 13, 32, 0x2E, 0x3A, 0x30, 0x31, 0x32, 0x39, 0x41, 0x7F, 0xFF, 0x2B, 0x2D]
        var differences = 0
        for i in 0..<runs {
            var bytes = seeds[random(seeds.count)]
            for _ in 0..<(1 + random(4)) where !bytes.isEmpty {
                let at = random(bytes.count)
                switch random(3) {
                case 0: bytes[at] = random(2) == 0 ? interesting[random(interesting.count)] : UInt8(random(256))
                case 1: bytes.insert(interesting[random(interesting.count)], at: at)
                default: bytes.remove(at: at)
                }
            }
            if let difference = compare(bytes) {
                differences += 1
                print("== run \(i): \(String(decoding: bytes, as: UTF8.self).debugDescription)\n\(difference)")
                if differences >= 10 { break }
            }
        }
        print("\(differences) differences in \(runs) runs")
        exit(differences == 0 ? 0 : 1)
    }
}
#endif
