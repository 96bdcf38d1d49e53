import Foundation
import PekitTestSupport
import XCTest

/// Issue 44: `pekit test`, the runner: expectations' texts byte for byte, exit codes, jobs,
/// fail-fast, repeat, vars, a jar a test, and the reports.
final class TestCommandTests: XCTestCase {
    func write(_ files: [String: String], in dir: URL) throws { try TestRunFiles.write(files, in: dir) }

    /// Durations change from run to run; the rest is what the user sees.
    func stable(_ s: String) -> String {
        s.replacingOccurrences(of: #"\(\d+ ms\)"#, with: "(N ms)", options: .regularExpression)
            .replacingOccurrences(of: #"in \d+\.\d\d s"#, with: "in N s", options: .regularExpression)
            .replacingOccurrences(of: #"Date: [^\n]*"#, with: "Date: D", options: .regularExpression)
    }

    func messages(_ json: URL) throws -> [String] { try TestRunFiles.messages(json) }

    /// Each expectation passes where it should and, where it fails, says so in these words.
    func testEveryExpectationsTexts() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-test-expect")
        try write(["tests/expect_test.lua": #"""
            local base = pekit.vars.BASE
            test("passes", function(t)
              local r = pekit.http.get(base .. "/cookies/set?sid=abc")
              expect(r):status(200):status({201, 200}):status("2xx"):status("200-204"):header("Content-Type"):header("content-type", "application/json")
                :header("Content-Type", is.matches("^application/")):header("Content-Type", "json"):json("$.method", "GET"):json("$.headers"):body('"method"'):time_under(30)
                :redirects(0):cookie("sid")
              expect(t.jar):sends(base .. "/", "sid=abc"):holds("sid"):explains(base .. "/", { sid = "sent" })
              expect(pekit.request{ url = "http://h/?user[name]=ada" }):read_by("rack"):equals{ user = { name = "ada" } }
            end)
            test("status", function() expect(pekit.http.get(base .. "/status/404")):status(200) end)
            test("status list", function() expect(pekit.http.get(base .. "/status/404")):status({200, 201, 204}) end)
            test("status range", function() expect(pekit.http.get(base .. "/status/404")):status("2xx") end)
            test("header missing", function() expect(pekit.http.get(base .. "/echo")):header("X-Nope") end)
            test("header value", function() expect(pekit.http.get(base .. "/echo")):header("Content-Type", "text/html") end)
            test("json value", function() expect(pekit.http.get(base .. "/echo?a=1")):json("$.method", "POST") end)
            test("json nothing", function() expect(pekit.http.get(base .. "/echo")):json("$.nope", 1) end)
            test("json not JSON", function() expect(pekit.http.get(base .. "/status/404")):json("$.a", 1) end)
            test("body", function() expect(pekit.http.get(base .. "/status/404")):body("^Found") end)
            test("time", function() expect(pekit.http.get(base .. "/delay/0.2")):time_under(0.01) end)
            test("redirects", function() expect(pekit.http.get(base .. "/redirect/302?to=/echo")):redirects(2) end)
            test("cookie", function() expect(pekit.http.get(base .. "/cookies/set?a=1&b=2")):cookie("sid") end)
            test("sends", function(t) expect(t.jar):sends(base .. "/", "sid=1") end)
            test("holds", function(t) pekit.http.get(base .. "/cookies/set?a=1") expect(t.jar):holds("sid") end)
            test("explains", function(t) pekit.http.get(base .. "/cookies/set?a=1") expect(t.jar):explains("http://other.test/", { a = "sent" }) end)
            test("read_by", function() expect(pekit.request{ url = "http://h/?a[]=1&a[]=2" }):read_by("php"):equals{ a = { "1" } } end)
            test("expect what", function() expect(42) end)
            test("same_as_curl", function()
              local ua = { user_agent = "curl/7.88.1" }
              expect(pekit.request{ url = "https://h.example/a?b=1", method = "PUT", user_agent = "curl/7.88.1", headers = { ["X-A"] = "1" } })
                :same_as_curl([[curl -X PUT -H 'X-A: 1' 'https://h.example/a?b=1']])
              expect(pekit.request{ url = "https://h.example/a?b=2", user_agent = "curl/7.88.1" }):same_as_curl([[curl 'https://h.example/a?b=1']])
            end)
            test("not curl", function() expect(pekit.request{ url = "http://h/" }):same_as_curl("wget http://h/") end)
            test("status between", function() expect(pekit.http.get(base .. "/status/404")):status("200-399") end)
            """#], in: dir)
        let report = dir.appendingPathComponent("r.json")
        let r = try PekitProcess.run(["test", "--var", "BASE=\(server.base)", "--report", "json:" + report.path], directory: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        let got = try messages(report).map { $0.replacingOccurrences(of: #"it took \d+\.\d{3} s"#, with: "it took T s", options: .regularExpression) }
        XCTAssertEqual(got, [
            "passes: passed",
            "status: tests/expect_test.lua:10: expected status 200, got 404",
            "status list: tests/expect_test.lua:11: expected status 200, 201 or 204, got 404",
            "status range: tests/expect_test.lua:12: expected status 2xx, got 404",
            "header missing: tests/expect_test.lua:13: expected a header X-Nope, the response has none",
            #"header value: tests/expect_test.lua:14: expected header Content-Type to contain "text/html", got "application/json""#,
            #"json value: tests/expect_test.lua:15: expected $.method to be "POST", got "GET""#,
            "json nothing: tests/expect_test.lua:16: expected $.nope to be 1, it matches nothing",
            #"json not JSON: tests/expect_test.lua:17: expected a JSON body: invalid JSON at byte 1: unexpected character "s""#,
            #"body: tests/expect_test.lua:18: expected the body to contain "^Found", got "status 404\n""#,
            "time: tests/expect_test.lua:19: expected the response in under 0.01 s, it took T s",
            "redirects: tests/expect_test.lua:20: expected 2 redirects, got 1",
            "cookie: tests/expect_test.lua:21: expected the response to set the cookie sid, it set a, b",
            #"sends: tests/expect_test.lua:22: expected the jar's Cookie header for \#(server.base)/ to contain "sid=1", it sends nothing"#,
            "holds: tests/expect_test.lua:23: expected the jar to hold a cookie sid, it holds a",
            "explains: tests/expect_test.lua:24: expected the cookie a to be sent for http://other.test/, it is host-only (domain: host-only cookie for 127.0.0.1, not other.test)",
            #"read_by: tests/expect_test.lua:25: expected php to read {"a":["1"]} from the query, it reads {"a":["1","2"]}"#,
            "expect what: tests/expect_test.lua:26: expect: expected a response, a cookie jar or a request, got number",
            "same_as_curl: tests/expect_test.lua:31: expected the bytes curl sends for that command line, the request differs",
            "not curl: tests/expect_test.lua:33: same_as_curl: this is not a curl command (it starts with 'wget')",
            "status between: tests/expect_test.lua:34: expected status 200-399, got 404",
        ])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let tests = try XCTUnwrap((document["files"] as? [[String: Any]])?.first?["tests"] as? [[String: Any]])
        XCTAssertEqual(tests.first { $0["name"] as? String == "same_as_curl" }?["detail"] as? String, #"""
              --- expected
              +++ got
              - "GET /a?b=1 HTTP/1.1"
              + "GET /a?b=2 HTTP/1.1"
                "Host: h.example"
                "User-Agent: curl/7.88.1"
                "Accept: */*"
                ""
                ""
            """#)
    }

    /// What a run prints, byte for byte (durations aside), and its exit status: 0, 1, or 2 for
    /// a file that does not load and for usage errors.
    func testOutputAndExitStatus() throws {
        let dir = try makeTemporaryDirectory("pekit-test-output")
        try write([
            "tests/a_test.lua": """
                local order = {}
                before_each(function(t) order[#order + 1] = "before " .. t.name end)
                after_each(function(t) order[#order + 1] = "after " .. t.name end)
                test("one", function() print("hello", 1) end)
                test("two", function() assert(#order == 2, table.concat(order, ", ")) end)
                test("three", function() skip("later") end)
                test("shares", { jar = pekit.cookies.jar() }, function(t) assert(t.jar ~= nil) end)
                """,
            "tests/sub/b_test.lua": "skip(\"not on this machine\")\ntest(\"never\", function() error(\"ran\") end)\n",
            "tests/ignored.lua": "error('not a test file')\n",
        ], in: dir)
        let ok = try PekitProcess.run(["test", "--filter", "[es]$"], directory: dir)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(stable(ok.stdout), """
            tests/a_test.lua
              ok    one (N ms)
              skip  three: later
              ok    shares (N ms)
            tests/sub/b_test.lua
            2 passed, 0 failed, 1 skipped, 0 errored in N s

            """)
        let failing = try PekitProcess.run(["test"], directory: dir)
        XCTAssertEqual(failing.status, 1)
        XCTAssertEqual(stable(failing.stdout), """
            tests/a_test.lua
              ok    one (N ms)
              FAIL  two (N ms)
                    tests/a_test.lua:5: before one, after one, before two
                    stack traceback:
                    \t[C]: in function 'assert'
                    \ttests/a_test.lua:5: in function <tests/a_test.lua:5>
              skip  three: later
              ok    shares (N ms)
            tests/sub/b_test.lua
              skip  never: not on this machine
            2 passed, 1 failed, 2 skipped, 0 errored in N s

            """)
        try write(["tests/c_test.lua": "test('x', function() end)\nlocal y = nil + 1\n"], in: dir)
        let broken = try PekitProcess.run(["test", "tests/c_test.lua"], directory: dir)
        XCTAssertEqual(broken.status, 2)
        XCTAssertEqual(stable(broken.stdout), """
            tests/c_test.lua
              ERROR tests/c_test.lua:2: attempt to perform arithmetic on a nil value
                    stack traceback:
                    \ttests/c_test.lua:2: in main chunk
            0 passed, 0 failed, 0 skipped, 1 errored in N s

            """)
        for (args, message) in [
            (["--filter", "[a"], "--filter: '[a' is not a Lua pattern"),
            (["--report", "xml:r"], "--report takes tap, github, junit:FILE, json:FILE or html:DIR, not 'xml:r'"),
            (["--report", "junit"], "--report junit needs a file: --report junit:FILE"),
            (["--jobs", "0"], "--jobs takes a whole number from 1 to 256, not '0'"),
            (["--var", "=1"], "--var takes NAME=VALUE, not '=1'"),
            (["nowhere"], "nowhere: no such file or directory"),
            (["tests/sub/none"], "tests/sub/none: no such file or directory"),
        ] {
            let r = try PekitProcess.run(["test"] + args, directory: dir)
            XCTAssertEqual(r.status, 2, args.joined(separator: " "))
            XCTAssertEqual(r.stderr, "pekit test: \(message) (see 'pekit test --help')\n")
        }
        let empty = try makeTemporaryDirectory("pekit-test-empty")
        XCTAssertEqual(try PekitProcess.run(["test"], directory: empty).stderr, "pekit test: tests: no such file or directory (see 'pekit test --help')\n")
    }

    /// --jobs runs files at once and prints each file whole, in order; --fail-fast stops at the
    /// first failure; --repeat reports every iteration; --var and --env-file fill pekit.vars.
    /// Issue 68: `os.exit` in a test file ended pekit itself, so a run with a failing file exited 0
    /// with no output and no report. It is a failure of the test that called it (of the file, at
    /// its top level); a pcall around it does not undo that; the other files run and the reports
    /// are written.
    func testOsExitIsAFailureNotTheEndOfTheRun() throws {
        let dir = try makeTemporaryDirectory("pekit-test-exit")
        try write([
            "a_test.lua": "test('fails', function() error('no') end)\n",
            "b_test.lua": "test('exits', function() os.exit(0) end)\ntest('caught', function() pcall(os.exit, true) end)\ntest('after', function() end)\n",
            "c_test.lua": "test('never', function() end)\nos.exit(0)\n",
        ], in: dir)
        let r = try PekitProcess.run(["test", "--report", "junit:r.xml", "."], directory: dir)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(stable(r.stdout), """
            ./a_test.lua
              FAIL  fails (N ms)
                    ./a_test.lua:1: no
                    stack traceback:
                    \t[C]: in function 'error'
                    \t./a_test.lua:1: in function <./a_test.lua:1>
            ./b_test.lua
              FAIL  exits (N ms)
                    ./b_test.lua:1: os.exit(0) called: a test may not end the run
              FAIL  caught (N ms)
                    ./b_test.lua:2: os.exit(true) called: a test may not end the run
              ok    after (N ms)
            ./c_test.lua
              ERROR ./c_test.lua:2: os.exit(0) called: a test may not end the run
            1 passed, 3 failed, 0 skipped, 1 errored in N s

            """)
        let junit = try String(contentsOf: dir.appendingPathComponent("r.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("os.exit(0) called: a test may not end the run"), junit)
    }

    /// Issue 68: a server's reason phrase and header values with ESC, OSC and C1 bytes reached the
    /// terminal raw through a failure's explanation (and TAP, and GitHub's annotations): they are
    /// escaped as `pekit request -v` escapes them, in every writer.
    func testServerBytesReachNoTerminalRaw() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-test-escapes")
        let response = "HTTP/1.1 500 Bad\u{1B}]0;pwned\u{07} news\r\nX-Evil: \u{1B}[2J\u{9B}31m\r\nContent-Length: 7\r\n\r\n\u{1B}[1mhi!"
        let b64 = Data(response.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        try write(["e_test.lua": #"test('shows', function() local r = pekit.http.get(pekit.vars.URL) print(r.body) expect(r):status(200) end)"# + "\n"], in: dir)
        let r = try PekitProcess.run(["test", "--var", "URL=\(server.base)/canned?b=\(b64)", "--report", "tap", "--report", "github", "--report", "json:r.json", "."], directory: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        for (name, text) in [("stdout", r.stdout), ("stderr", r.stderr)] {
            XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "\(name): \(text.debugDescription)")
        }
        XCTAssertTrue(r.stdout.contains("HTTP/1.1 500 Bad\\x1B]0;pwned\\x07 news"), r.stdout)
        XCTAssertTrue(r.stdout.contains("X-Evil: \\x1B[2J\\x9B31m"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\\x1B[1mhi!"), r.stdout)
    }

    /// Issue 68: a task a test spawned that failed after the test returned was lost (the run
    /// exited 0, its output shown under the next test). It fails the test that spawned it, with
    /// `pekit run`'s words, and what it printed is that test's.
    func testATaskThatFailsFailsTheTestThatSpawnedIt() throws {
        let dir = try makeTemporaryDirectory("pekit-test-task")
        try write(["t_test.lua": """
            test("spawns", function() pekit.spawn(function() pekit.time.sleep(0.01) print("from the task") error("task broke") end) end)
            test("next", function() print("next test") end)

            """], in: dir)
        let r = try PekitProcess.run(["test", "t_test.lua"], directory: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(stable(r.stdout), """
            t_test.lua
              FAIL  spawns (N ms)
                    task 2 failed (nothing waited for it): t_test.lua:1: task broke
                    stack traceback:
                    \t[C]: in function 'error'
                    \tt_test.lua:1: in function <t_test.lua:1>
                    printed:
                      from the task
              ok    next (N ms)
            1 passed, 1 failed, 0 skipped, 0 errored in N s

            """)
    }

    /// Issue 68: what a test printed was held whole and written twice into JUnit (50 MB printed:
    /// 401 MB resident, a 100 MB report). The last MiB is kept, the explanation says how much
    /// was cut, and JUnit writes it once, in `<system-out>`.
    func testALongOutputKeepsItsTailOnce() throws {
        let dir = try makeTemporaryDirectory("pekit-test-long-output")
        try write(["long_test.lua": """
            test("prints", function()
              print("BEGIN-MARKER")
              local line = ("x"):rep(99)
              for i = 1, 30000 do print(line) end
              print("END-MARKER")
              error("fails")
            end)

            """], in: dir)
        let r = try PekitProcess.run(["test", "--report", "junit:r.xml", "long_test.lua"], directory: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        // 13 + 30,000 × 100 + 11 bytes printed; the last 1,048,576 at most are kept, whole lines.
        let kept = 11 + 100 * (((1 << 20) - 11) / 100)
        XCTAssertTrue(r.stdout.contains("        printed (the last \(kept) bytes of 3000024; \(3000024 - kept) cut):\n          xxx"), String(r.stdout.prefix(400)))
        XCTAssertFalse(r.stdout.contains("BEGIN-MARKER"))
        XCTAssertTrue(r.stdout.contains("          END-MARKER\n"))
        let junit = try String(contentsOf: dir.appendingPathComponent("r.xml"), encoding: .utf8)
        XCTAssertEqual(junit.components(separatedBy: "END-MARKER").count, 2, "the output is written once")
        XCTAssertTrue(junit.contains("<system-out>(\(3000024 - kept) bytes cut before this: the last \(kept) are kept)\nxxx"))
        XCTAssertLessThan(junit.utf8.count, (1 << 20) + 4096)
    }

    func testJobsFailFastRepeatAndVars() throws {
        let dir = try makeTemporaryDirectory("pekit-test-jobs")
        var files: [String: String] = [:]
        for i in 1...6 {
            files["tests/f\(i)_test.lua"] = (1...3).map { "test('t\($0)', function() for _ = 1, 3 do print('f\(i) t\($0)') end local t = os.clock() + 0.01 while os.clock() < t do end end)" }.joined(separator: "\n")
        }
        try write(files, in: dir)
        let serial = try PekitProcess.run(["test"], directory: dir)
        let parallel = try PekitProcess.run(["test", "--jobs", "4"], directory: dir)
        XCTAssertEqual(parallel.status, 0, parallel.stderr)
        XCTAssertEqual(stable(parallel.stdout), stable(serial.stdout))
        XCTAssertEqual(stable(parallel.stdout).split(separator: "\n").filter { $0.hasPrefix("tests/") }, (1...6).map { "tests/f\($0)_test.lua" })

        try write(["tests/f2_test.lua": "test('bad', function() error('boom') end)\ntest('after', function() end)\n"], in: dir)
        let fast = try PekitProcess.run(["test", "--fail-fast"], directory: dir)
        XCTAssertEqual(fast.status, 1)
        XCTAssertEqual(stable(fast.stdout).split(separator: "\n").last, "3 passed, 1 failed, 0 skipped, 0 errored in N s")
        XCTAssertTrue(fast.stdout.contains("  (stopped: --fail-fast)\n"), fast.stdout)

        try write(["tests/vars_test.lua": """
            test("vars", function()
              print(pekit.vars.A, pekit.vars.B, pekit.vars.C)
              assert(pekit.vars.B == "from the command line")
            end)
            """, "vars.env": "# the base\nexport A=1\nB='quoted # kept'\nC=\"two\\nlines\" # comment\n"], in: dir)
        let vars = try PekitProcess.run(["test", "--env-file", "vars.env", "--var", "B=from the command line", "--repeat", "2",
                                         "--report", "json:r.json", "tests/vars_test.lua"], directory: dir)
        XCTAssertEqual(vars.status, 0, vars.stdout)
        XCTAssertEqual(stable(vars.stdout), "tests/vars_test.lua\n  ok    vars [1/2] (N ms)\n  ok    vars [2/2] (N ms)\n1 passed, 0 failed, 0 skipped, 0 errored in N s\n".replacingOccurrences(of: "1 passed", with: "2 passed"))
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("r.json"))) as? [String: Any])
        let tests = try XCTUnwrap((report["files"] as? [[String: Any]])?.first?["tests"] as? [[String: Any]])
        XCTAssertEqual(tests.map { $0["iteration"] as? Int }, [1, 2])
        XCTAssertEqual(tests.first?["output"] as? String, "1\tfrom the command line\ttwo\nlines\n")
        let badEnv = try PekitProcess.run(["test", "--env-file", "tests/f1_test.lua"], directory: dir)
        XCTAssertEqual(badEnv.stderr, "pekit test: --env-file: tests/f1_test.lua:1: 'test('t1', function() for _' is not a variable name (see 'pekit test --help')\n")
    }

    /// The example docs/scripting.md shows: the demo server's API, tested (a login, JSON checks, a server
    /// model, one skipped test), with its TAP report.
    func testTheExampleTestsTheDemoServer() throws {
        let server = try TestServer.shared()
        let example = PekitProcess.packageRoot.appendingPathComponent("scripts/examples/api_test.lua").path
        let dir = try makeTemporaryDirectory("pekit-test-example")
        let r = try PekitProcess.run(["test", "--var", "BASE=\(server.base)", "--report", "tap", example], directory: dir)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout, """
            TAP version 13
            1..5
            ok 1 - \(example): login keeps the session in the test's jar
            ok 2 - \(example): a wrong password is refused
            ok 3 - \(example): the echo reads nested parameters as Rack would
            ok 4 - \(example): JSONPath filters the answer
            ok 5 - \(example): logout # SKIP the demo server keeps sessions in memory: nothing to check after a restart

            """)
        XCTAssertEqual(stable(r.stderr).split(separator: "\n").last, "4 passed, 0 failed, 1 skipped, 0 errored in N s")
    }

    /// A secret given on the command line appears in nothing a run writes: not its output, its
    /// errors, its reports, nor its HAR; not raw, percent-encoded, base64-encoded (Basic
    /// auth), JSON-escaped, nor inside a longer value. `pekit run --secret` too.
    func testSecretsAppearInNothingARunWrites() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-test-secrets")
        let secret = "s3cr3t v@lue/\u{fc}\"q"
        try write(["tests/secret_test.lua": #"""
            local base, token = pekit.vars.BASE, pekit.vars.TOKEN
            test("leaks everywhere", function()
              print("the token is " .. token, pekit.json.encode({ token = token }))
              pekit.http.get(base .. "/cookies/set?tok=" .. pekit.encode(token))
              local r = pekit.http.get(base .. "/echo?t=" .. pekit.encode(token, "form"),
                { auth = { user = "ada", password = token }, headers = { ["X-Token"] = "Bearer " .. token } })
              expect(r):json("$.method", token)
            end)
            test("errors with it", function() error("bad token " .. token) end)
            """#], in: dir)
        let r = try PekitProcess.run(["test", "--var", "BASE=\(server.base)", "--secret", "TOKEN=" + secret, "--report", "tap",
                                      "--report", "junit:r.xml", "--report", "json:r.json", "--har", "r.har"], directory: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        let value = Array(secret.utf8)
        func percent(_ bytes: [UInt8], plus: Bool, lower: Bool) -> [UInt8] {
            var out: [UInt8] = []
            for b in bytes {
                if (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || "-._~".utf8.contains(b) { out.append(b) }
                else if plus && b == 0x20 { out.append(0x2B) }
                else { out += Array(String(format: lower ? "%%%02x" : "%%%02X", b).utf8) }
            }
            return out
        }
        let forms: [[UInt8]] = [value, percent(value, plus: false, lower: false), percent(value, plus: true, lower: false),
                                percent(value, plus: false, lower: true), Array(Data(value).base64EncodedString().utf8),
                                Array(Data(Array("ada:".utf8) + value).base64EncodedString().utf8), Array("s3cr3t v@lue/\\u00fc\\\"q".utf8),
                                Array("s3cr3t v@lue/\u{fc}\\\"q".utf8)]
        var written: [(String, [UInt8])] = [("stdout", Array(r.stdout.utf8)), ("stderr", Array(r.stderr.utf8))]
        for name in ["r.xml", "r.json", "r.har"] { written.append((name, Array(try Data(contentsOf: dir.appendingPathComponent(name))))) }
        for (name, bytes) in written {
            for form in forms { XCTAssertNil(bytes.firstRange(of: form), "\(name) holds \(String(decoding: form, as: UTF8.self))") }
        }
        XCTAssertTrue(r.stderr.contains("bad token <secret TOKEN>"), r.stderr)
        XCTAssertTrue(r.stderr.contains("  the token is <secret TOKEN>\t{\"token\":\"<secret TOKEN>\"}\n"), r.stderr)
        XCTAssertTrue(String(decoding: written[4].1, as: UTF8.self).contains("\"comment\": \"tests/secret_test.lua: leaks everywhere\""))
        let run = try PekitProcess.run(["run", "--secret", "K=abc123xyz", "-e", "print('k=' .. pekit.vars.K, pekit.encode(pekit.vars.K .. ' x')) error('with ' .. pekit.vars.K)"])
        XCTAssertEqual(run.stdout, "k=<secret K>\t<secret K>%20x\n")
        XCTAssertTrue(run.stderr.hasPrefix("pekit: (command line):1: with <secret K>\n"), run.stderr)
        // A value given without its NAME= is taken for the name of a variable; not found, it is not shown.
        XCTAssertEqual(try PekitProcess.run(["run", "--secret", "abc123", "-e", "print(1)"]).stderr,
                       "pekit run: --secret takes NAME=VALUE, or the NAME of a variable of the environment (none of that name is set) (see 'pekit run --help')\n")
        // The REPL's displays: values, print, errors, a request's lines.
        let repl = try PekitProcess.run(["repl", "--secret", "T=hunter2 x"], stdin: Array("""
            pekit.vars.T
            print("t=" .. pekit.vars.T, 2)
            { a = pekit.vars.T }
            error("x " .. pekit.vars.T)
            pekit.request{ url = "http://h/?t=" .. pekit.encode(pekit.vars.T) }.url

            """.utf8))
        XCTAssertEqual(repl.stdout, "\"<secret T>\"\nt=<secret T>\t2\n{ a = \"<secret T>\" }\n\"http://h/?t=<secret T>\"\n")
        XCTAssertEqual(repl.stderr, "stdin:1: x <secret T>\n")
    }

    /// Polling: a send repeats until its condition holds, waiting `every` seconds or what
    /// Retry-After asks, and fails after max_time with the last status and the tries; only a
    /// method a retry may repeat; in pekit run as in pekit test.
    func testPollingUntilAConditionHolds() throws {
        let server = try TestServer.shared()
        let key = "poll\(UInt32.random(in: 0...UInt32.max))"
        let r = try PekitProcess.run(["run", "-e", "local base = '\(server.base)'\n" + #"""
            local n = 0
            local function done(r) n = n + 1 return r.status == 200 end
            local r = pekit.http.get(base .. "/flaky/\#(key)a/2?status=202&after=0", { ["until"] = done, every = 0.05 })
            print(r.status, n)
            print(select(2, pcall(pekit.http.get, base .. "/status/202", { ["until"] = done, every = 0.3, max_time = 0.5 })))
            print(select(2, pcall(pekit.http.post, base .. "/echo", { ["until"] = done })))
            print(pekit.http.post(base .. "/echo", { ["until"] = function(r) return true end, retry = { all_methods = true } }).status)
            print(select(2, pcall(pekit.http.get, base .. "/echo", { every = 1 })))
            local function timed(s) return (s:gsub("after %d+ tries", "after N tries"):gsub("after %d+ ms", "after M ms")) end
            print(timed(select(2, pcall(pekit.http.get, base .. "/status/200", { ["until"] = function() error("boom", 0) end, every = 0.05, max_time = 0.2 }))))
            print(timed(select(2, pcall(pekit.http.get, "http://127.0.0.1:1/", { ["until"] = function() return true end, every = 0.05, max_time = 0.2 }))))
            """#])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.replacingOccurrences(of: #"in \d+\.\d s \("#, with: "in T s (", options: .regularExpression), """
            200\t3
            pekit.http.get: GET \(server.base)/status/202: the condition did not hold after 2 tries in T s (max_time 0.5 s); the last response: 202 Accepted, its body: status 202\\n
            pekit.http.post: bad argument #2 (field "until": POST is not idempotent: polling would send it again; give retry = {all_methods = true} to poll it anyway)
            200
            pekit.http.get: bad argument #2 (field "every": goes with ["until"] = function(response) … end)
            pekit.http.get: GET \(server.base)/status/200: the condition did not hold after N tries in T s (max_time 0.2 s); the last error: until: boom; the last response: 200 OK, its body: status 200\\n
            pekit.http.get: GET http://127.0.0.1:1/: the condition did not hold after N tries in T s (max_time 0.2 s); the last error: Failed to connect to 127.0.0.1 port 1 after M ms: Couldn't connect to server (curl error 7); no response came

            """)
        // Retry-After: 1 is waited, though every asks less.
        let dir = try makeTemporaryDirectory("pekit-test-poll")
        try write(["tests/poll_test.lua": #"""
            test("waits as the server asks", function()
              local r = pekit.http.get(pekit.vars.BASE .. "/flaky/\#(key)b/1?status=503&after=1", { ["until"] = function(r) return r.status == 200 end, every = 0.01 })
              expect(r):status(200)
            end)
            """#], in: dir)
        let start = Date()
        let run = try PekitProcess.run(["test", "--var", "BASE=\(server.base)"], directory: dir)
        XCTAssertEqual(run.status, 0, run.stdout)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 1.0)
    }

    /// The reports as their consumers read them: the JUnit XML valid against the schema Jenkins'
    /// xUnit plugin validates with (Fixtures/junit), a testsuite a file and a testcase a test and
    /// iteration; the TAP read by tap.py (Debian's python3-tap), YAML blocks and all; the JSON
    /// read back with the run's counts.
    func testReportsReadByTheirConsumers() throws {
        let dir = try makeTemporaryDirectory("pekit-test-reports")
        try write([
            "tests/a_test.lua": "test('ok', function() print('out & <in>') end)\ntest('fails', function() assert(false, 'no \\t way') end)\ntest('skips', function() skip('why') end)\n",
            "tests/b_test.lua": "error('cannot load')\n",
        ], in: dir)
        let r = try PekitProcess.run(["test", "--repeat", "2", "--report", "tap", "--report", "junit:r.xml", "--report", "json:r.json"], directory: dir)
        XCTAssertEqual(r.status, 2, r.stderr)
        try r.stdout.write(to: dir.appendingPathComponent("r.tap"), atomically: true, encoding: .utf8)
        let schema = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCLITests/Fixtures/junit/junit-10.xsd").path
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        check.currentDirectoryURL = dir
        check.arguments = ["-c", #"""
            import json, sys, xmlschema, xml.etree.ElementTree as ET
            from tap.parser import Parser
            xmlschema.XMLSchema(sys.argv[1]).validate("r.xml")
            root = ET.parse("r.xml").getroot()
            for suite in root:
                cases = [(c.get("name"), [k.tag for k in c]) for c in suite]
                print(suite.get("name"), suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped"), cases)
            print(root.find("testsuite/testcase/system-out").text.rstrip())
            lines = list(Parser().parse_text(open("r.tap").read()))
            tests = [l for l in lines if l.category == "test"]
            print([l.category for l in lines if l.category not in ("test",)], len(tests))
            for t in tests:
                print(t.number, t.ok, t.skip, t.description, (t.yaml_block or {}).get("message"))
            print(json.load(open("r.json"))["summary"] | {"seconds": 0})
            """#, schema]
        let out = Pipe(), err = Pipe()
        check.standardOutput = out
        check.standardError = err
        try check.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(check.terminationStatus, 0, errors)
        XCTAssertEqual(text, """
            tests/a_test.lua 6 2 0 2 [('ok [1/2]', ['system-out']), ('fails [1/2]', ['failure']), ('skips [1/2]', ['skipped']), ('ok [2/2]', ['system-out']), ('fails [2/2]', ['failure']), ('skips [2/2]', ['skipped'])]
            tests/b_test.lua 1 0 1 0 [('(the file)', ['error'])]
            out & <in>
            ['version', 'plan'] 7
            1 True False - tests/a_test.lua: ok [1/2] None
            2 False False - tests/a_test.lua: fails [1/2] tests/a_test.lua:2: no \t way
            3 True True - tests/a_test.lua: skips [1/2] None
            4 True False - tests/a_test.lua: ok [2/2] None
            5 False False - tests/a_test.lua: fails [2/2] tests/a_test.lua:2: no \t way
            6 True True - tests/a_test.lua: skips [2/2] None
            7 False False - tests/b_test.lua tests/b_test.lua:1: cannot load
            {'passed': 2, 'failed': 2, 'skipped': 2, 'errored': 1, 'seconds': 0}

            """)
    }

    /// Every test runs in a fresh environment: the globals one sets are gone for the next (and
    /// for its own next iteration); the file's globals are read through.
    func testEachTestHasItsOwnGlobals() throws {
        let dir = try makeTemporaryDirectory("pekit-test-globals")
        try write(["tests/g_test.lua": """
            counter = 0
            test("sets globals", function() leaked = true counter = counter + 1 assert(counter == 1) end)
            test("sees none", function() assert(leaked == nil, "leaked") assert(counter == 0, "counter " .. counter) end)
            """], in: dir)
        let r = try PekitProcess.run(["test", "--repeat", "2"], directory: dir)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertEqual(stable(r.stdout).split(separator: "\n").last, "4 passed, 0 failed, 0 skipped, 0 errored in N s")
    }

    /// A failure's explanation, byte for byte: the request as sent and as curl and the response's
    /// head and body (JSON indented), with Authorization, Cookie and Set-Cookie values left out
    /// as a sanitized HAR leaves them, in the body too (this server echoes the request); the
    /// jar's lines; and expect(jar):explains(url) kept in the output.
    func testAFailureExplainsItselfWithoutCredentials() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-test-explain")
        try write(["tests/e_test.lua": """
            test("explained", function(t)
              local r = pekit.http.get(pekit.vars.BASE .. "/cookies/set?sid=abc", { auth = { user = "ada", password = "pw" } })
              expect(t.jar):explains(pekit.vars.BASE .. "/")
              expect(r):status(500)
            end)
            """], in: dir)
        let r = try PekitProcess.run(["test", "--var", "BASE=\(server.base)"], directory: dir)
        XCTAssertEqual(r.status, 1)
        let host = server.base.replacingOccurrences(of: "http://", with: "")
        XCTAssertEqual(stable(r.stdout).replacingOccurrences(of: #"Content-Length: \d+"#, with: "Content-Length: L", options: .regularExpression)
            .replacingOccurrences(of: #""client_port": \d+"#, with: #""client_port": P"#, options: .regularExpression), """
            tests/e_test.lua
              FAIL  explained (N ms)
                    tests/e_test.lua:4: expected status 500, got 200
                    the request, as sent:
                      GET /cookies/set?sid=abc HTTP/1.1
                      Host: \(host)
                      Authorization: <redacted>
                      User-Agent: pekit/0.1.0 (Linux; x86_64)
                      Accept: */*
                    as curl:
                      curl --http1.1 '\(server.base)/cookies/set?sid=abc' -H 'Host: \(host)' -H 'Authorization: <redacted>' -H 'User-Agent: pekit/0.1.0 (Linux; x86_64)' -H 'Accept: */*'
                    the response:
                      HTTP/1.1 200 OK
                      Server: pekit-test-server
                      Date: D
                      Set-Cookie: <redacted>
                      Content-Type: application/json
                      Content-Length: L
            \("        ")
                      {
                        "body": "",
                        "body_length": 0,
                        "client_port": P,
                        "cookie": null,
                        "headers": [
                          [
                            "Host",
                            "\(host)"
                          ],
                          [
                            "Authorization",
                            "<redacted>"
                          ],
                          [
                            "User-Agent",
                            "pekit/0.1.0 (Linux; x86_64)"
                          ],
                          [
                            "Accept",
                            "*/*"
                          ]
                        ],
                        "method": "GET",
                        "sni": null,
                        "target": "/cookies/set?<redacted>",
                        "tls": false,
                        "version": "HTTP/1.1"
                      }
                    the jar:
                      Set-Cookie sid: stored for host 127.0.0.1, path /
                    printed:
                      the jar, for \(server.base)/:
                        cookie sid: sent: host-only cookie for 127.0.0.1, path / matches /
            0 passed, 1 failed, 0 skipped, 0 errored in N s

            """)
    }

    /// Issue 71: secrets as CI gives them: `--secret NAME` from the environment variable NAME,
    /// every `PEKIT_SECRET_NAME`, `--secret-file` from a pipe; and a report's missing
    /// directories are made (the run was lost at its end before).
    func testSecretsFromTheEnvironmentAndPipesAndReportDirectories() throws {
        let dir = try makeTemporaryDirectory("pekit-test-ci")
        try write(["tests/s_test.lua": """
            test("sees", function() print(pekit.vars.TOKEN, pekit.vars.API, pekit.vars.FILE) error("shown: " .. pekit.vars.TOKEN) end)
            """], in: dir)
        // /dev/stdin is the pipe here, as /dev/fd/63 is for `--secret-file <(printf …)`.
        let r = try PekitProcess.run(["test", "--secret", "TOKEN", "--secret-file", "/dev/stdin", "--report", "junit:reports/sub/junit.xml"],
                                     stdin: Array("FILE=file-789\n".utf8), directory: dir, environment: ["TOKEN": "tok-123", "PEKIT_SECRET_API": "api-456"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stdout.contains("<secret TOKEN>\t<secret API>\t<secret FILE>"), r.stdout)
        XCTAssertTrue(r.stdout.contains("shown: <secret TOKEN>"), r.stdout)
        let junit = try String(contentsOf: dir.appendingPathComponent("reports/sub/junit.xml"), encoding: .utf8)
        for value in ["tok-123", "api-456", "file-789"] {
            XCTAssertFalse(r.stdout.contains(value) || r.stderr.contains(value) || junit.contains(value), value)
        }
        XCTAssertTrue(junit.contains("&lt;secret TOKEN&gt;"), junit)
        let unset = try PekitProcess.run(["test", "--secret", "PEKIT_NO_SUCH_VARIABLE"], directory: dir)
        XCTAssertEqual(unset.status, 2)
        XCTAssertEqual(unset.stderr, "pekit test: --secret takes NAME=VALUE, or the NAME of a variable of the environment (none of that name is set) (see 'pekit test --help')\n")
    }
}
