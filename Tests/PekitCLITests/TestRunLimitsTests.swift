import Foundation
import PekitTestSupport
import XCTest

/// Issue 71: no `pekit test` run may hang, polling survives a service starting up, and a failure
/// shows the body it failed on.
final class TestRunLimitsTests: XCTestCase {
    func write(_ text: String, to name: String, in dir: URL) throws { try TestRunFiles.write([name: text], in: dir) }
    func messages(_ json: URL) throws -> [String] { try TestRunFiles.messages(json) }

    /// `--max-time` fails a test that runs too long however it waits (a loop, a loop that
    /// catches the error, a sleep, a poll, a slow send), runs its after_each hooks, and goes on to
    /// the next test; `--timeout` limits a send that names none, and the failure names the flag.
    func testEveryTestEndsAndSaysWhichLimitFired() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-test-limits")
        try write(#"""
            local base = pekit.vars.BASE
            local cleaned = {}
            after_each(function(t) cleaned[#cleaned + 1] = t.name end)
            test("slow send", function() pekit.http.get(base .. "/delay/3") end)
            test("own timeout", function() pekit.http.get(base .. "/delay/0.8", { timeout = 2 }) end)
            test("loop", function() while true do end end)
            test("pcall loop", function() while true do pcall(function() for _ = 1, 1e6 do end end) end end)
            test("sleep", function() pekit.time.sleep(30) end)
            test("poll", function() pekit.http.get(base .. "/status/202", { ["until"] = function(r) return r.status == 200 end, every = 0.05 }) end)
            test("the next test runs", function() end)
            test("cleaned", function() assert(#cleaned == 7, table.concat(cleaned, ",")) end)
            """#, to: "tests/l_test.lua", in: dir)
        let report = dir.appendingPathComponent("r.json")
        let started = Date()
        let r = try PekitProcess.run(["test", "--max-time", "0.5", "--timeout", "0.3", "--var", "BASE=\(server.base)", "--report", "json:" + report.path], directory: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        XCTAssertEqual(try messages(report).map { $0.replacingOccurrences(of: #"after \d+ milliseconds"#, with: "after N milliseconds", options: .regularExpression) }, [
            "slow send: tests/l_test.lua:4: pekit.http.get: GET \(server.base)/delay/3: Operation timed out after N milliseconds with 0 bytes received (curl error 28); raise timeout or connect_timeout (seconds) (pekit test gives a send that names no timeout 0.3 s: --timeout)",
            "own timeout: tests/l_test.lua:5: the test ran past --max-time 0.5 s",
            "loop: tests/l_test.lua:6: the test ran past --max-time 0.5 s",
            "pcall loop: tests/l_test.lua:7: the test ran past --max-time 0.5 s",
            "sleep: tests/l_test.lua:8: the test ran past --max-time 0.5 s",
            "poll: tests/l_test.lua:9: the test ran past --max-time 0.5 s",
            "the next test runs: passed",
            "cleaned: passed",
        ])
        // The limits are flags with their help, and a bad value is a usage error.
        let help = try PekitProcess.run(["test", "--help"])
        XCTAssertTrue(help.stdout.contains("--max-time S"), help.stdout)
        XCTAssertTrue(help.stdout.contains("--timeout S"), help.stdout)
        let bad = try PekitProcess.run(["test", "--max-time", "soon"], directory: dir)
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "pekit test: --max-time takes seconds (a number, 0 for no limit), not 'soon' (see 'pekit test --help')\n")
    }

    /// `until` polls a service through its start-up: nothing listening yet, then a 503 page the
    /// condition cannot read as JSON, then the answer (Hurl's `retry` takes any error so).
    func testPollingThroughAServiceStartingUp() throws {
        let script = #"""
            import http.server, socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
            print(port, flush=True)
            time.sleep(0.6)
            count = 0
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    global count
                    count += 1
                    ok = count > 2
                    body = b'{"state":"done"}' if ok else b"<html><body>starting</body></html>"
                    self.send_response(200 if ok else 503)
                    self.send_header("Content-Type", "application/json" if ok else "text/html")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args): pass
            server = http.server.HTTPServer(("127.0.0.1", port), H)
            server.timeout = 10
            while count < 3: server.handle_request()
            """#
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        defer { if python.isRunning { python.terminate() } }
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let port = try XCTUnwrap(Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        let r = try PekitProcess.run(["run", "-e", """
            local r = pekit.http.get("http://127.0.0.1:\(port)/", { ["until"] = function(r) return r:json().state == "done" end, every = 0.1, max_time = 20 })
            print(r.status, r:json().state)
            """])
        XCTAssertEqual(r.stdout, "200\tdone\n", r.stderr)
        python.waitUntilExit()
    }

    /// A failure shows a long text body's first 4 KiB and its size, and a binary body's size.
    func testAFailureShowsTheBodyBounded() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-test-body")
        try write(#"""
            local base = pekit.vars.BASE
            local function canned(status, body, ctype)
              local head = "HTTP/1.1 " .. status .. "\r\nContent-Type: " .. ctype .. "\r\nContent-Length: " .. #body .. "\r\n\r\n"
              return pekit.http.get(base .. "/canned?b=" .. pekit.encode(pekit.crypto.base64.encode(head .. body)))
            end
            test("long", function() expect(canned("500 Oops", ("é"):rep(3000), "text/plain")):status(200) end)
            test("binary", function() expect(canned("500 Oops", "\255\254\0\1", "application/octet-stream")):status(200) end)
            """#, to: "tests/b_test.lua", in: dir)
        let r = try PekitProcess.run(["test", "--var", "BASE=\(server.base)"], directory: dir)
        XCTAssertEqual(r.status, 1)
        // 4096 bytes cut back to the start of a character: 2048 "é" of 2 bytes.
        XCTAssertTrue(r.stdout.contains("\n          " + String(repeating: "é", count: 2048) + "… (6000 bytes; the first 4096 shown)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\n          (a body of 4 bytes, not text)\n"), r.stdout)
    }
}
