import Foundation
import PekitTestSupport
import XCTest

/// HAR files in the shapes Chrome, Firefox and Charles export (Fixtures/har, described in its
/// README): listed, replayed against the test server (which echoes what it received), and
/// loaded from Lua.
final class HARCommandTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/har")

    func localCopy(_ name: String, _ server: TestServer) throws -> String {
        let dir = try makeTemporaryDirectory("har")
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
            .replacingOccurrences(of: "https://api.example.com", with: server.base)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A HAR's method and a response's header names reach the terminal escaped, as its URLs do
    /// (issue 41): a file cannot send escape sequences to the person reading the list.
    func testControlBytesFromAHARAreEscaped() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("har-escapes")
        let har = dir.appendingPathComponent("evil.har").path
        let document = #"{"log": {"version": "1.2", "entries": [{"request": {"method": "GE\u001b[2JT", "url": "\#(server.base)/echo", "headers": []},"#
            + #""response": {"status": 200, "headers": [], "content": {"text": ""}}},"#
            + #"{"request": {"method": "GET", "url": "\#(server.base)/echo", "headers": []},"#
            + #""response": {"status": 200, "headers": [{"name": "X-\u001b[31mRed", "value": "1"}], "content": {"text": ""}}}]}}"#
        try document.write(toFile: har, atomically: true, encoding: .utf8)
        let list = try PekitProcess.run(["har", "list", har])
        XCTAssertEqual(list.stdout, "1\tGE\\x1B[2JT\t\(server.base)/echo\t200\n2\tGET\t\(server.base)/echo\t200\n")
        let replay = try PekitProcess.run(["har", "replay", har, "--compare", "headers"])
        XCTAssertFalse(replay.stdout.contains("\u{1B}"), replay.stdout)
        XCTAssertTrue(replay.stdout.contains("header x-\\x1B[31mred: recorded \"1\", now none"), replay.stdout)
    }

    func testListReplayAndLoad() throws {
        let server = try TestServer.shared()
        let list = try PekitProcess.run(["har", "list", Self.fixtures.appendingPathComponent("chrome.har").path])
        XCTAssertEqual(list.stdout, "1\tGET\thttps://api.example.com/status/200?page=2\t200\n2\tPOST\thttps://api.example.com/echo\t200\n")
        // Charles' second entry was a 201; the test server's echo answers 200: that is reported.
        let replay = try PekitProcess.run(["har", "replay", try localCopy("charles.har", server)])
        XCTAssertEqual(replay.stdout, "1\tPOST\t\(server.base)/echo\t200\tas recorded\n2\tPUT\t\(server.base)/echo?kind=bin\t200\trecorded 201\n")
        XCTAssertEqual(replay.status, 1)
        let filtered = try PekitProcess.run(["har", "replay", try localCopy("chrome.har", server), "--filter", "/status/"])
        XCTAssertEqual(filtered.stdout, "1\tGET\t\(server.base)/status/200?page=2\t200\tas recorded\n")
        XCTAssertEqual(filtered.status, 0)
        // What the server received: the recorded headers and bodies, pseudo-headers left out,
        // base64 bodies decoded, params-only forms written as forms.
        let script = """
            local function sent(file)
              local reqs, statuses = pekit.har.load(file)
              local out = {}
              for i, req in ipairs(reqs) do
                if req.url:find("/echo", 1, true) then
                  local e = req:send():json()
                  -- A body that is not UTF-8 comes back from the echo as null: its bytes are checked by length.
                  local body = e.body ~= pekit.null and e.body or ("(" .. e.body_length .. " bytes)")
                  out[#out + 1] = e.method .. " " .. e.target .. " " .. body .. " " .. tostring(statuses[i])
                end
              end
              return table.concat(out, " | ")
            end
            print(sent(arg[1]))
            print(sent(arg[2]))
            print(sent(arg[3]))
            """
        let r = try PekitProcess.run(["run", "-", try localCopy("chrome.har", server), try localCopy("firefox.har", server), try localCopy("charles.har", server)],
                                     stdin: Array(script.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            POST /echo {"name":"x"} 200
            POST /echo user=ada&note=hello+world 200
            POST /echo device=a+b&push=1 200 | PUT /echo?kind=bin (4 bytes) 201

            """)
    }

    /// A recording replays as it was recorded: its fields in order, repeats kept, no field of
    /// pekit's own; and a hostile entry (chunked and a Content-Length) goes out with one framing,
    /// as its preview shows.
    func testReplaySendsTheRecordedFieldsAndOneFraming() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("har-bytes")
        let har = dir.appendingPathComponent("bytes.har").path
        let entries = """
            {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [
              {"startedDateTime": "2026-11-30T12:00:00.000Z", "time": 1, "request": {"method": "POST", "url": "\(server.base)/raw", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "x-dup", "value": "a"}, {"name": ":authority", "value": "h"}, {"name": "Cookie", "value": "k=v"}, {"name": "x-dup", "value": "b"},
                            {"name": "Content-Length", "value": "5"}, {"name": "content-type", "value": "text/plain"}],
                "postData": {"mimeType": "text/plain", "text": "hello"}}, "response": {"status": 200}},
              {"startedDateTime": "2026-11-30T12:00:01.000Z", "time": 1, "request": {"method": "POST", "url": "\(server.base)/raw", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Transfer-Encoding", "value": "chunked"}, {"name": "Content-Length", "value": "99"}],
                "postData": {"mimeType": "text/plain", "text": "abc"}}, "response": {"status": 200}}]}}
            """
        try entries.write(toFile: har, atomically: true, encoding: .utf8)
        let script = """
            local reqs = pekit.har.load(arg[1])
            for _, req in ipairs(reqs) do
              local r = req:send()
              io.write(r.body == req:raw() and "same\\n" or ("differs:\\n" .. r.body .. "\\nfrom\\n" .. req:raw() .. "\\n"))
              io.write(req:raw(), "\\n--\\n")
            end
            """
        let r = try PekitProcess.run(["run", "-", har], stdin: Array(script.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        let host = server.base.replacingOccurrences(of: "http://", with: "")
        XCTAssertEqual(r.stdout, """
            same
            POST /raw HTTP/1.1\r
            Host: \(host)\r
            x-dup: a\r
            Cookie: k=v\r
            x-dup: b\r
            Content-Length: 5\r
            content-type: text/plain\r
            \r
            hello
            --
            same
            POST /raw HTTP/1.1\r
            Host: \(host)\r
            Transfer-Encoding: chunked\r
            Content-Type: text/plain\r
            \r
            3\r
            abc\r
            0\r
            \r

            --

            """)
    }

    /// The HAR 1.2 fields every entry must have (the spec's required ones), with their types.
    func checkFields(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let log = try XCTUnwrap(root["log"] as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "1.2")
        XCTAssertNotNil((log["creator"] as? [String: Any])?["name"] as? String)
        let entries = try XCTUnwrap(log["entries"] as? [[String: Any]])
        for (i, entry) in entries.enumerated() {
            func has(_ object: [String: Any]?, _ keys: [String], _ place: String) {
                for key in keys where object?[key] == nil { XCTFail("entries[\(i)].\(place)\(key) is missing", file: file, line: line) }
            }
            has(entry, ["startedDateTime", "time", "request", "response", "cache", "timings"], "")
            has(entry["request"] as? [String: Any], ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"], "request.")
            has(entry["response"] as? [String: Any], ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"], "response.")
            has((entry["response"] as? [String: Any])?["content"] as? [String: Any], ["size", "mimeType"], "response.content.")
            has(entry["timings"] as? [String: Any], ["send", "wait", "receive"], "timings.")
            XCTAssertNotNil((entry["startedDateTime"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$"#, options: .regularExpression), file: file, line: line)
        }
        return entries
    }

    /// A HAR leaves credentials and cookies out unless asked (as Chrome exports it since 130),
    /// and only its owner can read it (issue 41).
    func testHARFilesAreSanitizedAndPrivate() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("har-secrets")
        func fields(_ path: String) throws -> (request: [String: String], response: [String], cookies: Int) {
            guard let entry = try checkFields(path).first else { throw XCTSkip("no entry in \(path)") }
            let request = entry["request"] as? [String: Any] ?? [:]
            let response = entry["response"] as? [String: Any] ?? [:]
            var named: [String: String] = [:]
            for case let h as [String: Any] in request["headers"] as? [Any] ?? [] { named[h["name"] as? String ?? ""] = h["value"] as? String }
            let setCookies = (response["headers"] as? [Any] ?? []).compactMap { ($0 as? [String: Any]).flatMap { $0["name"] as? String == "Set-Cookie" ? $0["value"] as? String : nil } }
            let cookies = (request["cookies"] as? [Any] ?? []).count + (response["cookies"] as? [Any] ?? []).count
            return (named, setCookies, cookies)
        }
        let plain = dir.appendingPathComponent("plain.har").path, secret = dir.appendingPathComponent("secret.har").path
        let args = ["-u", "ada:pw", "-b", "sid=s3cret", "-H", "Proxy-Authorization: Basic cHJveHk=", "\(server.base)/cookies/set?k=v"]
        let first = try PekitProcess.run(["request", "--har", plain] + args)
        XCTAssertEqual(first.status, 0, first.stderr)
        let sanitized = try fields(plain)
        XCTAssertEqual(sanitized.request["Authorization"], "")
        XCTAssertEqual(sanitized.request["Proxy-Authorization"], "")
        XCTAssertEqual(sanitized.request["Cookie"], "")
        XCTAssertEqual(sanitized.response, [""])
        XCTAssertEqual(sanitized.cookies, 0)
        // Nowhere but in the response's body, which the test server echoes the request into and
        // which a HAR keeps, as Chrome's sanitized export keeps bodies.
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: plain))) as? [String: Any])
        let entries = try XCTUnwrap((document["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        for entry in entries {
            var withoutContent = entry
            var response = try XCTUnwrap(entry["response"] as? [String: Any])
            XCTAssertTrue((response["content"] as? [String: Any])?["text"] as? String != "", "the body is recorded")
            response["content"] = nil
            withoutContent["response"] = response
            let text = String(decoding: try JSONSerialization.data(withJSONObject: withoutContent), as: UTF8.self)
            XCTAssertFalse(text.contains("s3cret"), text)
        }
        var info = stat()
        XCTAssertEqual(stat(plain, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(try PekitProcess.run(["request", "--har", secret, "--har-with-secrets"] + args).status, 0)
        let kept = try fields(secret)
        XCTAssertEqual(kept.request["Authorization"], "Basic YWRhOnB3")
        XCTAssertEqual(kept.request["Cookie"], "sid=s3cret")
        XCTAssertEqual(kept.response, ["k=v; Path=/"])
        XCTAssertEqual(kept.cookies, 2)
        let run = dir.appendingPathComponent("run.har").path
        XCTAssertEqual(try PekitProcess.run(["run", "--har", run, "-e", "pekit.http.send{url = '\(server.base)/echo', auth = {user = 'ada', password = 'pw'}}"]).status, 0)
        XCTAssertEqual(try fields(run).request["Authorization"], "")
    }

    /// --har on pekit request and pekit run: every exchange (redirect hops too), the spec's
    /// fields, and a file pekit loads back and replays.
    func testWrittenHARFilesLoadBack() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("har")
        let one = dir.appendingPathComponent("one.har").path, script = dir.appendingPathComponent("script.har").path
        let r = try PekitProcess.run(["request", "--har", one, "-d", "a=1", "\(server.base)/redirect/302?to=/echo"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let entries = try checkFields(one)
        XCTAssertEqual(entries.map { "\(($0["request"] as? [String: Any])?["method"] ?? "") \(($0["response"] as? [String: Any])?["status"] ?? "")" }, ["POST 302", "GET 200"])
        XCTAssertEqual(((entries[0]["request"] as? [String: Any])?["postData"] as? [String: Any])?["text"] as? String, "a=1")
        let run = try PekitProcess.run(["run", "--har", script, "-e", "pekit.http.get('\(server.base)/bytes/300') pekit.http.post('\(server.base)/echo', {json = {a = 1}})"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let scripted = try checkFields(script)
        XCTAssertEqual(((scripted[0]["response"] as? [String: Any])?["content"] as? [String: Any])?["encoding"] as? String, "base64", "bytes that are not text")
        XCTAssertEqual(try PekitProcess.run(["har", "list", script]).stdout, "1\tGET\t\(server.base)/bytes/300\t200\n2\tPOST\t\(server.base)/echo\t200\n")
        XCTAssertEqual(try PekitProcess.run(["har", "replay", script]).status, 0)
        // Entries in the order the requests started, not the order they finished: the slow one
        // started first and ends last.
        let batch = dir.appendingPathComponent("batch.har").path
        let all = try PekitProcess.run(["run", "--har", batch, "-e", "pekit.http.all({ '\(server.base)/delay/0.4?first', '\(server.base)/echo?second' }, { concurrency = 2 })"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(try PekitProcess.run(["har", "list", batch]).stdout, "1\tGET\t\(server.base)/delay/0.4?first\t200\n2\tGET\t\(server.base)/echo?second\t200\n")
    }

    /// replay --concurrency N: up to N at once (the server counts them), reported in the file's
    /// order; --progress shows the batch on standard error.
    func testReplayConcurrently() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("har")
        let har = dir.appendingPathComponent("batch.har").path
        let key = UUID().uuidString
        let record = try PekitProcess.run(["run", "--har", har, "-e",
            "local l = {} for i = 1, 12 do l[i] = '\(server.base)/inflight/\(key)?delay=0.15&i=' .. i end pekit.http.all(l, {concurrency = 1})"])
        XCTAssertEqual(record.status, 0, record.stderr)
        let replay = try PekitProcess.run(["har", "replay", har, "--concurrency", "4", "--progress"])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertEqual(replay.stdout, (1...12).map { "\($0)\tGET\t\(server.base)/inflight/\(key)?delay=0.15&i=\($0)\t200\tas recorded\n" }.joined())
        XCTAssertTrue(replay.stderr.hasSuffix("\r\u{1B}[K12/12 done, 0 failed, 0 in flight  " + (replay.stderr.split(separator: " ").last ?? "")), replay.stderr.debugDescription)
        XCTAssertTrue(replay.stderr.hasSuffix("/s\n"), replay.stderr.debugDescription)
        let stats = try PekitProcess.run(["request", "--send", "\(server.base)/inflight/\(key)/stats"])
        XCTAssertEqual(stats.stdout, #"{"count": 24, "max": 4}"#)
        let bad = try PekitProcess.run(["har", "replay", har, "--concurrency", "0"])
        XCTAssertEqual(bad.stderr, "pekit har: --concurrency takes a whole number from 1 to 10000, not '0' (see 'pekit har --help')\n")
        XCTAssertEqual(bad.status, 2)
    }

    func testNotAHARFile() throws {
        let dir = try makeTemporaryDirectory("har")
        let path = dir.appendingPathComponent("x.har").path
        try #"{"log": {"entries": [{"request": {"method": "GET"}}]}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try PekitProcess.run(["har", "list", path])
        XCTAssertEqual(r.stderr, "pekit har: \(path): log.entries[0].request.url: missing, or not a string\n")
        XCTAssertEqual(r.status, 1)
    }

    /// --compare body,headers: the recorded response's body (bytes, or the same JSON value) and
    /// header fields against the new one's, each difference on a line under its entry's.
    func testReplayComparesBodiesAndHeaders() throws {
        let server = try TestServer.shared()
        // The server's own Server field, recorded as it is, so that only what the test changes differs.
        let head = try PekitProcess.run(["request", "--send", "-i", "\(server.base)/status/204"]).stdout
        let serverField = head.components(separatedBy: "\r\n").first { $0.hasPrefix("Server: ") }.map { String($0.dropFirst(8)) } ?? ""
        func entry(_ url: String, _ status: Int, _ headers: [(String, String)], _ body: String) -> String {
            let fields = headers.map { #"{"name": "\#($0.0)", "value": "\#($0.1)"}"# }.joined(separator: ", ")
            return #"{"request": {"method": "GET", "url": "\#(url)", "headers": []}, "response": {"status": \#(status), "headers": [\#(fields)], "content": {"text": \#(body)}}}"#
        }
        let har = #"{"log": {"entries": [\#(entry("\(server.base)/cookies", 200, [("Server", serverField), ("Date", "Mon, 01 Jan 2024 00:00:00 GMT"), ("content-type", "application/json")], #""{\"cookie\":null}""#)), \#(entry("\(server.base)/status/404", 404, [("Server", serverField), ("Content-Type", "text/html"), ("X-Gone", "1")], #""status 404, gone\n""#))]}}"#
        let path = try makeTemporaryDirectory("har-compare").appendingPathComponent("s.har").path
        try har.write(toFile: path, atomically: true, encoding: .utf8)
        let compared = try PekitProcess.run(["har", "replay", path, "--compare", "body,headers"])
        XCTAssertEqual(compared.stdout, """
            1\tGET\t\(server.base)/cookies\t200\tas recorded
            2\tGET\t\(server.base)/status/404\t404\tas recorded
            2\t  header content-type: recorded "text/html", now "text/plain"
            2\t  header x-gone: recorded "1", now none
            2\t  body: recorded 17 bytes, now 11; they differ from byte 11

            """)
        XCTAssertEqual(compared.status, 1)
        // Headers only: the body is not looked at; without --compare, the statuses alone.
        XCTAssertFalse(try PekitProcess.run(["har", "replay", path, "--compare", "headers"]).stdout.contains("body:"))
        let plain = try PekitProcess.run(["har", "replay", path])
        XCTAssertEqual(plain.status, 0, plain.stdout)
        XCTAssertEqual(try PekitProcess.run(["har", "replay", path, "--compare", "cookies"]).stderr,
                       "pekit har: --compare takes body, headers or both (body,headers), not 'cookies' (see 'pekit har --help')\n")
    }

    /// --compare body decodes what the recorded request asked to be compressed (a browser's HAR
    /// holds the decoded text), and adds no Accept-Encoding to a request that had none.
    func testCompareDecodesOnlyWhatWasAskedCompressed() throws {
        let server = try TestServer.shared()
        let text = String(repeating: "compressible ", count: 200)
        func entry(_ path: String, _ fields: String, _ body: String) -> String {
            #"{"request": {"method": "GET", "url": "\#(server.base)\#(path)", "headers": [\#(fields)]}, "response": {"status": 200, "headers": [], "content": {"text": "\#(body)"}}}"#
        }
        let har = #"{"log": {"entries": [\#(entry("/gzip", #"{"name": "Accept-Encoding", "value": "gzip"}"#, text)), \#(entry("/gzip", "", text))]}}"#
        let path = try makeTemporaryDirectory("har-gzip").appendingPathComponent("g.har").path
        try har.write(toFile: path, atomically: true, encoding: .utf8)
        let compared = try PekitProcess.run(["har", "replay", path, "--compare", "body"])
        XCTAssertEqual(compared.stdout, "1\tGET\t\(server.base)/gzip\t200\tas recorded\n2\tGET\t\(server.base)/gzip\t200\tas recorded\n")
        XCTAssertEqual(compared.status, 0)
    }

    /// Issue 43: every hop says what the jar did: -v prints, and a HAR entry's comments keep,
    /// which cookies were sent, which held back and why, and what became of each Set-Cookie
    /// (by name and rule, never a value); from the command line and from `pekit run --har`.
    func testEveryHopExplainsItsCookies() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("har-cookies")
        let jar = dir.appendingPathComponent("jar.txt").path
        let cookies = "127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tS3CRET\n127.0.0.1\tFALSE\t/admin\tFALSE\t0\tadm\t1\n"
        try cookies.write(toFile: jar, atomically: true, encoding: .utf8)
        let har = dir.appendingPathComponent("c.har").path
        let url = "\(server.base)/cookies/raw?h=n%3D2%3B%20Path%3D%2F&h=__Host-x%3D1%3B%20Secure"
        let r = try PekitProcess.run(["request", "--send", "-v", "--jar", jar, "--har", har, "-o", "/dev/null", url])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("* cookie ") || $0.hasPrefix("* Set-Cookie ") }.map(String.init)
        XCTAssertEqual(lines, [
            "* cookie sid: sent: host-only cookie for 127.0.0.1, path / matches /cookies/raw",
            "* cookie adm: path: /cookies/raw does not path-match /admin",
            "* Set-Cookie n: stored for host 127.0.0.1, path /",
            "* Set-Cookie __Host-x: refused (host-prefix): a __Host- cookie needs Secure, an https origin, no Domain and an explicit Path=/",
        ])
        func comments(_ path: String) throws -> [String?] {
            let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            let entry = try XCTUnwrap(((document["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first)
            return [(entry["request"] as? [String: Any])?["comment"] as? String, (entry["response"] as? [String: Any])?["comment"] as? String]
        }
        let expected: [String?] = [lines[0...1].map { String($0.dropFirst(2)) }.joined(separator: "\n"), lines[2...3].map { String($0.dropFirst(2)) }.joined(separator: "\n")]
        XCTAssertEqual(try comments(har), expected)
        XCTAssertFalse(try comments(har).contains { $0?.contains("S3CRET") == true }, "cookies are named, never their values")
        // A script's HAR says the same of its jar.
        let scriptHAR = dir.appendingPathComponent("s.har").path
        let script = dir.appendingPathComponent("s.lua").path
        try "local jar = pekit.cookies.jar() jar:load(arg[1]) pekit.http.get(arg[2], { jar = jar })".write(toFile: script, atomically: true, encoding: .utf8)
        let fresh = dir.appendingPathComponent("fresh.txt").path
        try cookies.write(toFile: fresh, atomically: true, encoding: .utf8)
        let run = try PekitProcess.run(["run", "--har", scriptHAR, script, fresh, url])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try comments(scriptHAR), expected)
    }

    /// With secrets, a HAR's cookie lists carry what the jar knows of each cookie (HAR 1.2's
    /// fields, Chrome's sameSite) and a CHIPS cookie's partition as `_partitionKey`, on the
    /// response that set it and on the request that sent it (issue 43).
    func testSecretHARCookiesCarryTheirPartition() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("har-partition")
        let jar = dir.appendingPathComponent("jar.txt").path
        let set = dir.appendingPathComponent("set.har").path, sent = dir.appendingPathComponent("sent.har").path
        let common = ["request", "--send", "--jar", jar, "--top-level", "https://top.example/", "--har-with-secrets", "-o", "/dev/null"]
        XCTAssertEqual(try PekitProcess.run(common + ["--har", set, "\(server.base)/cookies/raw?h=p%3D1%3B%20Secure%3B%20Partitioned%3B%20Path%3D%2F&h=q%3D2%3B%20SameSite%3DLax"]).status, 0)
        XCTAssertEqual(try PekitProcess.run(common + ["--har", sent, "\(server.base)/cookies/x"]).status, 0)
        func cookies(_ path: String, _ side: String) throws -> String {
            let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            let entry = try XCTUnwrap(((document["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first)
            let list = try XCTUnwrap((entry[side] as? [String: Any])?["cookies"])
            return String(decoding: try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]), as: UTF8.self)
        }
        let p = #"{"_partitionKey":"https:\/\/top.example","domain":"127.0.0.1","httpOnly":false,"name":"p","path":"\/","secure":true,"value":"1"}"#
        let q = #"{"domain":"127.0.0.1","httpOnly":false,"name":"q","path":"\/cookies","sameSite":"Lax","secure":false,"value":"2"}"#
        XCTAssertEqual(try cookies(set, "response"), "[\(p),\(q)]")
        XCTAssertEqual(try cookies(sent, "request"), "[\(q),\(p)]")
    }
}
