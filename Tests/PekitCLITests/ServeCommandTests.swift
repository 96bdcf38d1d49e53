import Foundation
import PekitTestSupport
import XCTest

/// `pekit serve` (issue 74, its first part): requests kept exactly as they came and read as each
/// real server reads them. `Tests/Server/serve_check.py` speaks HTTP over raw sockets, so the
/// bytes compared are the ones it wrote, and the readings are held to what PHP, Rack, qs,
/// Python, Go, node and the WHATWG parser themselves read (the query vectors the server models
/// are generated from, `Tests/PekitCoreTests/Fixtures/servers`).
final class ServeCommandTests: XCTestCase {
    /// A `pekit serve` on a free loopback port, stopped when the test ends.
    final class Served {
        let process = Process()
        let port: Int
        let firstLine: String

        /// - Parameter drained: read and drop what it prints after its first line (a run of
        ///   thousands of requests would fill the pipe, and a server whose terminal does not
        ///   read blocks on it, as any program does).
        init(_ args: [String], drained: Bool = false) throws {
            process.executableURL = PekitProcess.binary
            process.arguments = ["serve", "--listen", "127.0.0.1:0"] + args
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The first line names the port the system chose.
            var line: [UInt8] = []
            while let byte = try out.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
            let said = String(decoding: line, as: UTF8.self)
            firstLine = said
            let port = said.range(of: "127.0.0.1:").flatMap { Int(said[$0.upperBound...].prefix { $0.isNumber }) }
            self.port = try XCTUnwrap(port, "pekit serve said: \(said)")
            if drained {
                let reader = out.fileHandleForReading
                Thread.detachNewThread { while !reader.availableData.isEmpty {} }
            }
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
        }
    }

    private func check(_ args: [String]) throws -> [String: Any] {
        let output = try PekitProcess.output(of: "/usr/bin/python3", [PekitProcess.packageRoot.appendingPathComponent("Tests/Server/serve_check.py").path] + args)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output)) as? [String: Any], String(decoding: output, as: UTF8.self))
    }

    func testEachModelShowsWhatItsRealServerReads() throws {
        let served = try Served([])
        XCTAssertEqual(served.firstLine, "pekit serve: listening on http://127.0.0.1:\(served.port)/ (in a browser: http://127.0.0.1:\(served.port)/_pekit/; as JSON: http://127.0.0.1:\(served.port)/_pekit/requests; Ctrl-C stops)")
        let fixture = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCoreTests/Fixtures/servers/server-vectors.json").path
        let found = try check(["vectors", String(served.port), fixture])
        XCTAssertEqual(found["failures"] as? [String], [])
        XCTAssertEqual(found["queries"] as? Int, 400)
        let perModel = try XCTUnwrap(found["per_model"] as? [String: Int])
        XCTAssertEqual(Set(perModel.keys), ["qs", "php", "rack", "python", "go", "whatwg", "node-querystring"])
        for (model, count) in perModel { XCTAssertGreaterThanOrEqual(count, 20, model) }
    }

    /// The Cookie headers of the real servers' vectors sent to pekit serve: under each model,
    /// what its server's cookie parser read (Express's for qs).
    func testEachServersCookiesAreWhatTheRealServerRead() throws {
        let served = try Served([])
        let fixture = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCoreTests/Fixtures/cookie-servers/cookie-vectors.json").path
        let found = try check(["cookies", String(served.port), fixture])
        XCTAssertEqual(found["failures"] as? [String], [])
        XCTAssertGreaterThanOrEqual(found["headers"] as? Int ?? 0, 400)
        let perModel = try XCTUnwrap(found["per_model"] as? [String: Int])
        XCTAssertEqual(Set(perModel.keys), ["qs", "php", "rack", "python", "go"])
        for (model, count) in perModel { XCTAssertGreaterThanOrEqual(count, 300, model) }
    }

    /// The requests of the real servers' header vectors sent to pekit serve: under each model,
    /// the header fields as its server hands them to the program (node's under qs).
    func testEachServersHeaderFieldsAreWhatTheRealServerGives() throws {
        let served = try Served([])
        let fixture = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCoreTests/Fixtures/header-servers/header-vectors.json").path
        let found = try check(["headers", String(served.port), fixture])
        XCTAssertEqual(found["failures"] as? [String], [])
        XCTAssertEqual(found["requests"] as? Int, 151)
        XCTAssertGreaterThanOrEqual(found["compared"] as? Int ?? 0, 600)
    }

    func testRequestsAreKeptAsTheyCameAndFramedAsAServerFramesThem() throws {
        let served = try Served(["--max-body", "16"])
        let found = try check(["framing", String(served.port)])
        XCTAssertEqual(found["raw_exact"] as? Bool, true, "non-UTF-8 bytes and a chunked body's framing kept exactly")
        XCTAssertEqual(found["body_bytes"] as? Int, 7)
        XCTAssertEqual(found["php_body"] as? [String: String], ["a": "1", "b": "2"])
        XCTAssertEqual(found["pipelined"] as? [String], ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"])
        XCTAssertEqual((found["targets"] as? [String])?.suffix(2), ["/one", "/two?z=9"])
        XCTAssertEqual(found["continue"] as? String, "HTTP/1.1 100 Continue\r\n\r\n")
        XCTAssertEqual(found["after_continue"] as? String, "HTTP/1.1 200 OK")
        XCTAssertEqual(found["too_large"] as? String, "HTTP/1.1 413 Content Too Large")
        XCTAssertEqual(found["garbage"] as? String, "HTTP/1.1 400 Bad Request")
        // A stranger's bytes neither stop nor wedge it.
        XCTAssertEqual(try check(["garbage", String(served.port)])["after"] as? String, "HTTP/1.1 200 OK")
    }

    /// What curl sends, as the terminal line and the API show it, with -v's readings.
    func testCurlsRequestOnTheTerminalAndInTheAPI() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let served = try Served(["-v", "--servers", "php,python"])
        let base = "http://127.0.0.1:\(served.port)"
        let answer = try PekitProcess.output(of: "/usr/bin/curl", ["-gs", "\(base)/form?a[b]=1&x=1&x=2", "-d", "tags[]=x&tags[]=y", "-b", "a=1; a=2; b=x+y"])
        XCTAssertEqual(String(decoding: answer, as: UTF8.self), """
            {"number":1,"servers":{"php":{"query":{"a":{"b":"1"},"x":"2"},"body":{"tags":["x","y"]},"cookies":{"a":"1","b":"x+y"}},\
            "python":{"query":{"a[b]":["1"],"x":["1","2"]},"body":{"tags[]":["x","y"]},"cookies":{"a":"2","b":"x+y"}}}}

            """)
        let detail = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try PekitProcess.output(of: "/usr/bin/curl", ["-s", "\(base)/_pekit/requests/1"]))) as? [String: Any])
        XCTAssertEqual(detail["raw"] as? String, "POST /form?a[b]=1&x=1&x=2 HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n"
                       + "Cookie: a=1; a=2; b=x+y\r\nContent-Length: 17\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\ntags[]=x&tags[]=y")
        let missing = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-w", "%{http_code}", "\(base)/_pekit/requests/7"])
        XCTAssertEqual(missing.stdout, "{\"error\":\"there is no request 7\"}\n404")
        served.process.terminate()
        served.process.waitUntilExit()
        let out = (served.process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first?.hasPrefix("#1 POST /form?a[b]=1&x=1&x=2  17 bytes  from 127.0.0.1:"), true, "\(lines)")
        XCTAssertEqual(Array(lines.dropFirst()), [
            #"    php: {"query":{"a":{"b":"1"},"x":"2"},"body":{"tags":["x","y"]},"cookies":{"a":"1","b":"x+y"}}"#,
            #"    python: {"query":{"a[b]":["1"],"x":["1","2"]},"body":{"tags[]":["x","y"]},"cookies":{"a":"2","b":"x+y"}}"#,
        ])
    }

    /// The page, in a real browser (Debian's headless chromium): the browser loads a form page
    /// that pekit serve answers from a HAR file (--mock: its Set-Cookie made to fit the local
    /// host, so the browser keeps the cookie), and the browser itself submits the form
    /// (multipart/form-data: nested field names, a non-ASCII value and a file, with the cookie)
    /// to an escaped query; then the request's page shows each server's reading of it (PHP's
    /// $_POST and $_FILES, Go's values and files, the cookie as each server decodes it), the
    /// cells that differ marked, and each escape explained. A screenshot is kept for a person to
    /// look at (.build/test-screenshots/serve-request.png).
    func testThePageShowsABrowsersFormAsEachServerReadsIt() throws {
        let dir = try makeTemporaryDirectory("pekit-serve-page")
        let form = #"""
            <!DOCTYPE html><html><body>
            <form id="f" method="post" enctype="multipart/form-data" action="/signup?ref=a%2Fb&amp;x=1&amp;x=2">
            <input name="user[name]" value="Ada Lovelace"><input name="user[tags][]" value="a"><input name="user[tags][]" value="b">
            <input name="note" value="é &amp; ü"><input type="file" id="file" name="avatar">
            </form><script>
            const files = new DataTransfer();
            files.items.add(new File(["hello\n"], "ada.txt", {type: "text/plain"}));
            document.getElementById("file").files = files.files;
            document.getElementById("f").submit();
            </script></body></html>
            """#
        let har = dir.appendingPathComponent("site.har")
        let entry: [String: Any] = [
            "request": ["method": "GET", "url": "https://www.example.com/form", "headers": [] as [Any]],
            "response": ["status": 200, "headers": [["name": "Content-Type", "value": "text/html; charset=utf-8"],
                                                    ["name": "Set-Cookie", "value": "sid=s%20x; Domain=example.com; Path=/; Secure"]],
                         "content": ["size": form.utf8.count, "mimeType": "text/html", "text": form]],
        ]
        try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "creator": ["name": "test", "version": "1"], "entries": [entry]]]).write(to: har)
        let served = try Served(["--mock", har.path])
        let base = "http://127.0.0.1:\(served.port)"
        let submitted = try TestHTMLReportTests.browse(["--dump-dom", "--virtual-time-budget=5000", "\(base)/form"], in: dir)
        XCTAssertEqual(submitted.status, 0, submitted.stderr)
        // The form's POST matches nothing recorded: pekit serve says so (and keeps it).
        XCTAssertTrue(submitted.stdout.contains("no recorded request"), "the browser shows pekit serve's answer: \(submitted.stdout)")

        let page = try TestHTMLReportTests.browse(["--dump-dom", "\(base)/_pekit/requests/2"], in: dir)
        XCTAssertEqual(page.status, 0, page.stderr)
        let dom = page.stdout
        XCTAssertTrue(dom.contains("<title>pekit serve: request #2</title>"), dom)
        XCTAssertTrue(dom.contains("Cookie</th><td>sid=s%20x</td>") || dom.contains(#"Cookie</th><td>sid=s<mark class="esc""#), dom)
        // The request's three forms (curl, pekit Lua, .http), each with a copy button made by the page's script.
        for form in ["curl", "lua"] { XCTAssertTrue(dom.contains(#"<button class="copy" type="button">copy</button><pre class="\#(form)">"#), form) }
        // PHP: the fields in $_POST (nested), the file in $_FILES (tmp_name shown as its content);
        // the cookie's %20 decoded. Python's SimpleCookie leaves it; Go lists its cookies and sorts
        // its values and files by name. Each server's reading of the one body the browser sent.
        let php = #"<tr><th>php</th><td class="differs" title="differs from qs's reading"><pre>{\#n  "ref": "a/b",\#n  "x": "2"\#n}</pre></td>"#
            + #"<td class="differs" title="differs from qs's reading"><pre>{\#n  "post": {\#n    "user": {\#n      "name": "Ada Lovelace",\#n      "tags": [\#n        "a",\#n        "b"\#n      ]\#n    },\#n    "note": "é &amp; ü"\#n  },\#n"#
            + #"  "files": {\#n    "avatar": {\#n      "name": "ada.txt",\#n      "full_path": "ada.txt",\#n      "type": "text/plain",\#n      "tmp_name": "hello\n",\#n      "error": 0,\#n      "size": 6\#n    }\#n  }\#n}</pre></td>"#
            + #"<td><pre>{\#n  "sid": "s x"\#n}</pre></td></tr>"#
        XCTAssertTrue(dom.contains(php), dom)
        XCTAssertTrue(dom.contains(#"<td class="differs" title="differs from qs's reading"><pre>{\#n  "sid": "s%20x"\#n}</pre></td></tr>"#), "python's cookie: \(dom)")
        XCTAssertTrue(dom.contains(#""files": {\#n    "avatar": [\#n      {\#n        "filename": "ada.txt",\#n        "content_type": "text/plain",\#n        "size": 6,"#), "go's files: \(dom)")
        XCTAssertTrue(dom.contains(#"<mark class="esc" title="%2F: the byte 0x2F, '/'">%2F</mark>"#), dom)
        XCTAssertTrue(dom.contains(#"<mark class="byte" title="#), dom)
        // Why they differ: x=1&x=2 is a list to qs and the last value to PHP; the cookie's %20.
        XCTAssertTrue(dom.contains("<li><b>qs</b>: a name given twice is a list of its values (qs, lib/utils.js combine); Express reads no multipart body"), dom)
        XCTAssertTrue(dom.contains("<li><b>php</b>: a name given twice keeps its last value (main/php_variables.c, php_register_variable_ex); a multipart body fills $_POST"), dom)
        XCTAssertTrue(dom.contains("values are not decoded</li>"), dom)

        let list = try TestHTMLReportTests.browse(["--dump-dom", "\(base)/_pekit/"], in: dir)
        XCTAssertTrue(list.stdout.contains(#"<tr><td><a href="/_pekit/requests/2">#2</a></td><td>POST</td>"#), list.stdout)
        XCTAssertTrue(list.stdout.contains(#"<h1>Requests received: <span id="total">2</span></h1>"#), list.stdout)

        let folder = PekitProcess.packageRoot.appendingPathComponent(".build/test-screenshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let shot = folder.appendingPathComponent("serve-request.png")
        let picture = try TestHTMLReportTests.browse(["--window-size=1100,1300", "--screenshot=" + shot.path, "\(base)/_pekit/requests/2"], in: dir)
        XCTAssertEqual(picture.status, 0, picture.stderr)
        XCTAssertEqual(Array(try Data(contentsOf: shot).prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// --tls: HTTPS with a certificate made at start: its PEM written where asked, its
    /// fingerprint printed as openssl computes it from that file, curl trusting it (for
    /// 127.0.0.1 and localhost) and getting the readings, the kept request's curl command in
    /// https; a client that connects and never says hello holds up no other.
    func testTLSWithACertificateMadeAtStart() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            return XCTFail("curl and openssl are needed (scripts/test installs them)")
        }
        let dir = try makeTemporaryDirectory("serve-tls")
        let certificate = dir.appendingPathComponent("cert.pem").path
        let served = try Served(["--tls", certificate])
        XCTAssertTrue(served.firstLine.hasPrefix("pekit serve: listening on https://127.0.0.1:\(served.port)/"), served.firstLine)
        let out = try XCTUnwrap(served.process.standardOutput as? Pipe).fileHandleForReading
        var line: [UInt8] = []
        while let byte = try out.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        let said = String(decoding: line, as: UTF8.self)
        let openssl = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/openssl"), ["x509", "-in", certificate, "-noout", "-fingerprint", "-sha256"])
        let fingerprint = try XCTUnwrap(openssl.stdout.split(separator: "=").last).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(said, "pekit serve: TLS with a certificate made now for localhost, 127.0.0.1 and ::1, in \(certificate) (curl --cacert \(certificate)); SHA-256 fingerprint \(fingerprint); HTTP/1.1 only")
        // A client that connects and sends nothing, held open while curl asks.
        let python = """
            import socket, subprocess, sys
            idle = socket.create_connection(("127.0.0.1", \(served.port)))
            for host in ("127.0.0.1", "localhost"):
                answer = subprocess.run(["curl", "-s", "--cacert", sys.argv[1], "https://%s:\(served.port)/t?a=1" % host], capture_output=True, text=True, timeout=20)
                print(answer.returncode, answer.stdout[:60])
            """
        let both = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/python3"), ["-c", python, certificate])
        XCTAssertEqual(both.stdout, """
            0 {"number":1,"servers":{"qs":{"query":{"a":"1"},"body":null,"
            0 {"number":2,"servers":{"qs":{"query":{"a":"1"},"body":null,"

            """, both.stderr)
        let detail = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try PekitProcess.output(of: "/usr/bin/curl", ["-s", "--cacert", certificate, "https://127.0.0.1:\(served.port)/_pekit/requests/1"]))) as? [String: Any])
        // The command sends it again over HTTPS (over HTTP/1.1, as it came).
        XCTAssertEqual((detail["curl"] as? String)?.hasPrefix("curl --http1.1 'https://127.0.0.1:\(served.port)/t?a=1'"), true, "\(detail["curl"] ?? "")")
    }

    /// --match-by mitmproxy held to mitmproxy 11's server replay itself
    /// (Fixtures/mitmproxy-replay/make_replay_vectors.py ran mitmdump on the same recorded session
    /// and request sequences): each request answered from the same recorded entry, or from none,
    /// with the parameters it ignores and with and without reuse.
    func testMockMatchesAsMitmproxyReplays() throws {
        let folder = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCLITests/Fixtures/mitmproxy-replay")
        let fixture = folder.appendingPathComponent("replay-vectors.json")
        let cases = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [[String: Any]])
        XCTAssertEqual(cases.count, 8)
        for (index, replayCase) in cases.enumerated() {
            var args = ["--mock", folder.appendingPathComponent("session.har").path, "--match-by", "mitmproxy"]
            for name in replayCase["ignore_params"] as? [String] ?? [] { args += ["--ignore-param", name] }
            if replayCase["reuse"] as? Bool == true { args.append("--mock-reuse") }
            let served = try Served(args)
            let found = try check(["replay", String(served.port), fixture.path, String(index)])
            let answers = (found["answers"] as? [Any])?.map { "\($0)" }, expected = (found["expected"] as? [Any])?.map { "\($0)" }
            XCTAssertEqual(answers, expected, "sequence \(index): \(replayCase["requests"] ?? "")")
        }
    }

    /// The list in a real browser (headless chromium, driven over the DevTools protocol: the page
    /// keeps its event stream open, which --dump-dom cannot wait on): a request sent while the
    /// page is open appears at the top of the list, its markup shown as text, and the total grows.
    func testTheListShowsEachRequestAsItArrives() throws {
        guard TestHTMLReportTests.chromium != nil else { return XCTFail("chromium is not installed (scripts/test installs it: apt-get install chromium)") }
        let served = try Served([])
        let base = "http://127.0.0.1:\(served.port)"
        let dir = try makeTemporaryDirectory("pekit-serve-live")
        let script = PekitProcess.packageRoot.appendingPathComponent("Tests/Server/browser_pipe.py").path
        let run = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/python3"), [
            script, dir.appendingPathComponent("profile").path, "\(base)/_pekit/", "\(base)/live?x=<script>1</script>",
            #"document.getElementById("total").textContent + " " + document.getElementById("requests").innerHTML"#,
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, #""1 <tr><td><a href=\"/_pekit/requests/1\">#1</a></td><td>GET</td><td class=\"target\">/live?x=&lt;script&gt;1&lt;/script&gt;</td><td>0</td></tr>\n""# + "\n")
    }

    /// The `curl` each request's page and JSON give sends it again byte for byte: curl 7.88
    /// sends a request, the command pekit serve made of it is run, and the two requests kept
    /// are the same bytes (a bracketed query, a UTF-8 field value and a body included).
    func testTheCurlCommandSendsTheSameBytesAgain() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let served = try Served([])
        let base = "http://127.0.0.1:\(served.port)"
        _ = try PekitProcess.output(of: "/usr/bin/curl", ["-gs", "-o", "/dev/null", "\(base)/form?a[b]=1&x=1&x=2", "-d", "tags[]=x&it's=1", "-H", "X-Name: Zoë"])
        func detail(_ n: Int) throws -> [String: Any] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try PekitProcess.output(of: "/usr/bin/curl", ["-s", "\(base)/_pekit/requests/\(n)"]))) as? [String: Any])
        }
        let first = try detail(1)
        let command = try XCTUnwrap(first["curl"] as? String)
        XCTAssertTrue(command.hasPrefix("printf 'tags[]=x&it\\047s=1' | curl --http1.1 --request POST --globoff '\(base)/form?a[b]=1&x=1&x=2' -H"), command)
        _ = try PekitProcess.runShell(command + " -s -o /dev/null")
        let second = try detail(2)
        XCTAssertEqual(second["raw"] as? String, first["raw"] as? String)
        XCTAssertNotNil(first["raw"] as? String)
    }

    /// The requests as they come, as server-sent events on `/_pekit/events` (what the page's
    /// list reads when the browser runs its script; it is there without one too).
    func testRequestsAreAnnouncedAsServerSentEvents() throws {
        let served = try Served([])
        let found = try check(["events", String(served.port)])
        XCTAssertEqual(found["head"] as? String, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store")
        let event = try XCTUnwrap(found["event"] as? String)
        XCTAssertTrue(event.hasPrefix(#"event: request\#ndata: {"number":1,"method":"GET","target":"/live?a=1","received_at":"#), event)
        XCTAssertTrue(event.hasSuffix(#","body_bytes":0}"#), event)
        XCTAssertEqual(event.split(separator: "\n").count, 2, event)
    }

    /// The requests kept as HAR 1.2 (`/_pekit/requests.har`): each request as sent (method,
    /// URL, fields in order, its body) and what pekit serve answered it, Cookie redacted.
    func testTheRequestsKeptAsHAR() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let served = try Served(["--echo"])
        let base = "http://127.0.0.1:\(served.port)"
        _ = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-o", "/dev/null", "\(base)/a?x=1&y=%20", "-d", "k=v", "-b", "sid=secret1"])
        _ = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-o", "/dev/null", "\(base)/b", "-H", "X-Two: 2"])
        let text = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "\(base)/_pekit/requests.har"])
        let har = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text)) as? [String: Any])
        let log = try XCTUnwrap(har["log"] as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "1.2")
        let entries = try XCTUnwrap(log["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 2)
        let first = try XCTUnwrap(entries.first?["request"] as? [String: Any])
        XCTAssertEqual(first["method"] as? String, "POST")
        XCTAssertEqual(first["url"] as? String, "\(base)/a?x=1&y=%20")
        XCTAssertEqual((first["postData"] as? [String: Any])?["text"] as? String, "k=v")
        XCTAssertEqual((first["headers"] as? [[String: String]])?.map { $0["name"] ?? "" }, ["Host", "User-Agent", "Accept", "Cookie", "Content-Length", "Content-Type"])
        let cookie = (first["headers"] as? [[String: String]])?.first { $0["name"] == "Cookie" }?["value"]
        XCTAssertNotNil(cookie)
        XCTAssertNotEqual(cookie, "sid=secret1", "the request's Cookie value is redacted (the answer --echo gave shows it: it is the answer)")
        XCTAssertEqual((first["queryString"] as? [[String: String]])?.map { ($0["name"] ?? "") + "=" + ($0["value"] ?? "") }, ["x=1", "y= "])
        let answered = try XCTUnwrap(entries.last?["response"] as? [String: Any])
        XCTAssertEqual(answered["status"] as? Int, 200)
        let content = try XCTUnwrap(answered["content"] as? [String: Any])
        XCTAssertEqual(content["mimeType"] as? String, "message/http")
        XCTAssertEqual(content["text"] as? String, "GET /b HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\nX-Two: 2\r\n\r\n")

        // --har-with-secrets keeps the Cookie's value; `pekit export http` writes the requests as
        // a .http file that holds the same request line, fields and body.
        let kept = try Served(["--har-with-secrets"])
        let keptBase = "http://127.0.0.1:\(kept.port)"
        _ = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-o", "/dev/null", "\(keptBase)/a?x=1", "-d", "k=v", "-b", "sid=secret1"])
        let dir = try makeTemporaryDirectory("pekit-serve-har")
        let file = dir.appendingPathComponent("session.har")
        try Data(try PekitProcess.output(of: "/usr/bin/curl", ["-s", "\(keptBase)/_pekit/requests.har"])).write(to: file)
        let exported = try PekitProcess.run(["export", "http", file.path])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertTrue(exported.stdout.contains("POST \(keptBase)/a?x=1\nHost: 127.0.0.1:\(kept.port)\nUser-Agent: curl/7.88.1\nAccept: */*\nCookie: sid=secret1\n"
                                               + "Content-Length: 3\nContent-Type: application/x-www-form-urlencoded\n\nk=v"), exported.stdout)
    }

    /// --mock: each request answered with the response a HAR file recorded for a request the
    /// --match-by server reads the same (curl sends them): the order of names, `a[]` escaped or
    /// not and an --ignore-param cache-buster do not matter under php; a list's order does;
    /// each recorded response once (mitmproxy pops what it replays) unless --mock-reuse;
    /// Set-Cookie kept for the local host; a request nothing matches answered 404 with the
    /// nearest recorded ones and how each differs; bytes compares exactly.
    func testMockAnswersWithTheRecordedResponseWhatTheServerReadsTheSame() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let directory = try makeTemporaryDirectory("serve-mock")
        let har = directory.appendingPathComponent("session.har")
        try Data(#"""
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
             {"request": {"method": "GET", "url": "https://api.example.com/items?tags[]=a&tags[]=b&_=1700000000", "headers": []},
              "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"},
                {"name": "Set-Cookie", "value": "sid=abc; Domain=example.com; Path=/; Secure; HttpOnly; SameSite=None"},
                {"name": "Content-Encoding", "value": "gzip"}], "content": {"size": 15, "mimeType": "application/json", "text": "{\"items\":[1,2]}"}}},
             {"request": {"method": "POST", "url": "https://api.example.com/login", "headers": [{"name": "Content-Type", "value": "application/x-www-form-urlencoded"}],
              "postData": {"mimeType": "application/x-www-form-urlencoded", "text": "user=ann&pass=x+y"}},
              "response": {"status": 302, "headers": [{"name": "Location", "value": "/home"}], "content": {"size": 0, "text": ""}}}
            ]}}
            """#.utf8).write(to: har)
        func curl(_ port: Int, _ args: [String]) throws -> String {
            String(decoding: try PekitProcess.output(of: "/usr/bin/curl", ["-gsi"] + args.map { $0.replacingOccurrences(of: "BASE", with: "http://127.0.0.1:\(port)") }), as: UTF8.self)
        }
        let php = try Served(["--mock", har.path, "--match-by", "php", "--ignore-param", "_"])
        XCTAssertEqual(try curl(php.port, ["BASE/items?tags%5B%5D=a&tags%5B%5D=b&_=999"]), """
            HTTP/1.1 200 OK\r
            Content-Type: application/json\r
            Set-Cookie: sid=abc; Path=/; HttpOnly; SameSite=Lax\r
            Content-Length: 15\r
            \r
            {"items":[1,2]}
            """)
        let again = try curl(php.port, ["BASE/items?tags[]=a&tags[]=b"])
        XCTAssert(again.hasPrefix("HTTP/1.1 404 Not Found\r\n"), again)
        XCTAssert(again.contains(#"{"entry":1,"request":"GET https://api.example.com/items?tags[]=a&tags[]=b&_=1700000000","differs":["its recorded response was served already"#), again)
        XCTAssertEqual(try curl(php.port, ["BASE/login", "-d", "pass=x%20y&user=ann"]), "HTTP/1.1 302 Found\r\nLocation: /home\r\nContent-Length: 0\r\n\r\n")
        let wrong = try curl(php.port, ["BASE/login", "-d", "pass=z&user=ann"])
        XCTAssert(wrong.hasSuffix(#""match_by":"php","nearest":[{"entry":2,"request":"POST https://api.example.com/login","differs":["the form body as php reads it: {\"pass\":\"z\",\"user\":\"ann\"}, recorded {\"pass\":\"x y\",\"user\":\"ann\"}"]},"#
                                  + #"{"entry":1,"request":"GET https://api.example.com/items?tags[]=a&tags[]=b&_=1700000000","differs":["the method: POST, recorded GET","#
                                  + #""the path: /login, recorded /items","the query as php reads it: [], recorded {\"tags\":[\"a\",\"b\"]}","the body: 15 bytes, recorded 0, not the same"]}]}"# + "\n"), wrong)
        let reuse = try Served(["--mock", har.path, "--match-by", "php", "--ignore-param", "_", "--mock-reuse"])
        for query in ["tags[]=a&tags[]=b&_=1", "_=2&tags[]=a&tags[]=b"] {
            XCTAssert(try curl(reuse.port, ["BASE/items?\(query)"]).hasPrefix("HTTP/1.1 200 OK"), query)
        }
        XCTAssert(try curl(reuse.port, ["BASE/items?tags[]=b&tags[]=a&_=1"]).hasPrefix("HTTP/1.1 404"), "a list's order is what the server reads")
        let bytes = try Served(["--mock", har.path, "--match-by", "bytes"])
        XCTAssert(try curl(bytes.port, ["BASE/items?tags%5B%5D=a&tags%5B%5D=b&_=1700000000"]).hasPrefix("HTTP/1.1 404"))
        XCTAssert(try curl(bytes.port, ["BASE/items?tags[]=a&tags[]=b&_=1700000000"]).hasPrefix("HTTP/1.1 200 OK"))
        // The terminal line says what each request was answered.
        php.process.terminate()
        php.process.waitUntilExit()
        let out = String(decoding: (php.process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        XCTAssertEqual(out.split(separator: "\n").map { String($0).replacingOccurrences(of: #"from 127\.0\.0\.1:\d+"#, with: "from -", options: .regularExpression) }, [
            "#1 GET /items?tags%5B%5D=a&tags%5B%5D=b&_=999  0 bytes  from -  → recorded entry 1, 200",
            "#2 GET /items?tags[]=a&tags[]=b  0 bytes  from -  → no recorded match, 404",
            "#3 POST /login  19 bytes  from -  → recorded entry 2, 302",
            "#4 POST /login  15 bytes  from -  → no recorded match, 404",
        ])
        let missing = try PekitProcess.run(["serve", "--mock", directory.appendingPathComponent("none.har").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssert(missing.stderr.hasPrefix("pekit serve: cannot read "), missing.stderr)
        XCTAssertEqual(try PekitProcess.run(["serve", "--match-by", "php"]).status, 2)
        XCTAssertEqual(try PekitProcess.run(["serve", "--mock", har.path, "--echo"]).status, 2)
        XCTAssertEqual(try PekitProcess.run(["serve", "--mock", har.path, "--match-by", "nginx"]).status, 2)
    }

    /// Under wrk's 50 connections for a second, every request wrk completed is recorded, and at
    /// most the 50 still in flight when it stopped besides; none refused or failed.
    func testNoRequestIsLostUnderWrk() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else { throw XCTSkip("wrk is not installed") }
        let served = try Served([], drained: true)
        let out = String(decoding: try PekitProcess.output(of: "/usr/bin/wrk", ["-t1", "-c50", "-d1s", "http://127.0.0.1:\(served.port)/items?tags[]=a&n=1"]), as: UTF8.self)
        let count = try XCTUnwrap(out.range(of: #"\d+ requests in"#, options: .regularExpression).flatMap { Int(out[$0].prefix { $0.isNumber }) }, out)
        XCTAssertFalse(out.contains("Socket errors") || out.contains("Non-2xx"), out)
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try PekitProcess.output(of: "/usr/bin/curl", ["-s", "http://127.0.0.1:\(served.port)/_pekit/requests"]))) as? [String: Any])
        let total = try XCTUnwrap(list["total"] as? Int)
        XCTAssertGreaterThan(count, 100, out)
        XCTAssert(count <= total && total <= count + 50, "wrk completed \(count), pekit serve recorded \(total)")
    }

    /// The request page's "As pekit Lua" (what `pekit import curl` makes of its curl command),
    /// run with `pekit run`, sends the very bytes curl sent: request 2 is request 1 again, and
    /// so for a second request with a body that is not UTF-8 and fields of its own. Its ".http"
    /// view, run with `pekit test`, sends them too.
    func testTheLuaScriptOfARequestSendsTheSameBytes() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let served = try Served([], drained: true)
        let base = "http://127.0.0.1:\(served.port)"
        let directory = try makeTemporaryDirectory("serve-lua")
        let binary = directory.appendingPathComponent("body.bin")
        try Data([0x61, 0xFF, 0x00, 0x3D, 0x0A]).write(to: binary)
        let sends = [["-gs", "\(base)/form?a[b]=1&x=%20y", "-H", "X-T: 1", "-d", "tags[]=x"],
                     ["-s", "-X", "PUT", "\(base)/up?é=1", "-H", "Content-Type: application/octet-stream", "-H", "X-Empty;", "--data-binary", "@\(binary.path)"]]
        for (n, args) in sends.enumerated() {
            _ = try PekitProcess.output(of: "/usr/bin/curl", args)
            // Request 1 is sent again by its Lua script (2) and its .http file (3); request 4
            // (a body that is not text) by its Lua script (5).
            let first = 3 * n + 1
            let page = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-H", "Accept: text/html", "\(base)/_pekit/requests/\(first)"]), as: UTF8.self)
            let start = try XCTUnwrap(page.range(of: "<pre class=\"lua\">"), page), end = try XCTUnwrap(page.range(of: "</pre>", range: start.upperBound..<page.endIndex))
            let lua = unescaped(String(page[start.upperBound..<end.lowerBound]))
            let script = directory.appendingPathComponent("r\(n).lua")
            try Data(lua.utf8).write(to: script)
            let run = try PekitProcess.run(["run", script.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            func raw(_ number: Int) throws -> String? {
                let detail = try JSONSerialization.jsonObject(with: Data(try PekitProcess.output(of: "/usr/bin/curl", ["-s", "\(base)/_pekit/requests/\(number)"]))) as? [String: Any]
                return (detail?["raw"] as? String) ?? (detail?["raw_base64"] as? String)
            }
            let sent = try raw(first)
            XCTAssertNotNil(sent)
            XCTAssertEqual(try raw(first + 1), sent, lua)
            // The .http view: `pekit test` sends the same bytes; a body that is not text is
            // said not to fit in a .http file.
            guard let httpStart = page.range(of: "<pre class=\"http\">") else {
                XCTAssert(page.contains("A .http file cannot hold this request exactly: entry 1: "), page)
                XCTAssertEqual(n, 1, "only the body that is not text is refused")
                continue
            }
            let httpEnd = try XCTUnwrap(page.range(of: "</pre>", range: httpStart.upperBound..<page.endIndex))
            let http = directory.appendingPathComponent("r\(n).http")
            try Data(unescaped(String(page[httpStart.upperBound..<httpEnd.lowerBound])).utf8).write(to: http)
            let tested = try PekitProcess.run(["test", http.path])
            XCTAssertEqual(tested.status, 0, tested.stdout + tested.stderr)
            let file = try String(contentsOf: http, encoding: .utf8)
            XCTAssertEqual(try raw(first + 2), sent, file)
        }
    }

    /// HTML's five escapes undone (what the page's `<pre>` blocks hold).
    private func unescaped(_ html: String) -> String {
        html.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    func testUsageErrors() throws {
        let unknown = try PekitProcess.run(["serve", "--servers", "phpp"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderr, "pekit serve: no server model 'phpp'; did you mean 'php'? (see 'pekit serve --help')\n")
        let badPort = try PekitProcess.run(["serve", "--listen", "127.0.0.1:70000"])
        XCTAssertEqual(badPort.status, 2)
        let notAnAddress = try PekitProcess.run(["serve", "--listen", "localhost:0"])
        XCTAssertEqual(notAnAddress.status, 1)
        XCTAssertEqual(notAnAddress.stderr, "pekit serve: --listen: localhost is not an IP address (give one, as 127.0.0.1 or ::1)\n")
    }
}
