import Foundation
import PekitTestSupport
import XCTest

/// `pekit import curl` on the shapes tools copy (Fixtures/curl-commands, described in its
/// README): the copied command run with curl and the imported script's `req:curl()` run with
/// curl put the same request on the wire.
final class ImportCommandTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/curl-commands")

    func testEveryFixtureRoundTrips() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".txt") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 30)
        let (server, port) = try RequestCommandTests.startEcho(requests: files.count * 3)
        defer { server.terminate() }
        func run(_ executable: String, _ args: [String]) throws -> [UInt8] { try PekitProcess.output(of: executable, args) }
        // Multipart boundaries are random in each (of one length): the only thing told apart.
        func normalized(_ bytes: [UInt8]) -> String {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let range = text.range(of: #"boundary=-{24}[0-9a-f]{16}"#, options: .regularExpression) else { return text }
            return text.replacingOccurrences(of: String(text[range].dropFirst(9)), with: "BOUNDARY")
        }
        for file in files {
            let text = try String(contentsOf: Self.fixtures.appendingPathComponent(file), encoding: .utf8)
                .replacingOccurrences(of: "https://api.example.com", with: "http://127.0.0.1:\(port)")
            // The words as the shell hands them to curl: POSIX ones checked against bash itself.
            let split = try PekitProcess.run(["import", "curl", "--words", "-"], stdin: Array(text.utf8))
            XCTAssertEqual(split.status, 0, "\(file): \(split.stderr)")
            let words = split.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
            if !file.contains("cmd") && !file.contains("powershell") {
                let bash = try run("/bin/bash", ["-c", "f() { printf '%s\\0' curl \"$@\"; }; " + text.replacingOccurrences(of: "curl ", with: "f ", options: [], range: text.range(of: "curl "))])
                XCTAssertEqual(words, String(decoding: bash, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init), "\(file): words")
            }
            // What curl sends, what `--send` sends and what the printed script sends: the same bytes.
            // POSIX commands are run by bash itself (their words may hold bytes that are not UTF-8).
            let posix = !file.contains("cmd") && !file.contains("powershell")
            let original = posix ? try run("/bin/bash", ["-c", text.replacingOccurrences(of: "curl ", with: "curl -s ", options: [], range: text.range(of: "curl "))])
                                 : try run("/usr/bin/curl", ["-s"] + words.dropFirst())
            let sent = try PekitProcess.run(["import", "curl", "--send", "-"], stdin: Array(text.utf8))
            XCTAssertEqual(sent.status, 0, "\(file): \(sent.stderr)")
            XCTAssertEqual(normalized(sent.stdoutBytes), normalized(original), "\(file): --send")
            let imported = try PekitProcess.run(["import", "curl", "-"], stdin: Array(text.utf8))
            XCTAssertEqual(imported.status, 0, "\(file): \(imported.stderr)")
            // curl's -b cookies go into a jar, which writes the same field back in the same place.
            if ["chrome-cookie.txt", "insomnia-get.txt"].contains(file) {
                XCTAssertTrue(imported.stdout.contains("local jar = pekit.cookies.jar()\njar:receive(\"http://127.0.0.1:\(port)/\", {\n"), "\(file): \(imported.stdout)")
                XCTAssertTrue(imported.stdout.contains("\n  jar = jar,\n"), file)
            }
            let script = try PekitProcess.run(["run", "-"], stdin: Array(imported.stdout.utf8))
            XCTAssertEqual(script.status, 0, "\(file): \(script.stderr)")
            XCTAssertEqual(normalized(script.stdoutBytes), normalized(original), "\(file): the script\n\(imported.stdout)")
        }
    }

    /// Issue 73: curl's -T uploads as curl 7.88 does (PUT, no Content-Type, Expect:
    /// 100-continue, the file's name after a URL ending in /, standard input chunked): bash
    /// running curl, `--send` and the printed script put the same bytes on the wire; -T beside
    /// -d is refused as curl refuses it (exit 2).
    func testUploadFileIsCurls() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let dir = try makeTemporaryDirectory("upload-file")
        try "hello\r\nworld".write(toFile: dir.appendingPathComponent("a b.txt").path, atomically: true, encoding: .utf8)
        let forms = [
            "curl -T 'a b.txt' URL/dir/",
            "curl -T 'a b.txt' URL",
            "curl --upload-file 'a b.txt' -X POST -H 'Content-Type: text/plain' URL/up/",
            "printf 'xyz' | curl -T - URL/stdin",
        ]
        let (server, port) = try RequestCommandTests.startEcho(requests: forms.count * 3)
        defer { server.terminate() }
        for form in forms {
            let command = form.replacingOccurrences(of: "URL", with: "http://127.0.0.1:\(port)")
            let bash = try PekitProcess.run(program: URL(fileURLWithPath: "/bin/bash"), ["-c", command.replacingOccurrences(of: "curl ", with: "curl -s ")], directory: dir)
            XCTAssertEqual(bash.status, 0, "\(form): \(bash.stderr)")
            XCTAssertTrue(bash.stdout.contains("Expect: 100-continue"), "\(form): \(bash.stdout)")
            let sent = try PekitProcess.run(["import", "curl", "--send", command], directory: dir)
            XCTAssertEqual(sent.stdout, bash.stdout, "\(form): --send")
            let script = try PekitProcess.run(["import", "curl", command], directory: dir)
            XCTAssertEqual(script.status, 0, "\(form): \(script.stderr)")
            XCTAssertTrue(script.stdout.contains("  upload = true,\n"), script.stdout)
            let ran = try PekitProcess.run(["run", "-"], stdin: Array(script.stdout.utf8), directory: dir)
            XCTAssertEqual(ran.stdout, bash.stdout, "\(form): the script\n\(script.stdout)")
        }
        let both = try PekitProcess.run(["import", "curl", "--send", "curl -T 'a b.txt' -d x http://127.0.0.1:\(port)/"], directory: dir)
        XCTAssertEqual(both.status, 2)
        XCTAssertEqual(both.stderr, "pekit request: You can only select one HTTP request method! You asked for both PUT (-T, --upload-file) and POST (-d), as curl says (see 'pekit request --help')\n")
    }

    /// Issue 69: a pasted command is a shell command. Its variables, `<`, here-documents,
    /// here-strings and `echo`/`printf`/`cat` pipelines are read as bash reads them: bash
    /// running curl, `--send` and the printed script (which reads the variables when it runs)
    /// put the same bytes on the wire. What would run a program is refused by name.
    func testTheShellAroundAPastedCommand() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let dir = try makeTemporaryDirectory("shell-forms")
        let input = dir.appendingPathComponent("in.txt").path
        try "from a file\r\nsecond line\n".write(toFile: input, atomically: true, encoding: .utf8)
        let environment = ["TOKEN": "s3cr3t value", "PEKIT_EMPTY": "", "WORDS": "a=1 -H X-Extra:2"]
        let forms = [
            #"curl -H "Authorization: Bearer $TOKEN" -d $WORDS URL/v/$PEKIT_EMPTY"#,
            #"curl -d "name=${PEKIT_UNSET:-anon}&t=${TOKEN}" URL/form"#,
            "curl --data-binary @- URL/file < \(input)",
            "curl -d @- URL/heredoc <<EOF\nline one $TOKEN\n  two\nEOF",
            "curl --data-binary @- URL/quoted <<'END'\n$TOKEN stays\nEND",
            "curl --data-binary @- URL/tabs <<-EOF\n\t\tindented $TOKEN\n\tEOF",
            #"curl --json @- URL/herestring <<< "{\"t\": \"$TOKEN\"}""#,
            #"echo '{"a": 1}' | curl --json @- URL/echo"#,
            #"printf 'a=%s&b=%s' 1 "$TOKEN" | curl -d @- URL/printf"#,
            "cat \(input) | curl --data-binary @- URL/cat",
            // The byte escapes: printf's format \NNN (what req:curl() writes for a body that is
            // not text) and \xHH; echo -e's and %b's \0NNN.
            #"printf 'a\101\0\x42\x4=\0101\1234\012' | curl --data-binary @- URL/octal"#,
            #"echo -e 'x\0101\x43\0\101\01234' | curl --data-binary @- URL/echo-e"#,
            #"printf '%b|\103' 'y\0102\101\01234\1234' | curl --data-binary @- URL/percent-b"#,
        ]
        let (server, port) = try RequestCommandTests.startEcho(requests: forms.count * 3)
        defer { server.terminate() }
        for form in forms {
            let command = form.replacingOccurrences(of: "URL", with: "http://127.0.0.1:\(port)")
            let bash = try PekitProcess.run(program: URL(fileURLWithPath: "/bin/bash"), ["-c", command.replacingOccurrences(of: "curl ", with: "curl -s ")],
                                            directory: dir, environment: environment)
            XCTAssertEqual(bash.status, 0, "\(form): \(bash.stderr)")
            let sent = try PekitProcess.run(["import", "curl", "--send", command], directory: dir, environment: environment)
            XCTAssertEqual(sent.status, 0, "\(form): \(sent.stderr)")
            XCTAssertEqual(sent.stdout, bash.stdout, "\(form): --send")
            let script = try PekitProcess.run(["import", "curl", command], directory: dir, environment: environment)
            if form.contains("$WORDS") {
                XCTAssertEqual(script.stderr, "pekit import: $WORDS is unquoted and bash splits its value into several words: the script cannot read it when it runs; quote it (\"$WORDS\"), or send with --send\n")
                continue
            }
            XCTAssertEqual(script.status, 0, "\(form): \(script.stderr)")
            XCTAssertFalse(script.stdout.contains("s3cr3t"), "\(form): the script reads the variable, never holds its value")
            let ran = try PekitProcess.run(["run", "-"], stdin: Array(script.stdout.utf8), directory: dir, environment: environment)
            XCTAssertEqual(ran.stdout, bash.stdout, "\(form): the script\n\(script.stdout)")
        }
        let refusals = [
            ("curl -H \"X: $(whoami)\" http://h/", "pekit import: the command substitution $(…) at character 13: pekit runs no command; put its output in the command\n"),
            ("curl -H \"X: `id`\" http://h/", "pekit import: the command substitution `…` at character 13: pekit runs no command; put its output in the command\n"),
            ("curl http://h/ > out.json", "pekit import: '>' at character 16 redirects the output: pekit writes it with -o FILE\n"),
            ("curl http://h/ && rm -rf x", "pekit import: '&' at character 16 runs the command in the background or starts a second one: paste the one command\n"),
            ("base64 -d x | curl -d @- http://h/", "pekit import: the pipeline runs 'base64': pekit runs no program (echo, printf and cat feeding the command are read)\n"),
            ("curl -d @- http://h/ <<EOF\nno end", "pekit import: the here-document ended by EOF has no end\n"),
        ]
        for (command, message) in refusals {
            for send in [true, false] {
                let r = try PekitProcess.run(["import", "curl"] + (send ? ["--send"] : []) + [command])
                XCTAssertEqual(r.stderr, message, command)
                XCTAssertEqual(r.status, 1, command)
            }
        }
    }

    /// Issue 69: curl's config files, as curl 7.88 reads them: `-K FILE` in its place among the
    /// flags (`-K -` from what the shell feeds), and `.curlrc` from `$CURL_HOME` unless `-q`
    /// comes first. bash running curl, `--send` and the printed script send the same bytes.
    func testCurlsConfigFiles() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let dir = try makeTemporaryDirectory("curl-config")
        let (server, port) = try RequestCommandTests.startEcho(requests: 18)
        defer { server.terminate() }
        let base = "http://127.0.0.1:\(port)"
        try """
            # a comment, then every way of writing an option
            url = "\(base)/config"
            header = "X-A: 1"
            -H "X-B: two words"
            --header X-C:3
            data: "a=1\\tb\\\"c"
              user-agent "agent \\"q\\""
            referer = http://r/  # after the value
            /also a comment
            """.write(toFile: dir.appendingPathComponent("cfg").path, atomically: true, encoding: .utf8)
        let withoutURL = try String(contentsOfFile: dir.appendingPathComponent("cfg").path, encoding: .utf8).split(separator: "\n").dropFirst(2).joined(separator: "\n")
        try withoutURL.write(toFile: dir.appendingPathComponent("cfg2").path, atomically: true, encoding: .utf8)
        try "header = \"X-From-Rc: yes\"\n--next\n".write(toFile: dir.appendingPathComponent(".curlrc").path, atomically: true, encoding: .utf8)
        let environment = ["CURL_HOME": dir.path, "XDG_CONFIG_HOME": dir.appendingPathComponent("none").path]
        let forms = [
            "curl -q -K cfg",
            "curl -q \(base)/first -K cfg2",
            "curl \(base)/rc",
            "curl -q \(base)/no-rc",
            "curl -q -K - \(base)/stdin < cfg2",
        ]
        for form in forms {
            // (-s last: -q counts only first.)
            let bash = try PekitProcess.run(program: URL(fileURLWithPath: "/bin/bash"), ["-c", form + " -s"], directory: dir, environment: environment)
            XCTAssertEqual(bash.status, 0, "\(form): \(bash.stderr)")
            let sent = try PekitProcess.run(["import", "curl", "--send", form], directory: dir, environment: environment)
            XCTAssertEqual(sent.status, 0, "\(form): \(sent.stderr)")
            XCTAssertEqual(sent.stdout, bash.stdout, "\(form): --send")
            XCTAssertEqual(sent.stderr.contains("pekit import: read \(dir.path)/.curlrc, as curl reads it without -q first\n"), !form.hasPrefix("curl -q"), form)
            let script = try PekitProcess.run(["import", "curl", form], directory: dir, environment: environment)
            XCTAssertEqual(script.status, 0, "\(form): \(script.stderr)")
            let ran = try PekitProcess.run(["run", "-"], stdin: Array(script.stdout.utf8), directory: dir, environment: environment)
            XCTAssertEqual(ran.stdout, bash.stdout, "\(form): the script\n\(script.stdout)")
        }
        // A line past curl's 100 KiB: curl cannot read the file (exit 26), nor pekit.
        try ("header = \"X-Long: " + String(repeating: "x", count: 102_400) + "\"\n").write(toFile: dir.appendingPathComponent("long").path, atomically: true, encoding: .utf8)
        let long = try PekitProcess.run(["import", "curl", "--send", "curl -q -K long \(base)/long"], directory: dir, environment: environment)
        XCTAssertEqual(long.status, 26)
        XCTAssertEqual(long.stderr, "pekit import: -K: long:1: the line is longer than curl reads (100 KiB): curl cannot read the config file\n")
        let curlLong = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-q", "-K", "long", "\(base)/long"], directory: dir)
        XCTAssertEqual(curlLong.status, 26)
    }

    /// Issue 69: `-b FILE` in a pasted command. The printed script loads the file into a jar
    /// that keeps cookies as curl's engine does (`as_curl`: curl's order and caps), and sends
    /// what bash running curl and `--send` send; a file not there yet turns the engine on.
    func testCookieFilesInAPastedCommand() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let dir = try makeTemporaryDirectory("cookie-files")
        // curl sends longer paths first, then longer names; a #HttpOnly_ line is a cookie too.
        try """
            127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tabc123
            #HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\thttponly\tyes
            127.0.0.1\tFALSE\t/c/deeper\tFALSE\t0\td\t1
            127.0.0.1\tFALSE\t/c\tFALSE\t0\tid\t2
            other.example\tFALSE\t/\tFALSE\t0\tnot\tsent

            """.write(toFile: dir.appendingPathComponent("cookies.txt").path, atomically: true, encoding: .utf8)
        let (server, port) = try RequestCommandTests.startEcho(requests: 9)
        defer { server.terminate() }
        let forms = [
            "curl -b cookies.txt http://127.0.0.1:\(port)/c/deeper/x",
            "curl -b cookies.txt -b 'x=1; y=2' http://127.0.0.1:\(port)/c",
            "curl -b not-there.txt http://127.0.0.1:\(port)/none",
        ]
        for form in forms {
            let bash = try PekitProcess.run(program: URL(fileURLWithPath: "/bin/bash"), ["-c", form + " -s"], directory: dir)
            XCTAssertEqual(bash.status, 0, "\(form): \(bash.stderr)")
            let sent = try PekitProcess.run(["import", "curl", "--send", form], directory: dir)
            XCTAssertEqual(sent.stdout, bash.stdout, "\(form): --send")
            let script = try PekitProcess.run(["import", "curl", form], directory: dir)
            XCTAssertEqual(script.status, 0, "\(form): \(script.stderr)")
            XCTAssertTrue(script.stdout.contains("local jar = pekit.cookies.jar{ as_curl = true }\n"), script.stdout)
            let ran = try PekitProcess.run(["run", "-"], stdin: Array(script.stdout.utf8), directory: dir)
            XCTAssertEqual(ran.stdout, bash.stdout, "\(form): the script\n\(script.stdout)")
        }
    }

    /// --policy P: the query read back as P nests it (a table, in order where P keeps the given
    /// order), only when P writes the same bytes again; the script sends that query.
    /// Issue 68: the pasted command's control bytes reached the script's header comment raw (and
    /// so the terminal the script is printed on); they are escaped as the body's literal is.
    func testThePastedCommandsControlBytesAreEscapedInTheComment() throws {
        let imported = try PekitProcess.run(["import", "curl", "-"], stdin: Array("curl -d 'a\u{1B}]0;pwned\u{07}b' http://h/\n".utf8))
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.hasPrefix("-- Made by `pekit import curl` from:\n--   curl -d 'a\\x1B]0;pwned\\x07b' http://h/\n"), imported.stdout)
        XCTAssertTrue(imported.stdout.contains(#"body = "a\027]0;pwned\007b","#), imported.stdout)
        XCTAssertFalse(imported.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    func testParamsReadBackUnderAPolicy() throws {
        let cases = [
            ("rack", "u[name]=ada&u[age]=36&tags[]=a&tags[]=b+c&page=2",
             #"params = pekit.ordered{ { "u", pekit.ordered{ { "name", "ada" }, { "age", "36" } } }, { "tags", { "a", "b c" } }, { "page", "2" } },"#),
            ("php", "u%5Bname%5D=ada&tags%5B0%5D=a&tags%5B1%5D=b+c",
             #"params = pekit.ordered{ { "u", { name = "ada" } }, { "tags", { "a", "b c" } } },"#),
            ("afnetworking", "page=2&tags%5B%5D=a&u%5Bname%5D=ada",
             #"params = { page = "2", tags = { "a" }, u = { name = "ada" } },"#),
            // rack writes a space as +: %20 would not come back, so the URL is kept whole.
            ("rack", "q=a%20b", nil),
        ]
        for (policy, query, expected) in cases {
            // -g: curl itself refuses u[name] as a glob without it.
            let imported = try PekitProcess.run(["import", "curl", "--policy", policy, "curl -g 'https://h/s?\(query)'"])
            XCTAssertEqual(imported.status, 0, imported.stderr)
            if let expected {
                XCTAssertTrue(imported.stdout.contains("\n  url = \"https://h/s\",\n  \(expected)\n  params_in = \"query\",\n  policy = \"\(policy)\",\n"), "\(policy): \(imported.stdout)")
            } else {
                XCTAssertTrue(imported.stdout.contains("\n  url = \"https://h/s?\(query)\",\n"), imported.stdout)
            }
            // The request the script builds (shown instead of sent: the host is not reachable here).
            let shown = imported.stdout.replacingOccurrences(of: "local r = req:send", with: "io.write(req:raw()) os.exit(0) local r = req:send")
            let raw = try PekitProcess.run(["run", "-"], stdin: Array(shown.utf8))
            XCTAssertTrue(raw.stdout.hasPrefix("GET /s?\(query) HTTP/1.1\r\n"), "\(policy): \(raw.stdout) \(raw.stderr)")
        }
    }

    /// Each of curl's send flags becomes its Lua option (or the script says it is not carried);
    /// a body read from a file stays a file reference; --resolve keeps the script on the pinned
    /// address; --send takes pekit request's send options (-i, --har).
    func testSendFlagsBecomeLuaOptions() throws {
        let dir = try makeTemporaryDirectory("import-flags")
        let data = dir.appendingPathComponent("d.txt").path
        try "a=1&b=2".write(toFile: data, atomically: true, encoding: .utf8)
        let command = "curl -sS -k --cacert /tmp/ca.pem -m 30 --connect-timeout 5 -L --max-redirs 3 -x http://127.0.0.1:3128 --http1.1 --max-filesize 1000 -4 --retry 2 -f -o out.bin --compressed --resolve api.example.test:8443:127.0.0.1 -H 'Authorization: Bearer x' -i -w '%{http_code}' -d @\(data) https://api.example.test:8443/v1/x"
        let imported = try PekitProcess.run(["import", "curl", command])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.stderr, "pekit import: the script does not carry --include, --write-out (it says so in a comment; --send takes them)\n")
        XCTAssertEqual(imported.stdout, """
            -- Made by `pekit import curl` from:
            --   \(command)
            local req = pekit.request{
              method = "POST",
              url = "https://api.example.test:8443/v1/x",
              user_agent = "curl/7.88.1",
              compressed = true,
              headers = {
                { "Authorization", "Bearer x" },
              },
              connect = { ["api.example.test:8443"] = "127.0.0.1:8443" },
              body_file = "\(data)",
              content_type = "application/x-www-form-urlencoded",
            }
            local r = req:send{ max_redirects = 3, timeout = 30, connect_timeout = 5, insecure = true, cacert = "/tmp/ca.pem", proxy = "http://127.0.0.1:3128", http = "1.1", max_body = 1000, ip_version = "4", retry = { attempts = 3, on = { 408, 429, 500, 502, 503, 504, "timeout" }, backoff = { base = 1, max = 600, jitter = false } }, sink = "out.bin" }
            if r.status >= 400 then
              io.stderr:write("the server answered ", r.status, " (-f)\\n")
              os.exit(22)
            end
            -- not carried: --include, --write-out (pekit request and pekit.http have their own ways)

            """)
        // A pinned address stays pinned: the script and --send reach the echo server by that name.
        let (server, port) = try RequestCommandTests.startEcho(requests: 5)
        defer { server.terminate() }
        let pinned = "curl --resolve api.example.test:\(port):127.0.0.1 -H 'Authorization: Bearer x' http://api.example.test:\(port)/v1/x"
        let script = try PekitProcess.run(["import", "curl", pinned])
        let ran = try PekitProcess.run(["run", "-"], stdin: Array(script.stdout.utf8))
        XCTAssertEqual(ran.status, 0, ran.stderr)
        XCTAssertEqual(ran.stdout, "GET /v1/x HTTP/1.1\r\nHost: api.example.test:\(port)\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\nAuthorization: Bearer x\r\n\r\n")
        let har = dir.appendingPathComponent("out.har").path
        let sent = try PekitProcess.run(["import", "curl", "--send", "-i", "--har", har, pinned])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stdout.hasPrefix("HTTP/1.1 200 OK\r\n"), sent.stdout)
        XCTAssertTrue(sent.stdout.hasSuffix("\r\n\r\nGET /v1/x HTTP/1.1\r\nHost: api.example.test:\(port)\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\nAuthorization: Bearer x\r\n\r\n"), sent.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: har))
        // The -d family's files are read by the script when it runs (CR LF left out, encoded), as
        // curl reads them: the same bytes as curl's.
        let lines = dir.appendingPathComponent("e.txt").path
        try "x y\r\nz~*".write(toFile: lines, atomically: true, encoding: .utf8)
        let files = "curl http://127.0.0.1:\(port)/f --data-urlencode n@\(lines) -d @\(lines) -d k=v --data-binary @\(data)"
        let filesScript = try PekitProcess.run(["import", "curl", files])
        XCTAssertTrue(filesScript.stdout.contains("""
              body = "n=" .. pekit.encode(read("\(lines)"), { allowed = "unreserved", space = "+" }) .. "&" .. (read("\(lines)"):gsub("[\\r\\n]", "")) .. "&" .. "k=v" .. "&" .. read("\(data)"),
            """), filesScript.stdout)
        let fromScript = try PekitProcess.run(["run", "-"], stdin: Array(filesScript.stdout.utf8))
        XCTAssertEqual(fromScript.status, 0, fromScript.stderr)
        XCTAssertEqual(fromScript.stdoutBytes, try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-A", "curl/7.88.1"] + Array(files.split(separator: " ").dropFirst().map(String.init))))
        let withoutSend = try PekitProcess.run(["import", "curl", "-i", pinned])
        XCTAssertEqual(withoutSend.stderr, "pekit import: --include is a send option: give it with --send (the script carries the command's own) (see 'pekit import --help')\n")
    }

    func testUnknownFlagsAreNamedAndDialectsSplit() throws {
        let unknown = try PekitProcess.run(["import", "curl", "curl --proto-default https https://h/"])
        XCTAssertEqual(unknown.stderr, "pekit import: curl's --proto-default is not something pekit takes (pekit speaks http:// and https:// only, and checks each URL's scheme itself); the command was not imported\n")
        XCTAssertEqual(unknown.status, 1)
        let dropped = try PekitProcess.run(["import", "curl", "curl --no-buffer 'https://h/a/../b'"])
        XCTAssertEqual(dropped.stderr, "pekit import: left out --no-buffer (it changes nothing pekit sends)\n")
        // The script reads the URL as curl does (dot segments removed; kept with --path-as-is).
        XCTAssertTrue(dropped.stdout.contains("  url = \"https://h/a/../b\",\n  url_as_curl = true,\n"), dropped.stdout)
        let kept = try PekitProcess.run(["import", "curl", "curl --path-as-is 'https://h/a/../b'"])
        XCTAssertEqual(kept.stderr, "")
        XCTAssertTrue(kept.stdout.contains("  url = \"https://h/a/../b\",\n  path_as_is = true,\n"), kept.stdout)
        let policy = try PekitProcess.run(["import", "curl", "--policy", "nope", "curl https://h/"])
        XCTAssertTrue(policy.stderr.hasPrefix("pekit import: unknown policy \"nope\""), policy.stderr)
        XCTAssertEqual(policy.status, 1)
        let notCurl = try PekitProcess.run(["import", "curl", "wget https://h/"])
        XCTAssertEqual(notCurl.stderr, "pekit import: this is not a curl command (it starts with 'wget')\n")
        let open = try PekitProcess.run(["import", "curl", "curl 'https://h/"])
        XCTAssertEqual(open.stderr, "pekit import: a ' opened at character 6 is not closed\n")
    }

    /// curl's --next: --send sends each request in turn (curl's suite holds the bytes: 338, 386,
    /// 430–432, 1134…); a script is one request, and a command with --next is refused there.
    func testNextIsSentInTurnAndRefusedInAScript() throws {
        let server = try TestServer.shared()
        let sent = try PekitProcess.run(["import", "curl", "--send", "curl -s \(server.base)/status/404 --next -d x=1 \(server.base)/echo"])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stdout.contains("\"method\": \"POST\""), sent.stdout)
        let script = try PekitProcess.run(["import", "curl", "curl \(server.base)/a --next \(server.base)/b"])
        XCTAssertEqual(script.status, 1)
        XCTAssertEqual(script.stderr, "pekit import: the command has curl's --next: 2 requests, and a script is made of one (--send sends them all)\n")
    }
}
