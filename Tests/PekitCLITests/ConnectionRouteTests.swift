import Foundation
import PekitTestSupport
import XCTest

/// Issue 73: the other ways a request reaches its server, each held to curl 7.88 on loopback:
/// SOCKS4, SOCKS4a, SOCKS5 and SOCKS5 with the name (`--socks4`, `--socks4a`, `--socks5`,
/// `--socks5-hostname`), a tunnel through an HTTP proxy (`-p`, with `-U`), `--noproxy`, and
/// Unix domain sockets (`--unix-socket`, `--abstract-unix-socket`). Tests/Server/route_servers.py
/// records what each client asked the proxy, byte for byte, and relays to the test server,
/// whose answer is the request as it arrived: both must be curl's.
final class ConnectionRouteTests: XCTestCase {
    private struct Routes: Decodable { let proxy: Int; let unix: String; let abstract: String; let log: String }
    private var process: Process?
    private var routes: Routes!
    private var server: TestServer!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        server = try TestServer.shared()
        let directory = try makeTemporaryDirectory("routes")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", PekitProcess.packageRoot.appendingPathComponent("Tests/Server/route_servers.py").path, directory.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        self.process = process
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        routes = try JSONDecoder().decode(Routes.self, from: line)
    }

    override func tearDown() {
        process?.terminate()
        process?.waitUntilExit()
    }

    /// The handshakes the proxy recorded since `count` of them, as text where they are ASCII.
    private func handshakes(after count: Int) throws -> [String] {
        let lines = try String(contentsOfFile: routes.log, encoding: .utf8).split(separator: "\n")
        return lines.dropFirst(count).compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
                  let bytes = object["bytes"].flatMap({ Data(base64Encoded: $0) }) else { return nil }
            return object["kind", default: ""] + " " + Self.shown(Array(bytes))
        }
    }

    /// Bytes as the handshakes are compared: printable ASCII as it is, the rest as \xNN.
    private static func shown(_ bytes: [UInt8]) -> String {
        bytes.map { (0x20..<0x7F).contains($0) || $0 == 0x0A || $0 == 0x0D ? String(UnicodeScalar($0)) : String(format: "\\x%02x", $0) }.joined()
    }

    private func handshakeCount() throws -> Int { try handshakes(after: 0).count }

    /// The echo of the request as it reached the server, the connection's own port left out.
    private func echoed(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""client_port": \d+"#, with: "\"client_port\": 0", options: .regularExpression)
    }

    /// curl and pekit (`pekit request` and `pekit import curl --send`) with the same flags: the
    /// same exit status, the same output, and the same handshake with the proxy.
    private func assertSameAsCurl(_ flags: [String], _ url: String, handshake: String?, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try handshakeCount()
        let curl = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-A", "route/1"] + flags + [url])
        let theirs = try handshakes(after: before)
        let quoted = (flags + [url]).map { "'\($0)'" }.joined(separator: " ")
        for command in [["request", "--send", "-s", "-A", "route/1"] + flags + [url], ["import", "curl", "--send", "curl -s -A route/1 \(quoted)"]] {
            let mark = try handshakeCount()
            let ours = try PekitProcess.run(command)
            XCTAssertEqual(ours.status, curl.status, "\(command): \(ours.stderr)", file: file, line: line)
            XCTAssertEqual(echoed(ours.stdoutBytes), echoed(curl.stdoutBytes), "\(command)", file: file, line: line)
            XCTAssertEqual(try handshakes(after: mark), theirs, "\(command)", file: file, line: line)
        }
        if let handshake { XCTAssertEqual(theirs.first, handshake, "curl's handshake", file: file, line: line) } else { XCTAssertEqual(theirs, [], file: file, line: line) }
    }

    func testSOCKSProxiesAsCurlSpeaksThem() throws {
        let proxy = "127.0.0.1:\(routes.proxy)", port = server.httpPort
        // The port's two bytes, shown as the handshakes are (a byte may be printable).
        let p = Self.shown([UInt8(port >> 8), UInt8(port & 0xFF)])
        // SOCKS4 and SOCKS5 are given the address; SOCKS4a and SOCKS5 with the name, the name.
        try assertSameAsCurl(["--socks4", proxy], "http://127.0.0.1:\(port)/s4", handshake: "socks4 \\x04\\x01\(p)\\x7f\\x00\\x00\\x01\\x00")
        try assertSameAsCurl(["--socks4a", proxy], "http://localhost:\(port)/s4a", handshake: "socks4a \\x04\\x01\(p)\\x00\\x00\\x00\\x01\\x00localhost\\x00")
        try assertSameAsCurl(["--socks5", proxy], "http://127.0.0.1:\(port)/s5", handshake: "socks5 \\x05\\x02\\x00\\x01\\x05\\x01\\x00\\x01\\x7f\\x00\\x00\\x01\(p)")
        try assertSameAsCurl(["--socks5-hostname", proxy], "http://localhost:\(port)/s5h", handshake: "socks5 \\x05\\x02\\x00\\x01\\x05\\x01\\x00\\x03\\x09localhost\(p)")
        // A scheme in -x says the same; the last of -x and --socks5 wins, as in curl.
        try assertSameAsCurl(["-x", "socks5h://\(proxy)"], "http://localhost:\(port)/x", handshake: "socks5 \\x05\\x02\\x00\\x01\\x05\\x01\\x00\\x03\\x09localhost\(p)")
        try assertSameAsCurl(["-x", "http://127.0.0.1:1", "--socks5", proxy], "http://127.0.0.1:\(port)/last", handshake: "socks5 \\x05\\x02\\x00\\x01\\x05\\x01\\x00\\x01\\x7f\\x00\\x00\\x01\(p)")
        // From Lua, the proxy's scheme says it.
        let script = try makeTemporaryDirectory("socks").appendingPathComponent("s.lua")
        try #"io.write(pekit.http.get(arg[1], { proxy = arg[2] }):json().headers[1][2])"#.write(to: script, atomically: true, encoding: .utf8)
        let lua = try PekitProcess.run(["run", script.path, "http://localhost:\(port)/lua", "socks5h://\(proxy)"])
        XCTAssertEqual(lua.stdout, "localhost:\(port)", lua.stderr)
    }

    func testATunnelThroughAnHTTPProxyAsCurlAsksForIt() throws {
        let proxy = "127.0.0.1:\(routes.proxy)", target = "127.0.0.1:\(server.httpPort)"
        try assertSameAsCurl(["-p", "-x", proxy], "http://\(target)/tunnel",
                             handshake: "connect CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\nUser-Agent: route/1\r\nProxy-Connection: Keep-Alive\r\n\r\n")
        try assertSameAsCurl(["--proxytunnel", "-U", "pu:pp", "-x", proxy, "-H", "X-A: 1", "-d", "a=1"], "http://\(target)/tunnel",
                             handshake: "connect CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\nProxy-Authorization: Basic cHU6cHA=\r\nUser-Agent: route/1\r\nProxy-Connection: Keep-Alive\r\n\r\n")
    }

    func testNoProxyListsAsCurlReadsThem() throws {
        let url = "\(server.base)/direct"
        // The environment's proxy is a port nobody listens on: the hosts the list names go
        // direct, the others fail to reach the proxy (exit 7), in both.
        for list in ["127.0.0.1", "127.0.0.0/8", "*", "example.com, 127.0.0.1", "localhost", ".0.0.1"] {
            let environment = ["http_proxy": "http://127.0.0.1:1", "NO_PROXY": ""]
            let curl = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-A", "route/1", "--noproxy", list, url], environment: environment)
            let ours = try PekitProcess.run(["request", "--send", "-s", "-A", "route/1", "--noproxy", list, url], environment: environment)
            XCTAssertEqual(ours.status, curl.status, "--noproxy \(list): \(ours.stderr)")
            XCTAssertEqual(echoed(ours.stdoutBytes), echoed(curl.stdoutBytes), "--noproxy \(list)")
        }
        // NO_PROXY from the environment, when --noproxy is not given.
        let environment = ["http_proxy": "http://127.0.0.1:1", "NO_PROXY": "127.0.0.1"]
        let curl = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-A", "route/1", url], environment: environment)
        let ours = try PekitProcess.run(["request", "--send", "-s", "-A", "route/1", url], environment: environment)
        XCTAssertEqual(curl.status, 0)
        XCTAssertEqual(echoed(ours.stdoutBytes), echoed(curl.stdoutBytes))
    }

    func testUnixDomainSocketsAsCurlUsesThem() throws {
        try assertSameAsCurl(["--unix-socket", routes.unix], "http://localhost/unix?a=1", handshake: nil)
        try assertSameAsCurl(["--abstract-unix-socket", routes.abstract, "-d", "x=1"], "http://api.example/abstract", handshake: nil)
        let missing = try PekitProcess.run(["request", "--send", "--unix-socket", "/nonexistent/pekit.sock", "http://localhost/"])
        XCTAssertEqual(missing.status, 7, missing.stderr)
    }
}
