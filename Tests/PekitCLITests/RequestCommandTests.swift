import Foundation
import PekitTestSupport
import XCTest

final class RequestCommandTests: XCTestCase {
    /// The test server's URL that answers with exactly `reply` (its /canned, base64url).
    func canned(_ reply: String, _ server: TestServer) -> String {
        let b64 = Data(reply.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return "\(server.base)/canned?b=\(b64)"
    }

    /// A loopback server that answers each request with the exact bytes it received.
    static let echoServer = """
        import socket, sys
        s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0)); s.listen(5)
        print(s.getsockname()[1], flush=True)
        for _ in range(int(sys.argv[1])):
            c, _ = s.accept(); data = b""
            while b"\\r\\n\\r\\n" not in data:
                chunk = c.recv(65536)
                if not chunk: break
                data += chunk
            head, _, body = data.partition(b"\\r\\n\\r\\n")
            # An upload that waits for the go-ahead (curl -T) gets it at once, not after curl's second.
            if b"\\r\\nexpect: 100-continue" in head.lower() and not body: c.sendall(b"HTTP/1.1 100 Continue\\r\\n\\r\\n")
            length, chunked = 0, False
            for line in head.split(b"\\r\\n")[1:]:
                k, _, v = line.partition(b":")
                if k.strip().lower() == b"content-length": length = int(v.strip())
                if k.strip().lower() == b"transfer-encoding" and b"chunked" in v.lower(): chunked = True
            def more():
                global body
                chunk = c.recv(65536)
                if not chunk: raise EOFError
                body += chunk
            try:
                if chunked:
                    # Walks the chunks (size line, data, CR LF) to the last one and its empty trailer.
                    at = 0
                    while True:
                        while b"\\r\\n" not in body[at:]: more()
                        end = body.index(b"\\r\\n", at)
                        size = int(body[at:end], 16)
                        at = end + 2 + size + 2
                        while len(body) < at: more()
                        if size == 0: break
                while len(body) < length: more()
            except EOFError:
                pass
            got = head + b"\\r\\n\\r\\n" + body
            c.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: %d\\r\\nConnection: close\\r\\n\\r\\n" % len(got) + got); c.close()
        """

    static func startEcho(requests: Int) throws -> (Process, Int) {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-c", Self.echoServer, String(requests)]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        let port = Int(String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return (server, port)
    }

    func sh(_ command: String) throws -> [UInt8] { try PekitProcess.output(of: "/bin/sh", ["-c", command]) }

    /// --read-by: the request's query and form body as each server reads them, side by side
    /// (PHP's '.' in a name read as '_', Rack 2.2 splitting at ';', Go 1.17 refusing it, Python's
    /// flat names, each as its own documentation says); a body that is not a form said so; and
    /// only showing, as --describe: a sending option beside it is refused.
    func testReadByShowsHowEachServerReadsTheQueryAndTheForm() throws {
        let get = try PekitProcess.run("request", "--read-by", "qs,php,rack,go", "--param", "b.c=x y", "http://h/p?z=1;2")
        XCTAssertEqual(get.stdout, #"""
            query: z=1;2&b.c=x%20y
            qs    {"z":"1;2","b.c":"x y"}
            php   {"z":"1;2","b_c":"x y"}
                             ^^^^^^^^^^^
                  (no "b.c")
            rack  {"z":"1","2":null,"b.c":"x y"}
                   ^^^^^^^ ^^^^^^^^
            go    {"b.c":["x y"]}
                   ^^^^^^^^^^^^^
                  (no "z")
                  (go also returns an error: invalid semicolon separator in query)
            body: none

            """#)
        XCTAssertEqual(get.status, 0)
        let post = try PekitProcess.run("request", "-X", "POST", "--read-by", "php,python", "--policy", "php", "--param", "tags[]=a", "--param", "tags[]=b", "http://h/")
        XCTAssertEqual(post.stdout, #"""
            query: none
            body (application/x-www-form-urlencoded; charset=utf-8): tags%5B0%5D=a&tags%5B1%5D=b
            php     {"tags":["a","b"]}
            python  {"tags[0]":["a"],"tags[1]":["b"]}
                     ^^^^^^^^^^^^^^^ ^^^^^^^^^^^^^^^
                    (no "tags")

            """#)
        // A multipart body and a Cookie field, by each server's own parsers: PHP's $_POST and
        // $_FILES, Go's values and files; the cookie said twice is the first to PHP and Express,
        // the last to Python, both to Go; Express reads no multipart body without a middleware.
        let dir = try makeTemporaryDirectory("read-by-multipart")
        try Data("hello\n".utf8).write(to: dir.appendingPathComponent("a.txt"))
        let multipart = try PekitProcess.run(["request", "-F", "user[name]=ada", "-F", "f=@a.txt", "-b", "a=1; a=2; b=x+y", "--read-by", "qs,php,python,go", "http://h/"], directory: dir)
        var shown = multipart.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(shown.count, 12, multipart.stdout + multipart.stderr)
        XCTAssert(shown[1].hasPrefix("body (multipart/form-data; boundary="), shown[1])
        shown[1] = "body (multipart/form-data; boundary=…): 2 parts"
        XCTAssertEqual(shown, [
            "query: none",
            "body (multipart/form-data; boundary=…): 2 parts",
            "qs      (no parser of its own for it)",
            #"php     {"post":{"user":{"name":"ada"}},"files":{"f":{"name":"a.txt","full_path":"a.txt","type":"text/plain","tmp_name":"hello\n","error":0,"size":6}}}"#,
            #"python  [["user[name]","ada"],["f",{"filename":"a.txt","type":"text/plain","content":"hello\n"}]]"#,
            #"go      {"values":{"user[name]":["ada"]},"files":{"f":[{"filename":"a.txt","content_type":"text/plain","size":6,"content":"hello\n"}]}}"#,
            "cookies: a=1; a=2; b=x+y",
            #"qs      {"a":"1","b":"x+y"}"#,
            #"php     {"a":"1","b":"x+y"}"#,
            #"python  {"a":"2","b":"x+y"}"#,
            #"go      [["a","1"],["a","2"],["b","x+y"]]"#,
            "",
        ])
        let json = try PekitProcess.run("request", "--read-by", "qs", "--json", #"{"a":1}"#, "http://h/")
        XCTAssertEqual(json.stdout, "query: none\nbody: 7 bytes of application/json, not a form: not read as parameters\n")
        let refused = try PekitProcess.run("request", "--read-by", "qs", "-i", "http://h/")
        XCTAssertEqual(refused.stderr, "pekit request: --include is for sending, and --read-by only shows the request: leave one out (see 'pekit request --help')\n")
        XCTAssertEqual(refused.status, 2)
        let unknown = try PekitProcess.run("request", "--read-by", "qs,nginx", "http://h/")
        XCTAssertEqual(unknown.status, 2)
        XCTAssert(unknown.stderr.hasPrefix("pekit request: "), unknown.stderr)
    }

    func testRawMessage() throws {
        let r = try PekitProcess.run(["request", "--policy", "afnetworking", "--param", "name=p&p", "--param", "nick_name=p&p[]@= =!",
                                      "--header", "X-Trace: 1", "--header", "Accept-Language:", "https://www.baidu.com"],
                                     environment: ["LANGUAGE": "zh_CN"])
        XCTAssertEqual(r.stdout, "GET /?name=p%26p&nick_name=p%26p%5B%5D%40%3D%20%3D%21 HTTP/1.1\r\nHost: www.baidu.com\r\nUser-Agent: pekit/0.1.0 (Linux; x86_64)\r\nAccept: */*\r\nX-Trace: 1\r\n\r\n")
        let post = try PekitProcess.run(["request", "-X", "POST", "--param", "a=1 2", "--param", "b=x", "--describe", "http://h/"])
        XCTAssertEqual(post.stdout, #"{"method":"POST","url":"http://h/","headers":[["Host","h"],["User-Agent","pekit/0.1.0 (Linux; x86_64)"],["Accept","*/*"],["Content-Length","11"],["Content-Type","application/x-www-form-urlencoded; charset=utf-8"]],"body":{"length":11,"text":"a=1%202&b=x"}}"# + "\n")
    }

    /// The curl rendering, run through sh, puts the same bytes on the wire as raw() describes.
    func testCurlCommandSendsTheSameBytes() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let dir = try makeTemporaryDirectory("req")
        let file = dir.appendingPathComponent("it's a file.bin")
        try Data([0, 0x27, 0x25, 0x5C, 0xFF, 0x0A, 0x0D, 0x24]).write(to: file)
        let (server, port) = try Self.startEcho(requests: 8)
        defer { server.terminate() }
        let plain = "http://127.0.0.1:\(port)/p?x=1"
        let cases: [([String], String)] = [
            (["-X", "POST", "--param", "name=小A", "--param", "q=it's 100% $HOME `x`", "--header", #"X-Odd: a"b$c\d"#, "--policy", "afnetworking"], plain),
            (["--file", "upload=@\(file.path)", "--param", "note=hi"], plain),
            // An IDN host (sent to the echo server by --connect), credentials, a space and
            // non-ASCII in the path and query: the preview, curl and pekit agree on every byte.
            (["--connect", "www.例子.中国:\(port)=127.0.0.1:\(port)"], "http://u:p%C3%A4@WWW.例子.中国:\(port)/a b/汉?q=汉 字#top"),
            (["--request-target", "/raw%zz/汉?^"], plain),
        ]
        for (args, url) in cases {
            var rendered = try PekitProcess.run(["request"] + args + ["--describe", url])
            XCTAssertEqual(rendered.status, 0, rendered.stderr)
            let raw = try PekitProcess.run(["request"] + args + [url]).stdoutBytes
            rendered = try PekitProcess.run(["request"] + args + ["--curl", url])
            // The multipart boundary is random: read it from the raw message and pin it.
            var command = rendered.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if let range = String(decoding: raw, as: UTF8.self).range(of: #"boundary=pekit-[0-9a-f]+"#, options: .regularExpression),
               let other = command.range(of: #"boundary=pekit-[0-9a-f]+"#, options: .regularExpression) {
                let ours = String(String(decoding: raw, as: UTF8.self)[range])
                let theirs = String(command[other])
                command = command.replacingOccurrences(of: String(theirs.dropFirst(9)), with: String(ours.dropFirst(9)))
            }
            let echoed = try sh(command + " -s --max-time 10")
            XCTAssertEqual(String(decoding: echoed, as: UTF8.self).hasPrefix(String(decoding: raw.prefix(20), as: UTF8.self)), true)
            if !args.contains("--file") { XCTAssertEqual(echoed, raw, "curl sent different bytes:\n\(String(decoding: echoed, as: UTF8.self))") }
            else { XCTAssertEqual(echoed.count, raw.count, "same length, boundaries aside") }
            // And pekit itself sends what it previews.
            let sent = try PekitProcess.run(["request"] + args + ["--send", url])
            XCTAssertEqual(sent.status, 0, sent.stderr)
            if !args.contains("--file") { XCTAssertEqual(sent.stdoutBytes, raw, "pekit sent different bytes:\n\(sent.stdout)") }
        }
    }

    /// curl's flags with curl's meaning: the bytes the server receives from pekit are the bytes
    /// curl sends for the same flags — request line, every field in curl's order, body — with
    /// nothing told apart but the User-Agent's value (pekit's own) and the multipart boundary.
    func testCurlFlagSetsSendCurlsBytes() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let dir = try makeTemporaryDirectory("curlflags")
        let file = dir.appendingPathComponent("d.txt").path
        try "line1\r\nline2\n&x=1".write(toFile: file, atomically: true, encoding: .utf8)
        let headers = dir.appendingPathComponent("h.txt").path
        try "X-From-File: 1\r\nX-Second:  two words\n\nX-Third;\n".write(toFile: headers, atomically: true, encoding: .utf8)
        let big = dir.appendingPathComponent("big.bin").path
        try Data(repeating: 0x61, count: (1 << 20) + 1).write(to: URL(fileURLWithPath: big))
        let chunks = dir.appendingPathComponent("chunks.bin").path
        try Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: chunks))
        let cases: [[String]] = [
            ["-d", "a=1", "-d", "b=2"], ["-d", ""], ["-X", "POST"], ["-X", "POST", "-H", "Content-Length: 0"], ["-d", "a=1", "-X", "GET"],
            ["--data", "@\(file)"], ["--data-binary", "@\(file)"], ["--data-raw", "@not-a-file"], ["--data-ascii", "x=y"],
            ["--data-urlencode", "q=a b&c", "--data-urlencode", "=x y*", "--data-urlencode", "plain ~", "--data-urlencode", "@\(file)", "--data-urlencode", "n@\(file)"],
            ["-G", "-d", "a=1", "-d", "b=2"], ["-G", "-d", "a=1", "-X", "POST"], ["-XPUT", "-d", "x"], ["-X", "DELETE"],
            ["-A", "agent/1.0", "-e", "http://ref.example/"], ["-A", ""], ["-e", "http://r/;auto"],
            ["-H", "X-One: 1", "-H", "X-Two:  2  ", "-H", "X-Tight:3", "-H", "X-Tab:\tt"],
            ["-H", "X-Dup: a", "-H", "X-Dup: b", "-H", "x-dup: c"],
            ["-H", "X-B: 2", "-H", "Accept: y", "-H", "User-Agent: x/1", "-H", "Host: other.example"],
            ["-H", "User-Agent:", "-H", "Accept:"], ["-H", "Host:"],
            ["-u", "user:pa ss"], ["-u", "u:p", "-H", "Authorization: Bearer t"], ["-Gd", "q=1"],
            ["-b", "a=1; b=2", "-H", "X-A: 1", "-e", "http://r/", "-u", "u:p"], ["-b", "a=1", "-b", "c=3"], ["-b", "a=1", "-H", "Cookie: c=2"],
            ["-H", "X-Empty;", "-H", "Accept:", "-H", "@\(headers)"], ["-s", "-S", "-f"],
            ["--compressed"], ["--compressed", "-H", "Accept-Encoding: br"], ["--compressed", "-A", "z", "-e", "r", "-b", "k=v"],
            // The same request from both (agent given), so the whole output compares: -I the
            // response's head, -i the head and the echoed request.
            ["-I", "-A", "a/1", "-H", "Accept: x/y"], ["-i", "-A", "a/1", "-H", "Accept: x/y"],
            ["--json", #"{"a": [1, "x"]}"#], ["--json", "@\(file)"], ["--json", "{}", "-H", "X-A: 1"], ["-H", "X-A: 1", "--json", "{}", "-H", "Accept: z"],
            ["-k"], ["--http1.1", "-L", "-m", "30", "--connect-timeout", "5", "--max-redirs", "3"],
            ["-H", "Transfer-Encoding: chunked", "-d", "abc"], ["-H", "Transfer-Encoding: chunked", "--data-binary", "@\(chunks)"],
            ["--data-binary", "@\(big)"], ["-H", "Expect:", "--data-binary", "@\(big)"],
            ["-F", "a=1", "-F", "b=two words;type=text/x-note", "-F", "up=@\(file)", "-F", "named=@\(file);filename=other.bin;type=application/x-thing",
             "-F", "text=<\(file)"],
            ["-F", "a=1", "-H", "X-After: 1"],
        ]
        let (server, port) = try Self.startEcho(requests: cases.count * 2 + 26)
        defer { server.terminate() }
        func normalized(_ bytes: [UInt8], agent: Bool) -> String {
            var text = String(decoding: bytes, as: UTF8.self)
            if !agent, let range = text.range(of: #"\r\nUser-Agent: [^\r]*"#, options: .regularExpression) {
                text.replaceSubrange(range, with: "\r\nUser-Agent: AGENT")
            }
            // Boundaries are random in both, of one shape: the lengths stay comparable.
            if let range = text.range(of: #"boundary=-{24}[0-9a-f]{16}"#, options: .regularExpression) {
                text = text.replacingOccurrences(of: String(text[range].dropFirst(9)), with: "BOUNDARY")
            }
            return text
        }
        for args in cases {
            let url = "http://127.0.0.1:\(port)/p?z=0"
            let theirs = try PekitProcess.output(of: "/usr/bin/curl", ["-s"] + args + [url])
            let ours = try PekitProcess.run(["request"] + args + ["--send", url])
            XCTAssertEqual(ours.status, 0, "\(args): \(ours.stderr)")
            let agent = args.contains("-A") || args.contains("User-Agent: x/1")
            XCTAssertEqual(normalized(ours.stdoutBytes, agent: agent), normalized(theirs, agent: agent), "\(args)")
            // What the preview shows is what went out.
            if !args.contains(where: { ["-I", "-i", "-s", "-k", "-L", "-F"].contains($0) }) && !args.contains("--http1.1") {
                let preview = try PekitProcess.run(["request"] + args + [url])
                XCTAssertEqual(preview.stdoutBytes, ours.stdoutBytes, "\(args): preview")
            }
        }
        // --connect-to and --resolve: a name in the URL, the echo server's address on the wire.
        for args in [["--connect-to", "origin.example:80:127.0.0.1:\(port)"], ["--resolve", "origin.example:\(port):127.0.0.1"]] {
            let url = args[0] == "--resolve" ? "http://origin.example:\(port)/p" : "http://origin.example/p"
            let theirs = try PekitProcess.output(of: "/usr/bin/curl", ["-s"] + args + [url])
            let ours = try PekitProcess.run(["request"] + args + ["--send", url])
            XCTAssertEqual(ours.status, 0, "\(args): \(ours.stderr)")
            XCTAssertEqual(normalized(ours.stdoutBytes, agent: false), normalized(theirs, agent: false), "\(args)")
            XCTAssertTrue(String(decoding: theirs, as: UTF8.self).contains("\r\nHost: origin.example"), "\(args)")
        }
        // -x: the echo server is the proxy; what reaches it (the absolute-form request line, the
        // proxy's own headers, Proxy-Authorization) is compared.
        for args in [["-x", "http://127.0.0.1:\(port)"], ["-x", "http://pu:pp@127.0.0.1:\(port)", "-d", "a=1"]] {
            let url = "http://origin.example:8080/p?z=0"
            let theirs = try PekitProcess.output(of: "/usr/bin/curl", ["-s"] + args + [url])
            let ours = try PekitProcess.run(["request"] + args + ["--send", url])
            XCTAssertEqual(ours.status, 0, "\(args): \(ours.stderr)")
            XCTAssertEqual(normalized(ours.stdoutBytes, agent: false), normalized(theirs, agent: false), "\(args)")
            XCTAssertTrue(String(decoding: theirs, as: UTF8.self).hasPrefix("GET http://origin.example:8080/p?z=0 HTTP/1.1\r\n") || args.contains("-d"))
        }
        // URLs as curl reads its command line, not as a browser does (issue 69): dot segments
        // removed (kept with --path-as-is), one or three slashes after the scheme, the host's
        // case kept in Host, "{}\^|<>` sent as written, bytes past ASCII escaped in lower-case
        // hex in the path and sent raw in the query.
        let forms: [[String]] = [["http://127.0.0.1:\(port)/a%20b/汉?q=汉%20字"], ["http://127.0.0.1:\(port)/x/../y/./z/..?p=../q"],
                                 ["--path-as-is", "http://127.0.0.1:\(port)/x/../y/./z"], ["-g", "http://127.0.0.1:\(port)/{}\\^|\"<>`?{}\\^|\"<>`"],
                                 ["http://LocalHost:\(port)/Case"], ["http:/127.0.0.1:\(port)/one"], ["http:///127.0.0.1:\(port)/three"]]
        for args in forms {
            let theirs = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-4"] + args)
            XCTAssertFalse(theirs.isEmpty, "curl \(args)")
            let ours = try PekitProcess.run(["request", "-4"] + args + ["--send"])
            XCTAssertEqual(ours.status, 0, "\(args): \(ours.stderr)")
            XCTAssertEqual(normalized(ours.stdoutBytes, agent: false), normalized(theirs, agent: false), "\(args)")
        }
    }

    /// --cacert (with --resolve): the same bytes reach the TLS test server from pekit and curl,
    /// and without the CA both refuse the certificate.
    /// Issue 69: `-b FILE` where FILE does not exist yet was a fatal error; curl turns the cookie
    /// engine on (its tests 7, 31, 329, …), so the first login's `-b jar -c jar` works. Both
    /// write the session cookie, and both send it the next time.
    func testACookieFileNotThereYetTurnsTheCookieEngineOn() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-first-login")
        let set = "\(server.base)/cookies/set?sid=abc", read = "\(server.base)/cookies"
        _ = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-o", "/dev/null", "-b", "curl.jar", "-c", "curl.jar", set], directory: dir)
        let first = try PekitProcess.run(["request", "--send", "-s", "-o", "/dev/null", "-b", "pekit.jar", "-c", "pekit.jar", set], directory: dir)
        XCTAssertEqual(first.status, 0, first.stderr)
        for jar in ["curl.jar", "pekit.jar"] {
            let text = try String(contentsOf: dir.appendingPathComponent(jar), encoding: .utf8)
            XCTAssertTrue(text.contains("\tsid\tabc"), "\(jar): \(text)")
        }
        let theirs = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-b", "curl.jar", read], directory: dir), as: UTF8.self)
        let ours = try PekitProcess.run(["request", "--send", "-s", "-b", "pekit.jar", read], directory: dir)
        XCTAssertEqual(ours.stdout, theirs)
        XCTAssertTrue(theirs.contains("sid=abc"), theirs)
        // -b "" (curl's idiom for the engine alone) likewise.
        XCTAssertEqual(try PekitProcess.run(["request", "--send", "-s", "-o", "/dev/null", "-b", "", set], directory: dir).status, 0)
    }

    /// Issue 69: a blank `Location:` was followed to the same URL until the redirect limit; curl
    /// takes it for none and ends with the 3xx (its test 54). Held to curl on the same server.
    func testABlankLocationIsNotFollowed() throws {
        let server = try TestServer.shared()
        for blank in ["", " ", "\t "] {
            let reply = "HTTP/1.1 302 Found\r\nLocation:\(blank)\r\nContent-Length: 3\r\n\r\nabc"
            let args = ["-s", "-L", "-w", " %{http_code} %{num_redirects}", canned(reply, server)]
            let theirs = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", args), as: UTF8.self)
            let ours = try PekitProcess.run(["request", "--send"] + args)
            XCTAssertEqual(ours.status, 0, ours.stderr)
            XCTAssertEqual(ours.stdout, theirs, blank.debugDescription)
            XCTAssertEqual(theirs, "abc 302 0")
        }
    }

    /// Issue 69: a command-line URL with no scheme was refused; curl guesses `http://` (its tests
    /// 22, 45, 436, …). Sent as curl sends it, byte for byte, to the server's /raw.
    func testAURLWithNoSchemeIsGuessedAsCurlGuesses() throws {
        let server = try TestServer.shared()
        let port = try XCTUnwrap(URL(string: server.base)?.port)
        for url in ["127.0.0.1:\(port)/raw", "localhost:\(port)/raw?a=1&b=%20", "127.0.0.1:\(port)/raw#frag"] {
            let theirs = try PekitProcess.output(of: "/usr/bin/curl", ["-s", url])
            let ours = try PekitProcess.run(["import", "curl", "--send", "curl '\(url)'"])
            XCTAssertEqual(ours.status, 0, ours.stderr)
            XCTAssertEqual(ours.stdoutBytes, theirs, url)
            XCTAssertTrue(String(decoding: theirs, as: UTF8.self).hasPrefix("GET /raw"), url)
        }
        // A host with a port is not a scheme; --base keeps its own rule.
        XCTAssertTrue(try PekitProcess.run(["request", "example.com:80/a"]).stdout.hasPrefix("GET /a HTTP/1.1\r\nHost: example.com:80\r\n"))
        XCTAssertTrue(try PekitProcess.run(["request", "--base", "http://h/v1", "users"]).stdout.hasPrefix("GET /v1/users HTTP/1.1\r\n"))
    }

    /// Issue 69: `-H` lines that are neither `Name: value` nor `Name;` (`X-Test4;  `, no colon)
    /// were refused; curl 7.88 sends nothing for them (its tests 4, 1147), and a warning says so.
    /// `-w @FILE` printed the file's name; curl reads the format from the file (test 1271).
    func testHeaderLinesAndWriteOutFilesAsCurlReadsThem() throws {
        let server = try TestServer.shared()
        let headers = ["-H", "X-Test4;  ", "-H", "NoColon", "-H", "X-Semi;", "-H", "X-A;b", "-H", "X-B: 1"]
        let theirs = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "\(server.base)/raw"] + headers)
        let command = (["curl", "-s", "\(server.base)/raw"] + headers).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let ours = try PekitProcess.run(["import", "curl", "--send", command])
        XCTAssertEqual(ours.status, 0, ours.stderr)
        XCTAssertEqual(ours.stdoutBytes, theirs)
        XCTAssertTrue(String(decoding: theirs, as: UTF8.self).hasSuffix("X-Semi:\r\nX-B: 1\r\n\r\n"))
        XCTAssertEqual(ours.stderr, """
            pekit request: warning: -H 'X-Test4;  ' is neither 'Name: value' nor 'Name;': not sent (curl sends nothing for it)
            pekit request: warning: -H 'NoColon' is neither 'Name: value' nor 'Name;': not sent (curl sends nothing for it)
            pekit request: warning: -H 'X-A;b' is neither 'Name: value' nor 'Name;': not sent (curl sends nothing for it)

            """)
        let dir = try makeTemporaryDirectory("pekit-write-out-file")
        try Data().write(to: dir.appendingPathComponent("empty"))
        try Data("%{http_code} %{method}\\n".utf8).write(to: dir.appendingPathComponent("format"))
        for file in ["empty", "format"] {
            let args = ["-s", "-o", "/dev/null", "-w", "@" + file, "\(server.base)/echo"]
            let curl = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", args, directory: dir), as: UTF8.self)
            XCTAssertEqual(try PekitProcess.run(["request", "--send"] + args, directory: dir).stdout, curl, file)
        }
        XCTAssertEqual(try PekitProcess.run(["request", "--send", "-s", "-o", "/dev/null", "-w", "@format", "\(server.base)/echo"], directory: dir).stdout, "200 GET\n")
        XCTAssertEqual(try PekitProcess.run(["request", "--send", "-w", "@missing", "\(server.base)/echo"], directory: dir).stderr, "pekit request: -w @missing: cannot read the file\n")
    }

    /// Issue 69: `--retry 1000` was refused (a count from 0 to 100); curl takes it (tests 197,
    /// 198): a retry count bounds tries, and each wait is capped anyway.
    func testARetryCountAsCurlTakesIt() throws {
        let server = try TestServer.shared()
        let args = ["-s", "--retry", "1000", "-w", " %{http_code}", "\(server.base)/status/200"]
        let theirs = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", args), as: UTF8.self)
        let ours = try PekitProcess.run(["request", "--send"] + args)
        XCTAssertEqual(ours.status, 0, ours.stderr)
        XCTAssertEqual(ours.stdout, theirs)
        XCTAssertEqual(try PekitProcess.run(["request", "--retry", "-1", "http://h/"]).stderr, "pekit request: --retry takes a whole number from 0, not '-1' (see 'pekit request --help')\n")
    }

    /// Issue 69: --max-filesize with a Content-Length past the limit, or past what 64 bits hold,
    /// read the body and exited 0; curl stops at the head with its exit status 63 (test 393).
    /// Every failed transfer now exits with curl's code. Held to curl on the same replies.
    func testMaxFilesizeJudgesTheAnnouncedLengthAsCurlDoes() throws {
        let server = try TestServer.shared()
        for length in ["36893488147419103232", "5000", "3"] {
            let reply = "HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\nabc"
            let args = ["-s", "--max-filesize", "1000", canned(reply, server)]
            let theirs = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), args)
            let ours = try PekitProcess.run(["request", "--send"] + args)
            XCTAssertEqual(ours.status, theirs.status, length)
            XCTAssertEqual(ours.stdoutBytes, theirs.stdoutBytes, length)
        }
    }

    /// Issue 69: curl's --raw in a pasted command was taken for pekit's preview flag; it is
    /// curl's "no decoding" (--raw-transfer): the chunks and codings as they came.
    func testCurlsRawKeepsTheTransferAsItCame() throws {
        let server = try TestServer.shared()
        let chunked = canned("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n5\r\nhello\r\n0\r\n\r\n", server)
        let gzipped = canned("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabc", server)
        for url in [chunked, gzipped] {
            let theirs = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--raw", "--compressed", url])
            let ours = try PekitProcess.run(["import", "curl", "--send", "curl -s --raw --compressed '\(url)'"])
            XCTAssertEqual(ours.status, theirs.status, ours.stderr)
            XCTAssertEqual(ours.stdoutBytes, theirs.stdoutBytes, url)
        }
        XCTAssertEqual(try PekitProcess.run(["request", "--raw-transfer", "--send", chunked]).stdout, "5\r\nhello\r\n0\r\n\r\n")
    }

    /// Issue 69: under -s pekit still wrote its error line; curl -s says nothing of a failed
    /// transfer (the exit status does), -sS says it, and usage errors show either way.
    func testSilentLeavesATransfersFailureToTheExitStatus() throws {
        let url = "http://127.0.0.1:9/closed"
        for flags in [["-s"], ["-sS"], ["-s", "-S"]] {
            let theirs = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), flags + [url])
            let ours = try PekitProcess.run(["request", "--send"] + flags + [url])
            XCTAssertEqual(ours.status, theirs.status, "\(flags)")
            XCTAssertEqual(ours.stderr.isEmpty, theirs.stderr.isEmpty, "\(flags): \(ours.stderr)")
            XCTAssertEqual(ours.status, 7)
        }
        let usage = try PekitProcess.run(["request", "-s", "--retry", "x", url])
        XCTAssertEqual(usage.stderr, "pekit request: --retry takes a whole number from 0, not 'x' (see 'pekit request --help')\n")
    }

    /// Issue 69: a followed 3xx whose body ends only at the close, on a connection the server
    /// keeps open, was read until the timeout; curl ignores that body and follows at once
    /// (its tests 43, 187, 1104). With -m 5, waiting would be curl error 28 here.
    func testAFollowedRedirectWithNoLengthIsFollowedAtOnce() throws {
        let server = try TestServer.shared()
        let reply = "HTTP/1.1 302 Found\r\nLocation: /status/200\r\n\r\nsome body"
        let args = ["-s", "-L", "-m", "5", "-w", " %{http_code} %{num_redirects}", canned(reply, server) + "&close=0"]
        let theirs = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", args), as: UTF8.self)
        let ours = try PekitProcess.run(["import", "curl", "--send", (["curl"] + args).map { "'" + $0 + "'" }.joined(separator: " ")])
        XCTAssertEqual(ours.status, 0, ours.stderr)
        XCTAssertEqual(ours.stdout, theirs)
        XCTAssertTrue(theirs.hasSuffix(" 200 1"), theirs)
    }

    /// Issue 69: `-D FILE` that cannot be created still sent the request, then failed on a
    /// lock file. curl's test 419 wants no transfer and exit 23 ("Failed to open", curl's
    /// tool_operate.c since 7.88's successors; 7.88 itself crashes here, a bug newer curl fixed).
    func testADumpHeaderFileThatCannotBeCreatedSendsNothing() throws {
        let server = try TestServer.shared()
        let key = "d419-\(UInt32.random(in: 0...UInt32.max))"
        let r = try PekitProcess.run(["request", "--send", "-s", "-D", "/nonexistent/dir/h.txt", "\(server.base)/inflight/\(key)"])
        XCTAssertEqual(r.status, 23)
        XCTAssertEqual(r.stderr, "pekit request: -D /nonexistent/dir/h.txt: cannot create the file (its directory does not exist); nothing was sent\n")
        XCTAssertEqual(r.stdout, "")
        let stats = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", ["-s", "\(server.base)/inflight/\(key)/stats"]), as: UTF8.self)
        XCTAssertEqual(stats, #"{"count": 0, "max": 0}"#)
    }

    /// Issue 69: what a Location holds that a URL cannot is encoded as curl's URL API encodes it:
    /// a space in the query as '+' (curl test 40), one before it as %20, UTF-8 in lower-case hex,
    /// escapes already there (`%d8`) as written (test 1138). The request line, byte for byte.
    func testARedirectsLocationIsEncodedAsCurlEncodesIt() throws {
        let server = try TestServer.shared()
        for location in ["/raw/a b?q=c d&e=f g#h i", "/raw/\u{fc}%d8?x=\u{fc} %d8", "/raw/x?a+b=c d+e", "raw/rel ative?n=1 2"] {
            let reply = "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n"
            let url = canned(reply, server)
            let theirs = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-L", url]), as: UTF8.self)
            let ours = try PekitProcess.run(["import", "curl", "--send", "curl -s -L '\(url)'"])
            XCTAssertEqual(ours.status, 0, ours.stderr)
            XCTAssertEqual(ours.stdout.prefix { $0 != "\r" }, theirs.prefix { $0 != "\r" }, location)
        }
    }

    func testCACertSendsWhatCurlSends() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let server = try TestServer.shared()
        let name = "api.example.test:\(server.httpsPort)"
        let args = ["--resolve", "\(name):127.0.0.1", "--cacert", server.cacert, "-H", "X-Check: 1", "https://\(name)/raw"]
        func fields(_ bytes: [UInt8]) -> [String] {
            let head = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
            return [head[0]] + head.dropFirst().filter { !["user-agent", "accept", "accept-language"].contains($0.split(separator: ":").first?.lowercased() ?? "") }.sorted()
        }
        let theirs = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "--http1.1"] + args)
        let ours = try PekitProcess.run(["request", "--http1.1"] + args)
        XCTAssertEqual(ours.status, 0, ours.stderr)
        XCTAssertEqual(fields(ours.stdoutBytes), fields(theirs))
        XCTAssertEqual(fields(theirs).first, "GET /raw HTTP/1.1")
        let refused = try PekitProcess.run(["request", "--send", "--resolve", "\(name):127.0.0.1", "https://\(name)/raw"])
        XCTAssertEqual(refused.status, 60, "curl's exit status for an untrusted certificate")
        XCTAssertTrue(refused.stderr.contains("(curl error 60)"), refused.stderr)
    }

    /// --param keys nest as a Lua table's would, so each policy writes its own brackets.
    func testNestedParamsFollowThePolicy() throws {
        func line(_ args: [String]) throws -> String {
            String(try PekitProcess.run(["request"] + args + ["http://h/"]).stdout.split(separator: "\r\n").first ?? "")
        }
        let nested = ["--param", "u[name]=x", "--param", "tags[]=a", "--param", "tags[]=b"]
        XCTAssertEqual(try line(["--policy", "rack"] + nested), "GET /?u[name]=x&tags[]=a&tags[]=b HTTP/1.1")
        XCTAssertEqual(try line(["--policy", "php"] + nested), "GET /?u%5Bname%5D=x&tags%5B0%5D=a&tags%5B1%5D=b HTTP/1.1")
        XCTAssertEqual(try line(["--policy", "qs", "--param-json", #"u={"n":[1,2],"ok":true}"#]), "GET /?u%5Bn%5D%5B0%5D=1&u%5Bn%5D%5B1%5D=2&u%5Bok%5D=true HTTP/1.1")
        XCTAssertEqual(try line(["--param", "a=1", "--param", "a=2"]), "GET /?a%5B%5D=1&a%5B%5D=2 HTTP/1.1", "a key given twice is a list")
        XCTAssertEqual(try line(["--policy", "qs-repeat", "--param", "a=1", "--param", "a=2"]), "GET /?a=1&a=2 HTTP/1.1", "a list under repeats")
        let bad = try PekitProcess.run(["request", "--param", "u[x]=1", "--param", "u=2", "http://h/"])
        XCTAssertEqual(bad.stderr, "pekit request: --param 'u=2': the key already holds a table (see 'pekit request --help')\n")
    }

    /// Options that only sending has send (as the same curl command would); with --raw,
    /// --curl or --describe they are an error, never silently ignored. Short flags bundle.
    func testSendOptionsAndBundledFlags() throws {
        let conflict = try PekitProcess.run(["request", "--raw", "-i", "http://h/"])
        XCTAssertEqual(conflict.stderr, "pekit request: --include is for sending, and --raw only shows it: leave one out (see 'pekit request --help')\n".replacingOccurrences(of: "only shows it", with: "only shows the request"))
        XCTAssertEqual(conflict.status, 2)
        let bundled = try PekitProcess.run(["request", "-XPOST", "-H'X: 1'".replacingOccurrences(of: "'", with: ""), "-uann:pw", "http://h/"])
        XCTAssertTrue(bundled.stdout.hasPrefix("POST / HTTP/1.1\r\n"), bundled.stdout)
        XCTAssertTrue(bundled.stdout.contains("\r\nX: 1\r\n") && bundled.stdout.contains("Authorization: Basic YW5uOnB3"), bundled.stdout)
        let unknown = try PekitProcess.run(["request", "-iQ", "http://h/"])
        XCTAssertEqual(unknown.stderr, "pekit request: unknown option '-Q' (in '-iQ') (see 'pekit request --help')\n")
    }

    /// The preview is the wire form of the URL as curl reads it: the host in its IDNA form, the
    /// path's bytes past ASCII escaped and the query's sent raw, Basic credentials from the URL.
    func testPreviewOfAnInternationalURL() throws {
        let raw = try PekitProcess.run(["request", "-H", "Accept-Language: en", "HTTP://u:p%C3%A4@WWW.例子.中国:8080/a b/汉?q=汉 字#top"])
        XCTAssertEqual(raw.stdout, "GET /a%20b/%e6%b1%89?q=汉%20字 HTTP/1.1\r\nHost: www.xn--fsqu00a.xn--fiqs8s:8080\r\nAuthorization: Basic dTpww6Q=\r\nUser-Agent: pekit/0.1.0 (Linux; x86_64)\r\nAccept: */*\r\nAccept-Language: en\r\n\r\n")
        let curl = try PekitProcess.run(["request", "--curl", "-H", "Accept-Language: en", "--request-target", "*", "-X", "OPTIONS", "http://[2001:DB8:0::1]:81/"])
        XCTAssertEqual(curl.stdout, "curl --http1.1 --request OPTIONS --request-target '*' 'http://[2001:db8::1]:81/' -H 'Host: [2001:db8::1]:81' -H 'User-Agent: pekit/0.1.0 (Linux; x86_64)' -H 'Accept: */*' -H 'Accept-Language: en'\n")
        let bad = try PekitProcess.run(["request", "--request-target", "/a\rb", "http://h/"])
        XCTAssertEqual(bad.stderr, "pekit request: the request target holds CR at byte 3: it would end the request line\n")
        XCTAssertEqual(bad.status, 1)
        let idna = try PekitProcess.run(["request", "http://a\u{200D}b.com/"])
        XCTAssertEqual(idna.stderr, "pekit request: invalid URL \"http://a\\xE2\\x80\\x8Db.com/\": the host \"a\u{200D}b.com\" is not a valid domain: the label \"a\u{200D}b\" has a zero-width joiner or non-joiner where the CONTEXTJ rule (RFC 5892) forbids it\n")
    }

    /// pekit sends no Accept-Language (curl sends none); AFNetworking's policy carries its own,
    /// from the locale, as documented in --help and docs/getting-started.md, and one -H fixes it.
    func testAcceptLanguageFollowsTheLocaleAndOneHeaderFixesIt() throws {
        let plain = try PekitProcess.run(["request", "http://h/"], environment: ["LANG": "en_US.UTF-8", "LANGUAGE": ""])
        XCTAssertEqual(plain.stdout, "GET / HTTP/1.1\r\nHost: h\r\nUser-Agent: pekit/0.1.0 (Linux; x86_64)\r\nAccept: */*\r\n\r\n")
        let us = try PekitProcess.run(["request", "--policy", "afnetworking", "http://h/"], environment: ["LANG": "en_US.UTF-8", "LANGUAGE": ""])
        XCTAssertTrue(us.stdout.contains("\r\nAccept: */*\r\nAccept-Language: en-US;q=1\r\n"), us.stdout)
        let c = try PekitProcess.run(["request", "--policy", "afnetworking", "http://h/"], environment: ["LANG": "C", "LANGUAGE": ""])
        XCTAssertTrue(c.stdout.contains("\r\nAccept-Language: en;q=1\r\n"), c.stdout)
        let alamofire = try PekitProcess.run(["request", "--policy", "alamofire", "http://h/"], environment: ["LANGUAGE": "fr_FR:en"])
        XCTAssertTrue(alamofire.stdout.contains("\r\nAccept-Encoding: br;q=1.0, gzip;q=0.9, deflate;q=0.8\r\nAccept-Language: fr-FR;q=1.0, en;q=0.9\r\n"), alamofire.stdout)
        let fixed = try PekitProcess.run(["request", "--policy", "afnetworking", "-H", "Accept-Language: en", "http://h/"], environment: ["LANG": "de_DE.UTF-8", "LANGUAGE": ""])
        XCTAssertTrue(fixed.stdout.contains("\r\nAccept-Language: en\r\n"), fixed.stdout)
        XCTAssertTrue(try PekitProcess.run(["request", "--help"]).stdout.contains("-H 'Accept-Language: en' fixes it in any locale"))
    }

    /// curl's URL globbing: backslashes before brackets and braces go (as curl's globber takes
    /// them), a glob is several URLs in curl's order, one curl cannot read fails as in curl, -g
    /// sends the URL as written.
    func testURLGlobbing() throws {
        func line(_ args: [String]) throws -> String {
            let r = try PekitProcess.run(["request"] + args)
            return r.status == 0 ? r.stdout.components(separatedBy: "\r\n")[0] : r.stderr
        }
        XCTAssertEqual(try line(["http://h/s?filter\\[status\\]=open&t\\[\\]=1&c=\\{x\\}"]), "GET /s?filter[status]=open&t[]=1&c={x} HTTP/1.1")
        XCTAssertEqual(try line(["-g", "http://h/s?filter\\[status\\]=open"]), "GET /s?filter\\[status\\]=open HTTP/1.1")
        // What curl's globbing cannot read fails as in curl (exit 3); -g sends it.
        let bad = try PekitProcess.run(["request", "http://h/s?tags[]=a&u[name]=x"])
        XCTAssertEqual(bad.stderr, "pekit request: a bad range specification in the URL at character 22, as curl's globbing reads it: -g/--globoff sends brackets and braces as written (\\[ and \\{ write one)\n")
        XCTAssertEqual(bad.status, 3)
        XCTAssertEqual(try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "http://127.0.0.1:9/s?tags[]=a&u[name]=x"]).status, 3, "curl's own")
        XCTAssertEqual(try line(["http://h/s?tags[]=a"]), "GET /s?tags[]=a HTTP/1.1")
        XCTAssertEqual(try line(["-g", "http://h/s?tags[]=a&u[name]=x"]), "GET /s?tags[]=a&u[name]=x HTTP/1.1")
        XCTAssertEqual(try PekitProcess.run(["request", "http://h/a}"]).status, 3)
        XCTAssertEqual(try line(["http://[::1]:8080/x"]), "GET /x HTTP/1.1")
        // A glob is several URLs, in curl's order, each -o name's #N its values (curl is the peer).
        let server = try TestServer.shared()
        let glob = "\(server.base)/echo/p[08-10:2]/{a,b}[x-y]"
        func targets(_ out: String) -> [String] {
            out.components(separatedBy: "\"target\": \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
        let ours = try PekitProcess.run(["request", "--send", glob])
        let curls = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", glob])
        XCTAssertEqual(targets(ours.stdout), targets(curls.stdout))
        XCTAssertEqual(targets(ours.stdout), ["/echo/p08/ax", "/echo/p08/ay", "/echo/p08/bx", "/echo/p08/by", "/echo/p10/ax", "/echo/p10/ay", "/echo/p10/bx", "/echo/p10/by"])
        let dir = try makeTemporaryDirectory("pekit-glob")
        let named = try PekitProcess.run(["request", "--send", "\(server.base)/echo/{a,b}/[1-2]", "-o", dir.path + "/out_#2_#1_#3"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["out_1_a_#3", "out_1_b_#3", "out_2_a_#3", "out_2_b_#3"])
        XCTAssertEqual(try line(["http://h/{a,b}"]), "pekit request: several URLs are for sending (--send, or a sending option): --raw, --curl and --describe show one request (see 'pekit request --help')\n")
        XCTAssertEqual(try line(["-g", "http://h/p[1-10:2]"]), "GET /p[1-10:2] HTTP/1.1")
    }

    func testErrors() throws {
        let injection = try PekitProcess.run(["request", "--header", "X-A: 1\r\nEvil: 2", "http://h/"])
        XCTAssertEqual(injection.stderr, "pekit request: header X-A: the value contains CR at byte 2 (header injection is refused)\n")
        XCTAssertEqual(injection.status, 1)
        let method = try PekitProcess.run(["request", "-X", "GET /x", "http://h/"])
        XCTAssertEqual(method.stderr, "pekit request: method \"GET /x\" is not an HTTP token\n")
        let missing = try PekitProcess.run(["request", "--file", "f=@/nonexistent/file", "http://h/"])
        XCTAssertEqual(missing.stderr, "pekit request: /nonexistent/file: No such file or directory\n")
        let usage = try PekitProcess.run(["request", "--param", "novalue", "http://h/"])
        XCTAssertEqual(usage.stderr, "pekit request: --param takes key=value, not 'novalue' (see 'pekit request --help')\n")
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(try PekitProcess.run(["request"]).stderr, "pekit request: give a URL (see 'pekit request --help')\n")
    }

    /// Issue 71: `--param-json` takes a whole JSON object (each member a parameter), and an item
    /// that does not read is named under the option it came with.
    func testParamJSONTakesAnObjectAndNamesItself() throws {
        let object = try PekitProcess.run("request", "--param-json", #"{"a":{"b":1},"n":2}"#, "--param", "c=3", "http://h.example/")
        // The members join the other parameters, which the default policy sorts by key.
        XCTAssertEqual(object.stdout.components(separatedBy: "\r\n").first, "GET /?a%5Bb%5D=1&c=3&n=2 HTTP/1.1", object.stderr)
        let word = try PekitProcess.run("request", "--param-json", "nope", "http://h.example/")
        XCTAssertEqual(word.stderr, "pekit request: --param-json takes key=JSON or a JSON object, not 'nope' (see 'pekit request --help')\n")
        XCTAssertEqual(word.status, 2)
        let list = try PekitProcess.run("request", "--param-json", "[1]", "http://h.example/")
        XCTAssertEqual(list.stderr, "pekit request: --param-json takes key=JSON or a JSON object, not '[1]' (see 'pekit request --help')\n")
        let bad = try PekitProcess.run("request", "--param-json", #"{"a":}"#, "http://h.example/")
        XCTAssertTrue(bad.stderr.hasPrefix(#"pekit request: --param-json takes key=JSON or a JSON object, and '{"a":}' is neither: "#), bad.stderr)
        let value = try PekitProcess.run("request", "--param-json", "n=x", "http://h.example/")
        XCTAssertTrue(value.stderr.hasPrefix("pekit request: --param-json 'n=x': the value is not JSON"), value.stderr)
        let plain = try PekitProcess.run("request", "--param", "x", "http://h.example/")
        XCTAssertEqual(plain.stderr, "pekit request: --param takes key=value, not 'x' (see 'pekit request --help')\n")
    }
}
