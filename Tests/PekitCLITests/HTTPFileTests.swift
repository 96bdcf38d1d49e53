import Foundation
import PekitTestSupport
import XCTest

/// Issue 72 (the `.http` slice): `pekit test FILE.http` and `pekit import http FILE.http` send
/// what JetBrains' HTTP Request in Editor specification says each request is. Its examples are
/// generated into Fixtures/http-spec by scripts/http-spec-fixtures (the commit in each file);
/// each expectation below is a sentence of the specification, cited by section.
final class HTTPFileTests: XCTestCase {
    static let fixtures = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCLITests/Fixtures/http-spec")

    /// What the local server read of each request of a run (its /echo JSON, in the HAR), by the
    /// test's name: method, target, the fields pekit does not add itself, and the body.
    func sent(_ har: URL) throws -> [String: [String]] {
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: har)) as? [String: Any])
        let entries = try XCTUnwrap((log["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        var out: [String: [String]] = [:]
        for entry in entries {
            let comment = entry["comment"] as? String ?? ""
            let text = ((entry["response"] as? [String: Any])?["content"] as? [String: Any])?["text"] as? String ?? "{}"
            let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
            let headers = (echo["headers"] as? [[String]] ?? []).filter { !["user-agent", "accept", "content-length"].contains($0[0].lowercased()) }
            let test = comment.components(separatedBy: ": ").dropFirst().joined(separator: ": ")
            out[test, default: []].append("\(echo["method"] ?? "") \(echo["target"] ?? "")" + headers.map { " | \($0[0]): \($0[1])" }.joined() + " | body \(echo["body"] ?? "")")
        }
        return out
    }

    func testTheSpecificationsExamplesSendWhatItSays() throws {
        let server = try TestServer.shared()
        let port = server.base.split(separator: ":").last.map(String.init) ?? ""
        let dir = try makeTemporaryDirectory("pekit-http-spec")
        let har = dir.appendingPathComponent("spec.har"), report = dir.appendingPathComponent("r.json")
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".http") }.sorted()
        XCTAssertEqual(files.count, 25)
        // Every host the examples name, sent to the local server under its name.
        let mappings = ["example.com:80", "example.com:8080", "127.0.0.1:8080", "[::1]:80"].flatMap { ["--connect", "\($0)=127.0.0.1:\(port)"] }
        let r = try PekitProcess.run(["test"] + mappings + ["--var", "host=example.com", "--var", "element-id=7", "--har", har.path, "--report", "json:" + report.path]
                                     + files.map { Self.fixtures.appendingPathComponent($0).path })
        let got = try sent(har)
        func one(_ file: String, _ line: Int) -> [String] {
            got.first { $0.key.hasSuffix("(\(file):\(line))") }?.value ?? ["(not sent)"]
        }
        let spec = "{\n  “name”: “entity”,\n  “value”: “content”\n}"
        // §1.2: the example request, its body as written (UTF-8).
        XCTAssertEqual(one("01-section-1-2.http", 4), ["POST /api/add | Host: example.com | Content-Type: application/json | body \(spec)"])
        // §3.1: a file of requests between separators.
        XCTAssertEqual(got.filter { $0.key.contains("02-section-3-1.http") }.values.flatMap { $0 }, ["GET / | Host: example.com | body ", "GET / | Host: example.com | body "])
        // §3.2.1: the method GET when omitted; the version optional.
        XCTAssertEqual(one("04-section-3-2-1.http", 3), ["GET / | Host: example.com | body "])
        XCTAssertEqual(one("05-section-3-2-1.http", 3), ["GET / | Host: example.com | body "])
        // §3.2.1.1: an origin-form target on the Host field's host; the asterisk form.
        XCTAssertEqual(one("06-section-3-2-1-1.http", 3), ["GET /api/get | Host: example.com | body "])
        XCTAssertEqual(one("08-section-3-2-1-1.http", 3), ["OPTIONS * | Host: example.com:8080 | body "])
        // §3.2.1.2: authorities (IPv6, IPv4 with a port).
        XCTAssertEqual(one("09-section-3-2-1-2.http", 3), ["GET / | Host: [::1] | body "])
        XCTAssertEqual(one("10-section-3-2-1-2.http", 3), ["GET / | Host: 127.0.0.1:8080 | body "])
        // §3.2.1.4: the query sent, the fragment not.
        XCTAssertEqual(one("12-section-3-2-1-4.http", 3), ["GET /api/get?id=42 | Host: example.com | body "])
        XCTAssertEqual(one("13-section-3-2-1-4.http", 3), ["GET /api/get | Host: example.com | body "])
        // §3.2.2: header fields sent as they are.
        XCTAssertEqual(one("14-section-3-2-2.http", 3), ["GET /api/get?id=15 | Host: example.com | From: user@example.com | body "])
        XCTAssertEqual(one("15-section-3-2-3.http", 3), ["POST /api/add | Host: example.com | Content-Type: application/json | body { “key”: “value” }"])
        // §3.2.3.1 and §4.3: multipart, the file part's content from the file the example gives.
        XCTAssertEqual(one("17-section-3-2-3-1.http", 3), ["POST /api/upload | Host: example.com | Content-Type: multipart/form-data; boundary=abcd | body "
            + "--abcd\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nText\r\n--abcd\r\nContent-Disposition: form-data; name=\"file_to_send\"; filename=\"input.txt\"\r\n\r\n\nmessage-body\n\r\n--abcd--\r\n"])
        // §3.2.4 and §3.2.5: the request is sent; the handler and the reference are named, not run.
        XCTAssertEqual(one("18-section-3-2-4.http", 3), ["GET /auth | Host: example.com | body "])
        XCTAssertEqual(one("19-section-3-2-5.http", 3), ["GET / | Host: example.com | body "])
        // §3.2.6: environment variables in the target.
        XCTAssertEqual(one("20-section-3-2-6.http", 3), ["GET /api/get?id=7 | Host: example.com | body "])
        // §4.2.1: the path's lines trimmed and joined, escapes kept ("%20" is not encoded again).
        XCTAssertEqual(one("21-section-4-2-1.http", 3), ["GET /api/get | Host: example.com | body "])
        XCTAssertEqual(one("22-section-4-2-1.http", 3), ["GET /%20api%20+/get+ | Host: example.com | body "])
        // §4.2.2: an in-place body without the whitespace around it; a file's body whole.
        XCTAssertTrue(one("23-section-4-2-2.http", 4)[0].hasSuffix(" | body message-body"), "\(one("23-section-4-2-2.http", 4))")
        XCTAssertTrue(one("24-section-4-2-2.http", 4)[0].hasSuffix(" | body \nmessage-body\n"), "\(one("24-section-4-2-2.http", 4))")
        // The examples that name files the specification does not give fail, naming the file.
        let messages = try TestRunFiles.messages(report)
        XCTAssertTrue(messages.contains { $0.hasPrefix("POST http://example.com/auth (03-section-3-2.http:3): ") && $0.hasSuffix("03-section-3-2.http:6: cannot read \(Self.fixtures.path)/input.json (named by < input.json)") }, messages.joined(separator: "\n"))
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(messages.filter { !$0.hasSuffix(": passed") }.count, 2, messages.joined(separator: "\n"))
        // The JavaScript handlers and the references, each named with its line.
        XCTAssertTrue(r.stdout.contains("  note  \(Self.fixtures.path)/18-section-3-2-4.http:5: not run: JavaScript handler (write Lua assertions as # @pekit lines)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  note  \(Self.fixtures.path)/19-section-3-2-5.http:5: not used: a response reference (<>)\n"), r.stdout)
    }

    /// A file of requests run as tests: variables from --var over @name lines over the chosen
    /// environment (the private file over the public one), one jar for the file's requests,
    /// `# @pekit` assertions failing at their own line; and `pekit import http` prints the test
    /// file that runs the same way.
    func testAFileRunsAsTestsAndImportsAsOne() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-http-file")
        let host = server.base.replacingOccurrences(of: "http://", with: "")
        try TestRunFiles.write([
            "api.http": """
                @base = http://{{host}}
                @who = file

                ### set a cookie
                GET {{base}}/cookies/set?sid=abc
                # @pekit expect(r):status(200)

                ###
                # @name sends it back
                GET {{base}}/echo?who={{who}}&env={{stage}}
                Authorization: Bearer {{token}}
                # @pekit expect(r):json("$.cookie", "sid=abc")
                # @pekit expect(r):json("$.target", "/echo?who=cli&env=dev")
                # @pekit expect(r):json("$.headers[?@[0] == 'Authorization'][1]", {"Bearer private-1"})

                ### fails at its line
                POST {{base}}/echo
                Content-Type: text/plain

                hello
                > {% client.test("js", function() {}); %}
                # @pekit expect(r):json("$.body", "goodbye")

                ### asks for HTTP/2
                GET {{base}}/echo HTTP/2
                # @pekit expect(r):json("$.headers[?@[0] == 'Upgrade'][1]", {"h2c"})
                """,
            "http-client.env.json": #"{ "dev": { "host": "\#(host)", "stage": "dev", "token": "public-1" } }"#,
            "http-client.private.env.json": #"{ "dev": { "token": "private-1" } }"#,
        ], in: dir)
        let expected = [
            "set a cookie (api.http:5): passed",
            "sends it back (api.http:10): passed",
            #"fails at its line (api.http:17): api.http:22: expected $.body to be "goodbye", got "hello""#,
            // §3.2.1's version asks for HTTP/2: on http://, the upgrade to h2c, as curl --http2 asks.
            "asks for HTTP/2 (api.http:25): passed",
        ]
        let report = dir.appendingPathComponent("r.json")
        let r = try PekitProcess.run(["test", "--env", "dev", "--var", "who=cli", "--report", "json:" + report.path, "api.http"], directory: dir)
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertEqual(try TestRunFiles.messages(report), expected)
        XCTAssertTrue(r.stdout.hasPrefix("api.http\n  note  api.http:21: not run: JavaScript handler (write Lua assertions as # @pekit lines)\n"), r.stdout)

        let imported = try PekitProcess.run(["import", "http", "api.http"], directory: dir)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.stderr, "pekit import: api.http:21: not run: JavaScript handler (write Lua assertions as # @pekit lines)\n")
        try TestRunFiles.write(["api_test.lua": imported.stdout], in: dir)
        let again = try PekitProcess.run(["test", "--env", "dev", "--var", "who=cli", "--report", "json:" + report.path, "api_test.lua"], directory: dir)
        XCTAssertEqual(again.status, 1, again.stdout + again.stderr)
        XCTAssertEqual(try TestRunFiles.messages(report).map { $0.replacingOccurrences(of: #"api_test\.lua:\d+: "#, with: "api.http:22: ", options: .regularExpression) }, expected)
        // Without the environment, the variable it lacks is named with the line that uses it
        // (@base's, which names {{host}}).
        let bare = try PekitProcess.run(["test", "--report", "json:" + report.path, "api.http"], directory: dir)
        XCTAssertEqual(bare.status, 1)
        let bareMessages = try TestRunFiles.messages(report)
        XCTAssertTrue(bareMessages.first?.hasSuffix("api.http:1: the variable {{host}} is not set (an @host = … line, --var host=…, or http-client.env.json with --env NAME)") == true,
                      bareMessages.joined(separator: "\n"))
    }

    /// A file that does not read as the grammar gets its file, line and column and what was
    /// expected; nothing is sent.
    func testMalformedFilesNameTheirPlace() throws {
        let dir = try makeTemporaryDirectory("pekit-http-bad")
        for (text, message) in [
            ("GET http://h/\nnot a header\n", "bad.http:2:1: expected a header field (Name: value), or an empty line before the body"),
            ("FETCH http://h/\n", "bad.http:1:1: FETCH is not a method the specification takes (CONNECT, DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT, TRACE)"),
            ("GET http://h/\n\n> {% client.log(1);\n", "bad.http:3:1: a response handler's {% is not closed by %}"),
            ("@ = 1\nGET http://h/\n", "bad.http:1:2: expected a variable's name (letters, digits, '-', '_', '.') before '='"),
        ] {
            try TestRunFiles.write(["bad.http": text], in: dir)
            let run = try PekitProcess.run(["test", "bad.http"], directory: dir)
            XCTAssertEqual(run.status, 2, text)
            XCTAssertTrue(run.stdout.contains("  ERROR " + message + "\n"), run.stdout)
            let imported = try PekitProcess.run(["import", "http", "bad.http"], directory: dir)
            XCTAssertEqual(imported.stderr, "pekit import: " + message + "\n")
            XCTAssertEqual(imported.status, 1)
        }
    }
}
