import Foundation
import PekitTestSupport
import XCTest

/// Issue 73: `--netrc`, `--netrc-optional`, `--netrc-file`, held to the installed curl 7.88
/// (Debian's, with its CVE-2024-11053 and CVE-2025-0167 backports) on generated files: for each,
/// the `Authorization` field both send to the test server, and the exit status, must be the
/// same. curl's own cases (478, 479, 486, 679, 682–685, 1646, 1672, 1966, 2005, 2006, 257, 495,
/// 755) are CurlSuiteTests'.
final class NetrcTests: XCTestCase {
    /// A small seeded generator (the cases are the same every run).
    private struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A .netrc made of the grammar's pieces: entries for the host and for others, `default`,
    /// logins and passwords in any order (quoted, with escapes, missing), `macdef` blocks,
    /// comments, blank lines, CRLF line ends, keywords in other cases, a broken quote now and then.
    private func file(_ random: inout Seeded) -> String {
        let hosts = ["127.0.0.1", "127.0.0.1", "example.com", "LOCALHOST", "127.0.0.1"]
        let words = ["alice", "bob", "user1", "s3cret", "p w", "\"quoted one\"", "\"esc\\\"aped\\n\"", "\"tab\\tx\"", "#hash", "x#y", "\"\""]
        var out = ""
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: out += "default"
            case 1: out += "macdef m\n\tcd \"broken\n\tquit\n"
            case 2: out += "# a comment\n"
            default: out += (Bool.random(using: &random) ? "machine " : "MACHINE ") + hosts.randomElement(using: &random)!
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let keyword = ["login", "password", "Login", "password"].randomElement(using: &random)!
                out += [" ", "\n  ", "\t"].randomElement(using: &random)! + keyword + " " + words.randomElement(using: &random)!
            }
            out += ["\n", "\r\n", "\n\n", " # trailing\n"].randomElement(using: &random)!
        }
        if Int.random(in: 0..<15, using: &random) == 0 { out += "machine 127.0.0.1 password \"unterminated\n" }
        return out
    }

    func testGeneratedFilesAreReadAsCurlReadsThem() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let server = try TestServer.shared()
        let directory = try makeTemporaryDirectory("netrc")
        var random = Seeded(state: 73)
        var compared = 0, withCredentials = 0
        for n in 0..<48 {
            let netrc = directory.appendingPathComponent("netrc\(n)")
            try file(&random).write(to: netrc, atomically: true, encoding: .utf8)
            let mode = ["--netrc", "--netrc-optional"].randomElement(using: &random)!
            let userinfo = ["", "", "alice@", "bob@", "alice:urlpw@", "user1:@"].randomElement(using: &random)!
            let extra = Int.random(in: 0..<10, using: &random) == 0 ? ["-u", "opt:pw"] : []
            let args = [mode, "--netrc-file", netrc.path] + extra + ["http://\(userinfo)127.0.0.1:\(server.httpPort)/netrc"]
            let curl = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s"] + args)
            let ours = try PekitProcess.run(["request", "--send", "-s"] + args)
            let text = try String(contentsOf: netrc, encoding: .utf8)
            XCTAssertEqual(ours.status, curl.status, "\(args)\n\(text)\n\(ours.stderr)")
            XCTAssertEqual(authorization(ours.stdout), authorization(curl.stdout), "\(args)\n\(text)")
            compared += 1
            if authorization(curl.stdout) != nil { withCredentials += 1 }
        }
        XCTAssertEqual(compared, 48)
        // The files exercise both outcomes.
        XCTAssertGreaterThan(withCredentials, 12)
        XCTAssertLessThan(withCredentials, 42)
    }

    /// The Authorization field the test server received (its echo is JSON).
    private func authorization(_ echo: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(echo.utf8)) as? [String: Any],
              let headers = object["headers"] as? [[String]] else { return echo.isEmpty ? nil : "unreadable: \(echo)" }
        return headers.first { $0.first == "Authorization" }?.last
    }

    /// The file's credentials follow a redirect to the host they name, from Lua too; a file the
    /// reader stops on fails the send with curl's exit 26.
    func testLuaReadsTheFileAndABrokenFileFails() throws {
        let server = try TestServer.shared()
        let directory = try makeTemporaryDirectory("netrc-lua")
        let netrc = directory.appendingPathComponent("n")
        try "machine 127.0.0.1 login ada password lovelace\n".write(to: netrc, atomically: true, encoding: .utf8)
        let script = directory.appendingPathComponent("n.lua")
        try #"""
            local r = pekit.http.get(arg[1], { netrc = "required", netrc_file = arg[2] })
            for _, h in ipairs(r:json().headers) do if h[1] == "Authorization" then io.write(h[2]) end end
            """#.write(to: script, atomically: true, encoding: .utf8)
        let lua = try PekitProcess.run(["run", script.path, "\(server.base)/lua", netrc.path])
        XCTAssertEqual(lua.stdout, "Basic YWRhOmxvdmVsYWNl", lua.stderr)
        try "machine 127.0.0.1 password \"open\n".write(to: netrc, atomically: true, encoding: .utf8)
        let broken = try PekitProcess.run(["request", "--send", "--netrc-file", netrc.path, "\(server.base)/x"])
        let curl = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--netrc-file", netrc.path, "\(server.base)/x"])
        XCTAssertEqual(curl.status, 26)
        XCTAssertEqual(broken.status, 26)
        XCTAssertEqual(broken.stderr, "pekit request: GET \(server.base)/x: .netrc parser error (curl error 26)\n")
    }
}
