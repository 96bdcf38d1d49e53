import Foundation
import PekitTestSupport
import XCTest

/// Issue 73: TLS client certificates (`-E`/`--cert`, `--key`, `--cert-type`, `--key-type`,
/// `--pass`), held to curl 7.88 against `openssl s_server -Verify 1 -www` on loopback: the
/// server insists on a certificate and shows the one it got, and pekit must get the page curl
/// gets (the client certificate's part of it, which the server prints whole) or fail with
/// curl's exit status.
final class ClientCertificateTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            throw XCTSkip("curl and openssl are needed")
        }
        directory = try makeTemporaryDirectory("client-cert")
        // A CA, a server certificate for localhost, and a client certificate whose key has a
        // passphrase; the same key in DER without one, and both in a PKCS#12 file.
        let ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1"
        let script = """
            set -e
            openssl req -x509 \(ec) -nodes -keyout ca.key -out ca.pem -days 3 -subj '/CN=pekit test CA' -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
            openssl req \(ec) -nodes -keyout server.key -out server.csr -subj /CN=localhost
            printf 'subjectAltName=DNS:localhost\\nextendedKeyUsage=serverAuth\\n' > server.cnf
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 3 -extfile server.cnf
            openssl req \(ec) -passout pass:s3cret -keyout client.key -out client.csr -subj '/CN=pekit client'
            printf 'extendedKeyUsage=clientAuth\\n' > client.cnf
            openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 3 -extfile client.cnf
            openssl pkey -in client.key -passin pass:s3cret -outform DER -out client-key.der
            openssl pkcs12 -export -in client.pem -inkey client.key -passin pass:s3cret -passout pass:p12pw -out client.p12
            cat client.pem client.key > client-both.pem
            """
        let made = try PekitProcess.run(program: URL(fileURLWithPath: "/bin/sh"), ["-c", script], directory: directory)
        XCTAssertEqual(made.status, 0, made.stderr)
    }

    /// A free loopback port (bound, then let go).
    private func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw XCTSkip("no loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `client(port)` run against a fresh `openssl s_server -Verify 1 -www` (one connection).
    private func withServer(_ client: (Int) throws -> PekitResult) throws -> PekitResult {
        let port = try freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        server.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", "server.pem", "-key", "server.key", "-CAfile", "ca.pem",
                            "-Verify", "1", "-www", "-naccept", "1"]
        server.currentDirectoryURL = directory
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("ACCEPT") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        return try client(port)
    }

    /// curl's flags given to `program` (curl, or pekit with `command`: `request --send`).
    private func run(_ program: URL, _ command: [String] = [], _ args: [String]) throws -> PekitResult {
        try withServer { port in
            try PekitProcess.run(program: program, command + ["-s", "--cacert", "ca.pem", "--resolve", "localhost:\(port):127.0.0.1"] + args + ["https://localhost:\(port)/"],
                                 directory: directory)
        }
    }

    /// What the page says of the client certificate (the rest has the session's random values).
    private func clientPart(_ page: String) -> String {
        guard let start = page.range(of: "Client certificate") else { return "" }
        return String(page[start.lowerBound...])
    }

    private func assertSameAsCurl(_ args: [String], succeeds: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let curl = try run(URL(fileURLWithPath: "/usr/bin/curl"), [], args)
        let ours = try run(PekitProcess.binary, ["request", "--send"], args)
        XCTAssertEqual(curl.status == 0, succeeds, "curl \(args): \(curl.status)", file: file, line: line)
        XCTAssertEqual(ours.status, curl.status, "\(args): \(ours.stderr)", file: file, line: line)
        if succeeds {
            XCTAssertTrue(clientPart(curl.stdout).contains("Subject: CN=pekit client"), curl.stdout, file: file, line: line)
            XCTAssertEqual(clientPart(ours.stdout), clientPart(curl.stdout), "\(args)", file: file, line: line)
            XCTAssertTrue(ours.stdout.contains("Verify return code: 0 (ok)"), file: file, line: line)
        }
    }

    func testEachFormOfTheCertificateAsCurlSendsIt() throws {
        try assertSameAsCurl(["--cert", "client.pem", "--key", "client.key", "--pass", "s3cret"], succeeds: true)
        try assertSameAsCurl(["-E", "client.pem:s3cret", "--key", "client.key"], succeeds: true)
        try assertSameAsCurl(["--cert", "client-both.pem:s3cret"], succeeds: true)
        try assertSameAsCurl(["--cert", "client.pem", "--key", "client-key.der", "--key-type", "DER"], succeeds: true)
        try assertSameAsCurl(["--cert", "client.p12:p12pw", "--cert-type", "P12"], succeeds: true)
    }

    func testACertificateMissingOrLockedFailsAsInCurl() throws {
        // No certificate: the server ends the handshake; a wrong passphrase: the key cannot be read.
        try assertSameAsCurl([], succeeds: false)
        try assertSameAsCurl(["--cert", "client.pem", "--key", "client.key", "--pass", "wrong"], succeeds: false)
        try assertSameAsCurl(["--cert", "missing.pem"], succeeds: false)
    }

    /// `--cert` on an http:// URL changes nothing, as in curl; the Lua fields say the same.
    func testACertificateMeansNothingToPlainHTTPAndLuaTakesTheFields() throws {
        let server = try TestServer.shared()
        let plain = try PekitProcess.run(["request", "--send", "--cert", "client.pem", "--key", "client.key", "-o", "/dev/null", "-w", "%{http_code}", "\(server.base)/x"],
                                         directory: directory)
        XCTAssertEqual(plain.stdout, "200", plain.stderr)
        let script = directory.appendingPathComponent("cert.lua")
        try #"""
            local port = arg[1]
            local r = pekit.http.get("https://localhost:" .. port .. "/", { cacert = "ca.pem", connect = { ["localhost:" .. port] = "127.0.0.1:" .. port },
                                     cert = "client.pem", key = "client.key", pass = "s3cret" })
            io.write(r.body)
            """#.write(to: script, atomically: true, encoding: .utf8)
        let lua = try withServer { port in try PekitProcess.run(["run", script.path, String(port)], directory: directory) }
        XCTAssertEqual(lua.status, 0, lua.stderr)
        XCTAssertTrue(clientPart(lua.stdout).contains("Subject: CN=pekit client"), lua.stdout)
    }
}
