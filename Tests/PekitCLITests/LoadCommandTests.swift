import Foundation
import PekitTestSupport
import XCTest

/// `pekit load` (issue 75) against the local test server: what each output format shows, the
/// thresholds' exit status, a script's request function and check, `--compare`, and the Lua
/// function the command's scripts share (`pekit.http.load`).
final class LoadCommandTests: XCTestCase {
    private var server: TestServer!
    private var directory: URL!

    override func setUpWithError() throws {
        server = try TestServer.shared()
        directory = try makeTemporaryDirectory("load")
    }

    private func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testTheJSONCarriesEverythingMeasured() throws {
        let r = try PekitProcess.run(["load", "\(server.base)/echo", "-n", "40", "-c", "4", "-o", "json", "--no-progress"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let run = try json(r.stdout)
        XCTAssertEqual(run["target"] as? String, "\(server.base)/echo")
        XCTAssertEqual(run["model"] as? String, "closed")
        XCTAssertEqual(run["connections"] as? Int, 4)
        XCTAssertEqual(run["requests"] as? Int, 40)
        XCTAssertEqual(run["statuses"] as? [String: Int], ["200": 40])
        XCTAssertEqual((run["errors"] as? [String: Any])?["total"] as? Int, 0)
        XCTAssertEqual(run["latency_unit"] as? String, "us")
        let latency = try XCTUnwrap(run["latency"] as? [String: Any])
        XCTAssertTrue(latency["corrected"] is NSNull)
        let recorded = try XCTUnwrap(latency["recorded"] as? [String: Any])
        XCTAssertEqual(recorded["count"] as? Int, 40)
        XCTAssertEqual(Array((recorded.keys.sorted())), ["count", "max", "mean", "min", "p50", "p75", "p90", "p99", "p99.9", "p99.99", "p99.999", "stddev"])
        let p50 = try XCTUnwrap(recorded["p50"] as? Int), p99 = try XCTUnwrap(recorded["p99"] as? Int), max = try XCTUnwrap(recorded["max"] as? Int)
        XCTAssertTrue(0 < p50 && p50 <= p99 && p99 <= max, "\(p50) \(p99) \(max)")
        XCTAssertEqual((run["phases"] as? [String: Any])?.keys.sorted(), ["connect", "dns", "first byte", "tls", "total"])
        let timeline = try XCTUnwrap(run["timeline"] as? [[String: Int]])
        XCTAssertEqual(timeline.reduce(0) { $0 + ($1["requests"] ?? 0) }, 40)
    }

    /// A progress line on a terminal (rewritten in place, ended with a newline before the
    /// report); nothing of it in a pipe.
    func testTheProgressLineIsForATerminalOnly() throws {
        let piped = try PekitProcess.run(["load", "\(server.base)/echo", "-z", "1s", "-c", "2"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stderr, "")
        let terminal = String(decoding: try PekitProcess.runInTerminal(["load", "\(server.base)/echo", "-z", "1s", "-c", "2"]), as: UTF8.self)
        XCTAssertTrue(terminal.contains("\r\u{1B}[K0:00  "), terminal)
        XCTAssertTrue(terminal.range(of: #"\d+ requests  \d+/s  p50 [\d.]+(us|ms)  p99 [\d.]+(us|ms)  errors 0  \d+%"#, options: .regularExpression) != nil, terminal)
        XCTAssertTrue(terminal.contains("\nload \(server.base)/echo: 1s, 2 connections (closed model)\n"), terminal)
    }

    func testTheTextSummaryAndThresholds() throws {
        let r = try PekitProcess.run(["load", "\(server.base)/echo", "-n", "25", "-c", "5", "--no-progress",
                                      "--threshold", "errors==0", "--threshold", "rps > 1e12", "--threshold", "p99<60s"])
        XCTAssertEqual(r.status, 99, "a threshold that does not hold: k6's status")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines[0], "load \(server.base)/echo: 25 requests, 5 connections (closed model)")
        XCTAssertTrue(lines[3].hasPrefix("  recorded     "), lines[3])
        XCTAssertTrue(lines.contains { $0.hasPrefix("  25 requests in ") }, r.stdout)
        XCTAssertTrue(lines.contains("  statuses: 200 ×25"), r.stdout)
        XCTAssertTrue(lines.contains("  errors: 0"), r.stdout)
        XCTAssertTrue(lines.contains("  ✓ errors==0  (0)"), r.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  ✗ rps > 1e12  (") && $0.hasSuffix("/s)") }, r.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  ✓ p99<60s  (") }, r.stdout)

        let failing = try PekitProcess.run(["load", "\(server.base)/status/503", "-n", "6", "-c", "2", "--no-progress", "--threshold", "errors<50%"])
        XCTAssertEqual(failing.status, 99)
        XCTAssertTrue(failing.stdout.contains("  statuses: 503 ×6\n"), failing.stdout)
        XCTAssertTrue(failing.stdout.contains("  errors: 6 (100.00%): status 6\n    6 × HTTP 503\n"), failing.stdout)
        XCTAssertTrue(failing.stdout.contains("  ✗ errors<50%  (100.000%)\n"), failing.stdout)
    }

    /// HdrHistogram's percentile distribution in its own layout (what its plotter reads).
    func testTheHgrmAndCSVOutputsAreHdrHistogramsLayout() throws {
        let r = try PekitProcess.run(["load", "\(server.base)/echo", "-n", "30", "-c", "3", "-o", "hgrm", "--no-progress"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines[0], "       Value     Percentile TotalCount 1/(1-Percentile)")
        XCTAssertEqual(lines[1], "")
        XCTAssertTrue(lines[2].range(of: #"^ +\d+\.\d{3} 0\.000000000000 +\d+ +1\.00$"#, options: .regularExpression) != nil, lines[2])
        let last = lines[lines.count - 5]
        XCTAssertTrue(last.range(of: #"^ +\d+\.\d{3} 1\.000000000000 +30$"#, options: .regularExpression) != nil, last)
        XCTAssertTrue(lines[lines.count - 4].hasPrefix("#[Mean    = "))
        XCTAssertTrue(lines[lines.count - 3].range(of: #"^#\[Max     = +\d+\.\d{3}, Total count    = +30\]$"#, options: .regularExpression) != nil, lines[lines.count - 3])
        XCTAssertEqual(lines[lines.count - 2], "#[Buckets =           22, SubBuckets     =         2048]")
        let csv = try PekitProcess.run(["load", "\(server.base)/echo", "-n", "10", "-c", "2", "-o", "csv", "--no-progress"])
        let rows = csv.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(rows.first, "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"")
        XCTAssertTrue(rows.last?.hasSuffix(",1.000000000000,10,Infinity") == true, csv.stdout)
    }

    /// HdrHistogram's log: a line a second, each its compressed histogram (LatencyHistogramTests
    /// holds the encoding to the hdrhistogram package byte for byte).
    func testTheLogHasAHistogramEachSecond() throws {
        let r = try PekitProcess.run(["load", "\(server.base)/echo", "--rate", "30", "-z", "2s", "-c", "3", "-o", "hlog", "--no-progress"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "#[Histogram log format version 1.3]")
        XCTAssertTrue(lines[1].range(of: #"^#\[StartTime: \d+\.\d{3} \(seconds since epoch\), \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\]$"#, options: .regularExpression) != nil, lines[1])
        XCTAssertEqual(lines[2], "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"")
        XCTAssertEqual(lines.count, 5, r.stdout)
        for (i, line) in lines.dropFirst(3).enumerated() {
            let fields = line.split(separator: ",").map(String.init)
            XCTAssertEqual(fields.count, 4, line)
            XCTAssertEqual(fields[0], "\(i).000")
            XCTAssertEqual(fields[1], "1.000")
            let bytes = try XCTUnwrap(Data(base64Encoded: fields[3]))
            XCTAssertEqual(Array(bytes.prefix(4)), [0x1C, 0x84, 0x93, 0x14], line)
        }
    }

    /// A loopback server that answers every request `ok` on kept-alive connections and appends
    /// each request head it read, as read, to the file its first argument names (a NUL after each).
    private static let recorder = """
        import socket, sys, threading
        s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0)); s.listen(16)
        print(s.getsockname()[1], flush=True)
        lock = threading.Lock()
        def serve(c):
            data = b""
            while True:
                while b"\\r\\n\\r\\n" not in data:
                    chunk = c.recv(65536)
                    if not chunk: c.close(); return
                    data += chunk
                head, _, data = data.partition(b"\\r\\n\\r\\n")
                with lock, open(sys.argv[1], "ab") as out: out.write(head + b"\\r\\n\\r\\n\\0")
                c.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nok")
        while True:
            c, _ = s.accept(); threading.Thread(target=serve, args=(c,), daemon=True).start()
        """

    /// What a script's requests put on the wire (from the third of a URL on, made from a template
    /// of the ones before: `RequestTemplate`) is what curl 7.88 sends for the same fields (`-H`
    /// each of the script's fields, in the order pekit writes a map's), request by request: values
    /// whose length changes, one that replaces a default (`User-Agent`), bytes past ASCII and a
    /// tab inside a value.
    func testAScriptsRequestsGoOutAsCurlSendsThem() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let record = directory.appendingPathComponent("heads.bin")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-c", Self.recorder, record.path]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        defer { server.terminate() }
        let port = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        func heads() throws -> [String] {
            let bytes = (try? Data(contentsOf: record)) ?? Data()
            try? FileManager.default.removeItem(at: record)
            return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }
        let script = directory.appendingPathComponent("wire.lua")
        try """
            function request(n)
              return { url = "http://127.0.0.1:\(port)/items?page=" .. (n > 5 and 2 or 1), method = "GET",
                       headers = { ["X-Request"] = tostring(n), Accept = "application/json", ["X-Trace"] = "t-" .. n * 7,
                                   ["User-Agent"] = "agent/" .. ("1"):rep(n), ["X-Name"] = "café " .. ("é"):rep(n), ["X-Tab"] = "a\tb" .. n } }
            end
            """.write(to: script, atomically: true, encoding: .utf8)
        // One connection: the requests go out in order.
        let r = try PekitProcess.run(["load", script.path, "-c", "1", "-n", "8", "--no-progress"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let ours = try heads()
        XCTAssertEqual(ours.count, 8)
        var theirs: [String] = []
        for n in 1...8 {
            let fields = ["Accept: application/json", "User-Agent: agent/" + String(repeating: "1", count: n),
                          "X-Name: café " + String(repeating: "é", count: n), "X-Request: \(n)", "X-Tab: a\tb\(n)", "X-Trace: t-\(n * 7)"]
            _ = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-o", "/dev/null"] + fields.flatMap { ["-H", $0] }
                                        + ["http://127.0.0.1:\(port)/items?page=\(n > 5 ? 2 : 1)"])
            theirs += try heads()
        }
        XCTAssertEqual(ours, theirs)
    }

    func testAScriptGivesEachRequestAndChecksEachAnswer() throws {
        let script = directory.appendingPathComponent("load.lua")
        try """
            local base = arg[1]
            function request(n)
              if n > 30 then return nil end
              return { url = base .. "/echo?n=" .. n, method = "POST", body = "x" }
            end
            function check(r)
              local echo = r:json()
              local n = tonumber(echo.target:match("n=(%d+)"))
              if echo.method ~= "POST" then return "not a POST" end
              if n % 2 == 1 then return "odd " .. n end
            end
            """.write(to: script, atomically: true, encoding: .utf8)
        let r = try PekitProcess.run(["load", script.path, "-c", "3", "-z", "30s", "-o", "json", "--no-progress", server.base])
        XCTAssertEqual(r.status, 0, r.stderr)
        let run = try json(r.stdout)
        XCTAssertEqual(run["requests"] as? Int, 30, "the function's nil ends the run")
        XCTAssertEqual((run["errors"] as? [String: Any])?["check"] as? Int, 15)
        let text = try PekitProcess.run(["load", script.path, "-c", "1", "-n", "4", "--no-progress", server.base])
        XCTAssertTrue(text.stdout.contains("  errors: 2 (50.00%): check 2\n    2 × odd 1\n"), text.stdout)

        try "request = 42".write(to: script, atomically: true, encoding: .utf8)
        let bad = try PekitProcess.run(["load", script.path, "-n", "1", "--no-progress"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stderr, "pekit load: \(script.path): invalid URL \"42\": expected scheme://host\n")
        try "x = 1".write(to: script, atomically: true, encoding: .utf8)
        let none = try PekitProcess.run(["load", script.path, "-n", "1", "--no-progress"])
        XCTAssertEqual(none.stderr, "pekit load: \(script.path): no request to send: give request = a URL, a request table or a function returning one (or scenario = a list of steps)\n")
    }

    /// A scenario: each virtual user logs in, then sends a request carrying what its login's
    /// answer said, then starts again; the check finds every second step carrying its user's
    /// own login (the answer to the step before), and the user's table keeps its count.
    func testAScenarioSendsEachUsersStepsInTurn() throws {
        let script = directory.appendingPathComponent("scenario.lua")
        try """
            local base = arg[1]
            local next_user = 0
            scenario = {
              function(user, previous)
                if not user.id then next_user = next_user + 1; user.id = next_user end
                user.rounds = (user.rounds or 0) + 1
                assert(previous == nil, "the first step has no answer before it")
                return { url = base .. "/echo?login=" .. user.id .. "." .. user.rounds, method = "POST", body = "u=" .. user.id }
              end,
              function(user, previous)
                local said = previous:json().target:match("login=([%d.]+)")
                assert(said == user.id .. "." .. user.rounds, "the answer to this user's own login")
                return { url = base .. "/echo?items", headers = { ["X-Token"] = said } }
              end,
            }
            function check(r)
              local echo = r:json()
              if echo.target == "/echo?items" then
                for _, h in ipairs(echo.headers) do if h[1] == "X-Token" then return true end end
                return "no token"
              end
              return echo.method == "POST" or "the login is a POST"
            end
            """.write(to: script, atomically: true, encoding: .utf8)
        let r = try PekitProcess.run(["load", script.path, "-c", "3", "-n", "30", "-o", "json", "--no-progress", server.base])
        XCTAssertEqual(r.status, 0, r.stderr)
        let run = try json(r.stdout)
        XCTAssertEqual(run["requests"] as? Int, 30)
        XCTAssertEqual((run["errors"] as? [String: Any])?["total"] as? Int, 0, r.stdout)
        // The open model: each start of the schedule a new user, its second step as soon as its
        // first is answered.
        let open = try PekitProcess.run(["load", script.path, "--rate", "200", "-c", "4", "-n", "20", "-o", "json", "--no-progress", server.base])
        XCTAssertEqual(open.status, 0, open.stderr)
        XCTAssertEqual((try json(open.stdout)["errors"] as? [String: Any])?["total"] as? Int, 0, open.stdout)
        try "request = 'http://x/'; scenario = {}".write(to: script, atomically: true, encoding: .utf8)
        let both = try PekitProcess.run(["load", script.path, "-n", "1", "--no-progress"])
        XCTAssertEqual(both.stderr, "pekit load: \(script.path): give request or scenario, not both\n")
        try "scenario = {}".write(to: script, atomically: true, encoding: .utf8)
        let empty = try PekitProcess.run(["load", script.path, "-n", "1", "--no-progress"])
        XCTAssertEqual(empty.stderr, "pekit load: \(script.path): scenario: give at least one step\n")
    }

    func testCompareShowsTheEarlierRunBeside() throws {
        let first = try PekitProcess.run(["load", "\(server.base)/echo", "-n", "20", "-c", "2", "-o", "json", "--no-progress"])
        let file = directory.appendingPathComponent("run.json")
        try first.stdout.write(to: file, atomically: true, encoding: .utf8)
        let second = try PekitProcess.run(["load", "\(server.base)/echo", "-n", "20", "-c", "2", "--no-progress", "--compare", file.path])
        XCTAssertEqual(second.status, 0, second.stderr)
        let tail = second.stdout.components(separatedBy: "\n\n").last ?? ""
        let lines = tail.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "              \(file.path) this run        change")
        XCTAssertEqual(lines.map { String($0.prefix(14)) }, ["              ", "requests/s    ", "errors        ", "recorded p50  ", "recorded p75  ", "recorded p90  ",
                                                             "recorded p99  ", "recorded p99.9", "recorded p99.9", "recorded p99.9", "recorded max  "])
        let notRun = directory.appendingPathComponent("other.json")
        try "{\"a\": 1}".write(to: notRun, atomically: true, encoding: .utf8)
        let bad = try PekitProcess.run(["load", "\(server.base)/echo", "-n", "2", "--no-progress", "--compare", notRun.path])
        XCTAssertEqual(bad.stderr, "pekit load: --compare \(notRun.path): not the JSON of a pekit load run (no \"latency\")\n")
    }

    func testUsageErrorsNameTheOption() throws {
        for (args, message) in [([], "give a URL or a Lua script"),
                                (["--rate", "abc", "http://x/"], "--rate takes requests a second (100, 100/s, 6000/m), not 'abc'"),
                                (["-z", "soon", "http://x/"], "--duration takes a duration (10s, 500ms, 2m, 1h), not 'soon'"),
                                (["--threshold", "p99", "http://x/"], "--threshold 'p99': no comparison (write METRIC<VALUE, e.g. p99<200ms or errors<0.1%)"),
                                (["--threshold", "latency<2", "http://x/"], "--threshold 'latency<2': unknown metric 'latency' (p50, p99.9, min, mean, max, errors, rps, requests)"),
                                (["-o", "xml", "http://x/"], "--output takes text, json, hgrm, csv or hlog, not 'xml'"),
                                (["-c", "0", "http://x/"], "--connections takes 1 to 10000 (got 0)"),
                                (["-X", "POST", "s.lua"], "-X, -H, --data, --json and -L are for a URL; a script sets its own request")] {
            let r = try PekitProcess.run(["load"] + args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertEqual(r.stderr, "pekit load: \(message) (see 'pekit load --help')\n")
        }
    }

    /// The Lua function the command's scripts share: a result table, its histograms usable.
    func testPekitHTTPLoadFromLua() throws {
        let r = try PekitProcess.run(["run", "-e", """
            local run = pekit.http.load{ request = { url = "\(server.base)/echo", headers = { ["X-Load"] = "1" } }, connections = 2, requests = 12,
                                         check = function(r)
                                           for _, h in ipairs(r:json().headers) do if h[1] == "X-Load" then return h[2] == "1" end end
                                           return false
                                         end }
            print(run.requests, run.errors.total, run.statuses[200], run.latency:count(), run.corrected, run.phases.total:count())
            print(pcall(pekit.http.load, { request = "\(server.base)/echo" }))
            """])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "12\t0\t12\t12\tnil\t12\nfalse\tpekit.http.load: bad argument #1 (say how long the run is: duration = seconds or requests = N)\n")
    }
}

/// `pekit load --report html:FILE` in a real browser (Debian's chromium, headless), and the
/// thresholds as pekit test's reports.
final class LoadReportPageTests: XCTestCase {
    func testThePageRendersItsPlotsInABrowser() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("load-report")
        let run = try PekitProcess.run(["load", "\(server.base)/echo", "--rate", "40", "-z", "2s", "-c", "4", "--no-progress",
                                        "--report", "html:out/load.html", "--report", "junit:out/load.xml",
                                        "--threshold", "errors==0", "--threshold", "rps>1000"], directory: dir)
        XCTAssertEqual(run.status, 99, run.stderr)
        let page = dir.appendingPathComponent("out/load.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        XCTAssertNil(html.range(of: #"(src|href)\s*=|@import|url\(|<script"#, options: .regularExpression), "the page refers to something outside it")

        let dom = try TestHTMLReportTests.browse(["--dump-dom", page.absoluteString], in: dir)
        XCTAssertEqual(dom.status, 0, dom.stderr)
        let text = dom.stdout
        func count(_ pattern: String) -> Int {
            (try? NSRegularExpression(pattern: pattern).numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))) ?? -1
        }
        XCTAssertTrue(text.contains("<title>pekit load \(server.base)/echo</title>"), text)
        XCTAssertTrue(text.contains(#"<p id="summary">80 requests in 2.00 s, 40.0 a second, 0 errors</p>"#), text)
        XCTAssertEqual(count(#"<svg id="percentiles""#), 1)
        XCTAssertEqual(count(#"<polyline class="corrected" points="[\d. ,]+"></polyline>"#), 1, text)
        XCTAssertEqual(count(#"<polyline class="recorded" points="[\d. ,]+"></polyline>"#), 1, text)
        XCTAssertEqual(count(#"<rect class="requests" "#), 2, "one bar a second")
        XCTAssertEqual(count(#"<title>second 0: 40 requests, 0 errors</title>"#), 1, text)
        XCTAssertTrue(text.contains("2s, 4 connections, 40 requests/s (open model)"), text)
        XCTAssertTrue(text.contains(#"<table id="phases"><tbody><tr><th>phase</th><th>p50</th><th>p75</th><th>p90</th><th>p99</th><th>p99.9</th><th>p99.99</th><th>p99.999</th><th>max</th></tr>"#), text)
        XCTAssertEqual(count(#"<tr><td>(first byte|total)</td>(<td>[\d.]+(us|ms|s)</td>){8}</tr>"#), 2, text)

        let shot = dir.appendingPathComponent("out/load.png")
        let picture = try TestHTMLReportTests.browse(["--window-size=1000,1100", "--screenshot=" + shot.path, page.absoluteString], in: dir)
        XCTAssertEqual(picture.status, 0, picture.stderr)
        XCTAssertEqual(Array(try Data(contentsOf: shot).prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

        let junit = try String(contentsOf: dir.appendingPathComponent("out/load.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains(#"<testsuites name="pekit test" tests="2" failures="1" errors="0""#), junit)
        XCTAssertTrue(junit.contains(#"<testcase name="errors==0" classname="\#(server.base)/echo""#), junit)
        XCTAssertTrue(junit.contains(#"<failure message="rps&gt;1000: the run's value is 40.0/s" type="failure">"#), junit)
    }
}
