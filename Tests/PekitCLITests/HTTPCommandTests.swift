import Foundation
import PekitTestSupport
import XCTest

/// Sending from the command line and from scripts, against the local test server.
final class HTTPCommandTests: XCTestCase {
    var server: TestServer!
    var demoEnvironment: [String: String] {
        ["PEKIT_DEMO_URL": server.base, "PEKIT_DEMO_HTTPS_PORT": String(server.httpsPort), "PEKIT_DEMO_CACERT": server.cacert]
    }

    override func setUpWithError() throws { server = try TestServer.shared() }

    func example(_ name: String) throws -> PekitResult {
        try PekitProcess.run([PekitProcess.packageRoot.appendingPathComponent("scripts/examples/\(name).lua").path], environment: demoEnvironment)
    }

    /// curl's cookie and output flags against curl itself on the test server: -b (a string or a
    /// file), -c (the file written), -w, -D, -O.
    func testCurlCookieAndOutputFlags() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let dir = try makeTemporaryDirectory("curlout")
        func curl(_ args: [String]) throws -> String {
            String(decoding: try PekitProcess.output(of: "/usr/bin/curl", ["-s"] + args, directory: dir), as: UTF8.self)
        }
        func pekit(_ args: [String]) throws -> PekitResult { try PekitProcess.run(["request"] + args, directory: dir) }
        func cookieLines(_ path: String) throws -> [String] {
            try String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") || $0.hasPrefix("#HttpOnly_") }.map(String.init)
        }
        // -c writes what came back; both files hold the same cookie lines.
        _ = try curl(["-c", "curl.txt", "-o", "/dev/null", "\(server.base)/cookies/set?a=1&b=two"])
        XCTAssertEqual(try pekit(["-c", "ours.txt", "-o", "/dev/null", "\(server.base)/cookies/set?a=1&b=two"]).status, 0)
        XCTAssertEqual(try cookieLines("ours.txt").sorted(), try cookieLines("curl.txt").sorted())
        // -b FILE and -b STRING send the same Cookie header.
        func cookieSeen(_ json: String) -> String? {
            (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["cookie"] as? String
        }
        for file in ["curl.txt", "ours.txt"] {
            XCTAssertEqual(cookieSeen(try pekit(["-b", file, "-s", "\(server.base)/echo"]).stdout), cookieSeen(try curl(["-b", file, "\(server.base)/echo"])), file)
        }
        XCTAssertEqual(cookieSeen(try pekit(["-b", "x=1; y=2", "-s", "\(server.base)/echo"]).stdout), "x=1; y=2")
        // -w with the variables scripts use, after following redirects.
        let format = "%{http_code} %{num_redirects} %{size_download} %{url_effective} %{content_type} %{method}\\n"
        XCTAssertEqual(try pekit(["-L", "-w", format, "-o", "/dev/null", "\(server.base)/redirect/302?to=/bytes/50"]).stdout,
                       try curl(["-L", "-w", format, "-o", "/dev/null", "\(server.base)/redirect/302?to=/bytes/50"]))
        // Issue 73: %{scheme}, %{num_headers} and %{redirect_url}, of a redirect followed and not.
        let more = "%{scheme} %{num_headers} [%{redirect_url}]\\n"
        XCTAssertEqual(try pekit(["--no-follow", "-w", more, "-o", "/dev/null", "\(server.base)/redirect/302?to=/echo"]).stdout,
                       try curl(["-w", more, "-o", "/dev/null", "\(server.base)/redirect/302?to=/echo"]))
        XCTAssertEqual(try pekit(["-L", "-w", more, "-o", "/dev/null", "\(server.base)/redirect/302?to=/echo"]).stdout,
                       try curl(["-L", "-w", more, "-o", "/dev/null", "\(server.base)/redirect/302?to=/echo"]))
        XCTAssertTrue(try pekit(["-w", "%{speed_download}", "-o", "/dev/null", "\(server.base)/bytes/5000"]).stdout.allSatisfy(\.isNumber))
        // -D: the head; -O: the file named by the URL.
        let ours = try pekit(["-D", "-", "-o", "/dev/null", "\(server.base)/status/201"]).stdout
        let theirs = try curl(["-D", "-", "-o", "/dev/null", "\(server.base)/status/201"])
        func names(_ head: String) -> [String] { head.components(separatedBy: "\r\n").map { $0.components(separatedBy: ":")[0] }.filter { !$0.hasPrefix("Date") } }
        XCTAssertEqual(names(ours), names(theirs))
        XCTAssertEqual(try pekit(["-O", "\(server.base)/bytes/10"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("10")).count, 10)
        let bad = try pekit(["-w", "%{bogus}", "\(server.base)/echo"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("pekit request: -w: unknown variable %{bogus} (known: http_code"), bad.stderr)
    }

    /// -N / --no-buffer (issue 73): a body that comes in three pieces 0.4 s apart reaches a pipe
    /// in three bursts, as curl -N gives it; without -N pekit writes it at the end, in one.
    func testNoBufferWritesEachPieceAsItArrives() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let script = PekitProcess.packageRoot.appendingPathComponent("Tests/Server/pipe_reads.py").path
        let url = "\(server.base)/bytes/48192?chunked=1&pause=0.4"  // three blocks of 16,064 bytes
        func bursts(_ command: [String]) throws -> String {
            String(decoding: try PekitProcess.output(of: "/usr/bin/python3", [script] + command), as: UTF8.self)
        }
        XCTAssertEqual(try bursts(["/usr/bin/curl", "-s", "-N", url]), "3 48192 0\n")
        XCTAssertEqual(try bursts([PekitProcess.binary.path, "request", "-N", url]), "3 48192 0\n")
        XCTAssertEqual(try bursts([PekitProcess.binary.path, "request", "--no-buffer", url]), "3 48192 0\n")
        XCTAssertEqual(try bursts([PekitProcess.binary.path, "request", "--send", url]), "1 48192 0\n")
    }

    /// Long options by any unambiguous start, as curl reads them (issue 73: pasted commands say
    /// `--sil`): the same request as curl 7.88's for `--sil --heade … --max-t 5`, and an
    /// ambiguous start refused with curl's exit status 2, in pekit request and pekit import curl.
    func testUnambiguousStartsOfLongOptionsAsCurlReadsThem() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let url = "\(server.base)/echo"
        let flags = ["--sil", "--heade", "X-A: 1", "--max-t", "5"]
        let theirs = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", flags + [url]), as: UTF8.self)
        let imported = try PekitProcess.run(["import", "curl", "--send", "curl --sil --heade 'X-A: 1' --max-t 5 \(url)"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        func seen(_ json: String) -> [[String]] {
            ((try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["headers"] as? [[String]] ?? [])
        }
        XCTAssertEqual(seen(imported.stdout), seen(theirs))
        let ours = try PekitProcess.run(["request"] + flags + [url])
        XCTAssertEqual(ours.status, 0, ours.stderr)
        XCTAssertEqual(seen(ours.stdout).filter { $0[0] != "User-Agent" }, seen(theirs).filter { $0[0] != "User-Agent" })
        let curlAmbiguous = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--fo", "x=1", url])
        let ambiguous = try PekitProcess.run(["request", "--fo", "x=1", url])
        XCTAssertEqual(curlAmbiguous.status, 2)
        XCTAssertEqual(ambiguous.status, 2)
        XCTAssertEqual(ambiguous.stderr, "pekit request: option '--fo' is ambiguous: --form, --form-string, --force (see 'pekit request --help')\n")
        XCTAssertEqual(try PekitProcess.run(["import", "curl", "curl --fo x=1 \(url)"]).status, 2)
    }

    /// curl's `--no-` form of every flag that takes no value (issue 73: pasted commands say
    /// `--no-location`): the last of a flag and its `--no-` form wins, in pekit request and in
    /// pekit import curl, held to curl 7.88 on the same server (what is answered, how many
    /// redirects, the method and the Authorization field sent); `--no-` before a flag that
    /// takes a value is refused with curl's exit status 2. (`-I --no-head`, which curl 7.88
    /// refuses as asking for two methods, is a GET in pekit: docs/requests-and-sending.md.)
    func testNoFormsOfFlagsAsCurlReadsThem() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let redirect = "\(server.base)/redirect/302?to=/echo", echo = "\(server.base)/echo"
        let cases: [[String]] = [
            ["-L", "--no-location", redirect], ["--no-location", "-L", redirect], ["-sL", "--no-loc", redirect],
            ["--no-location", redirect], ["--no-head", echo], ["-u", "ada:secret", "--no-basic", echo],
            ["-u", "ada:secret", "--basic", "--no-basic", echo], ["--no-http0.9", "--no-compressed", echo],
        ]
        let format = "%{http_code} %{num_redirects}"
        func seen(_ output: String) -> String {
            // The status and redirects, then the method and Authorization the echo saw.
            let parts = output.components(separatedBy: "\n--\n")
            let json = (try? JSONSerialization.jsonObject(with: Data((parts.first ?? "").utf8)) as? [String: Any]) ?? [:]
            let headers = json["headers"] as? [[String]] ?? []
            let auth = headers.first { $0.first?.lowercased() == "authorization" }?.last ?? "-"
            return "\(parts.last ?? "") \(json["method"] as? String ?? "-") \(auth)"
        }
        for flags in cases {
            let common = ["-s", "-w", "\n--\n" + format]
            let theirs = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), common + flags)
            let ours = try PekitProcess.run(["request"] + common + flags)
            XCTAssertEqual(ours.status, theirs.status, "\(flags): \(ours.stderr)")
            XCTAssertEqual(seen(ours.stdout), seen(theirs.stdout), "pekit request \(flags)")
            let command = "curl " + (common + flags).map { "'\($0)'" }.joined(separator: " ")
            let imported = try PekitProcess.run(["import", "curl", "--send", command])
            XCTAssertEqual(imported.status, theirs.status, "\(command): \(imported.stderr)")
            XCTAssertEqual(seen(imported.stdout), seen(theirs.stdout), "pekit import curl --send \(command)")
        }
        let theirs = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--no-max-time", "5", echo])
        XCTAssertEqual(theirs.status, 2)
        let ours = try PekitProcess.run(["request", "--no-max-time", "5", echo])
        XCTAssertEqual(ours.status, 2)
        XCTAssertEqual(ours.stderr, "pekit request: option '--no-max-time': --max-time takes a value, so it has no --no- form (curl's rule) (see 'pekit request --help')\n")
        XCTAssertEqual(try PekitProcess.run(["import", "curl", "--send", "curl --no-max-time 5 \(echo)"]).status, 2)
    }

    /// curl's `-K FILE` and `--next` in `pekit request` itself (issue 73: every flag the same in
    /// pekit request and pekit import curl): a config file's options read in its place, and
    /// each request of a `--next` command with only its own options, held to curl 7.88 on the
    /// same server (the methods, the test's header fields and the exit status of each request).
    func testConfigFilesAndNextInPekitRequestAsCurl() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let echo = "\(server.base)/echo"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pekit-config-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("one.cfg").path
        try Data("# a comment\nheader = \"X-From-Config: yes\"\n--data x=1\nurl = \"\(echo)?from=config\"\n".utf8).write(to: URL(fileURLWithPath: config))
        // Each request's words (curl's -s and -w are each request's own: given to each one).
        let cases: [[[String]]] = [
            [["-K", config]], [["--config", config, "-H", "X-After: 2"]], [["-H", "X-A: 1", echo], ["-H", "X-B: 2", echo + "?second"]],
            [["-X", "PUT", echo], [echo]], [["-K", config], ["-G", "-d", "q=2", echo]],
        ]
        func seen(_ output: String) -> [String] {
            output.components(separatedBy: "\n==\n").dropLast().map { body in
                let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:]
                let fields = (json["headers"] as? [[String]] ?? []).filter { $0.first?.hasPrefix("X-") == true }.map { $0.joined(separator: ": ") }
                return "\(json["method"] as? String ?? "(no body)") \(json["path"] as? String ?? "") \(fields)"
            }
        }
        for (n, requests) in cases.enumerated() {
            let flags = Array(requests.map { ["-s", "-w", "\n==\n"] + $0 }.joined(separator: [n % 2 == 0 ? "--next" : "-:"]))
            let theirs = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), flags)
            let ours = try PekitProcess.run(["request"] + flags)
            XCTAssertEqual(ours.status, theirs.status, "\(flags): \(ours.stderr)")
            XCTAssertEqual(seen(ours.stdout), seen(theirs.stdout), "\(flags)")
            XCTAssertEqual(seen(theirs.stdout).count, requests.count, "\(flags)")
        }
        let missing = try PekitProcess.run(["request", "-K", folder.appendingPathComponent("none.cfg").path])
        XCTAssertEqual(missing.status, 26, "curl's exit status for a config file it cannot read")
    }

    /// --location-trusted (issue 73, and Hurl's `location-trusted`): a redirect to another host
    /// keeps the credentials, where without it they are dropped; held to curl 7.88 on the same
    /// redirect (127.0.0.1 to localhost: another host for curl, another origin for pekit).
    func testLocationTrustedKeepsCredentialsAsCurlDoes() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let port = server.base.split(separator: ":").last.map(String.init) ?? ""
        let url = "http://127.0.0.1:\(port)/redirect/302?to=http://localhost:\(port)/echo"
        func authorization(_ json: String) -> String {
            let headers = (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["headers"] as? [[String]] ?? []
            return headers.first { $0.first?.lowercased() == "authorization" }?.last ?? "(none)"
        }
        for trusted in [false, true] {
            let flags = ["-s", "-L", "-u", "ada:secret"] + (trusted ? ["--location-trusted"] : [])
            let theirs = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", flags + [url]), as: UTF8.self)
            let ours = try PekitProcess.run(["request"] + flags + [url])
            XCTAssertEqual(ours.status, 0, ours.stderr)
            XCTAssertEqual(authorization(ours.stdout), authorization(theirs), "trusted: \(trusted)")
            XCTAssertEqual(authorization(ours.stdout), trusted ? "Basic YWRhOnNlY3JldA==" : "(none)")
        }
    }

    /// Issue 73: -O -J names the file as curl 7.88 does: the Content-Disposition fields of curl's
    /// own -J tests (1311, 1312, 1313, 1584, 1585) and more, each answered by the test server and
    /// fetched by curl and by pekit into directories of their own: the same files, the same
    /// bytes; a file already there is not replaced (exit 23, as curl); -J with -i is refused.
    func testRemoteHeaderNameIsCurls() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        func canned(_ reply: String) -> String {
            "\(server.base)/canned?b=" + Data(reply.utf8).base64EncodedString().addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        }
        let fields = [
            "filename=name1311; charset=funny; option=strange", "inline; filename=\"name1312;weird\"", "inline; filename='name1313",
            "filename=log/server/name1584", "filename=log\\server\\name1585", "attachment; FILENAME=upper", "attachment; filename*=UTF-8''x; filename=\"b c.txt\"",
            "attachment; filename=/", "attachment", nil,
        ]
        for (n, field) in fields.enumerated() {
            let url = canned("HTTP/1.1 200 OK\r\n" + (field.map { "Content-Disposition: \($0)\r\n" } ?? "") + "Content-Length: 4\r\n\r\nbody")
            var got: [String: [String: Data]] = [:]
            for client in ["curl", "pekit"] {
                let dir = try makeTemporaryDirectory("J-\(client)-\(n)")
                let result = client == "curl"
                    ? try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-O", "-J", "--output-dir", dir.path, url])
                    : try PekitProcess.run(["request", "--send", "-s", "-O", "-J", "--output-dir", dir.path, url])
                XCTAssertEqual(result.status, field == "attachment; filename=/" ? 23 : 0, "\(client), \(field ?? "no field"): \(result.stderr)")
                var files: [String: Data] = [:]
                for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) { files[name] = try Data(contentsOf: dir.appendingPathComponent(name)) }
                got[client] = files
            }
            XCTAssertEqual(got["pekit"], got["curl"], field ?? "no field")
        }
        // A file of the name already there: curl and pekit leave it and exit 23.
        let url = canned("HTTP/1.1 200 OK\r\nContent-Disposition: filename=kept\r\nContent-Length: 4\r\n\r\nbody")
        for client in ["curl", "pekit"] {
            let dir = try makeTemporaryDirectory("J-exists-\(client)")
            try "mine".write(to: dir.appendingPathComponent("kept"), atomically: true, encoding: .utf8)
            let result = client == "curl"
                ? try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-O", "-J", "--output-dir", dir.path, url])
                : try PekitProcess.run(["request", "--send", "-s", "-O", "-J", "--output-dir", dir.path, url])
            XCTAssertEqual(result.status, 23, client)
            XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("kept"), encoding: .utf8), "mine", client)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["kept"], client)
        }
        let both = try PekitProcess.run(["request", "--send", "-i", "-O", "-J", url])
        XCTAssertEqual(both.status, 2)
        XCTAssertEqual(both.stderr, "pekit request: showing headers and --remote-header-name cannot be combined (as curl says)\n")
    }

    /// Issue 69: -i and -D write the header blocks as they came, as curl does: LF-only lines
    /// kept (curl's test 14), every redirect followed and every 1xx, and with -D - and -i on
    /// standard output each line twice (its test 1066). Byte for byte against curl, on replies the
    /// test server gives as written.
    func testHeadsAsCurlWritesThem() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let dir = try makeTemporaryDirectory("heads")
        func canned(_ reply: String) -> String {
            "\(server.base)/canned?b=" + Data(reply.utf8).base64EncodedString().addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        }
        let final = canned("HTTP/1.1 200 OK\nServer: lf-only\nContent-Length: 3\n\nok\n")
        let interim = canned("HTTP/1.1 100 Continue\r\nX-Early: 1\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi")
        let redirect = canned("HTTP/1.1 302 Found\r\nLocation: \(final)\r\nContent-Length: 5\r\n\r\nmoved")
        let cases: [[String]] = [
            ["-i", final], ["-i", interim], ["-i", "-L", redirect], ["-D", "-", "-o", "/dev/null", "-L", redirect],
            ["-i", "-D", "-", final, interim], ["-D", "heads.txt", "-L", redirect, final],
        ]
        for args in cases {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("heads.txt"))
            let curl = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s"] + args, directory: dir)
            let theirs = try? Data(contentsOf: dir.appendingPathComponent("heads.txt"))
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("heads.txt"))
            let ours = try PekitProcess.run(["request", "--send"] + args, directory: dir)
            XCTAssertEqual(ours.status, 0, ours.stderr)
            XCTAssertEqual(ours.stdout, curl.stdout, "\(args)")
            XCTAssertEqual(try? Data(contentsOf: dir.appendingPathComponent("heads.txt")), theirs, "\(args)")
        }
    }

    /// Progress on standard error: with --progress (here, a pipe), ending at the total; never
    /// in a pipe otherwise.
    func testProgressLine() throws {
        let forced = try PekitProcess.run(["request", "--progress", "-o", "/dev/null", "\(server.base)/bytes/1000"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(forced.stderr.hasPrefix("\r\u{1B}[K"), forced.stderr.debugDescription)
        XCTAssertTrue(forced.stderr.hasSuffix("1.0 KB of 1.0 KB (100%)  " + forced.stderr.split(separator: " ").suffix(2).joined(separator: " ")), forced.stderr.debugDescription)
        XCTAssertTrue(forced.stderr.hasSuffix("/s\n"), forced.stderr.debugDescription)
        XCTAssertEqual(try PekitProcess.run(["request", "-o", "/dev/null", "\(server.base)/bytes/1000"]).stderr, "")
    }

    /// In a real terminal (tmux): a download to a file shows bytes of the total, the rate and the
    /// time left while it runs, and ends at its total; a binary body is not written to the
    /// terminal (as curl), and -o - writes it anyway.
    func testProgressInATerminal() throws {
        let dir = try makeTemporaryDirectory("progress")
        let out = dir.appendingPathComponent("out.bin").path
        let pekit = PekitProcess.binary.path
        let terminal = try TerminalSession(
            "sh -c '\(pekit) request -o \(out) \"\(server.base)/bytes/160640?pause=0.2\"; echo \"[status $?]\"; " +
            "\(pekit) request --send \(server.base)/bytes/100; echo \"[status $?]\"; \(pekit) request -o - \(server.base)/bytes/3 | od -An -tx1; sleep 60'",
            directory: dir, tag: "progress")
        let during = try terminal.screen(waitingFor: "ETA")
        XCTAssertNotNil(during.split(separator: "\n").first?.range(of: #"^\d+\.\d KB of 160\.6 KB \(\d+%\)  \d+\.\d KB/s  ETA 0:0\d$"#, options: .regularExpression), during)
        let after = try terminal.screen(waitingFor: "00 01 02")
        let lines = after.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertNotNil(lines[0].range(of: #"^160\.6 KB of 160\.6 KB \(100%\)  \d+\.\d KB/s$"#, options: .regularExpression), after)
        XCTAssertEqual(Array(lines[1...4]), ["[status 0]",
            "pekit request: the body is binary (100 bytes) and would mess up the terminal: use -o FILE, or -o - to write it here anyway",
            "[status 1]", " 00 01 02"], after)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)).count, 160640)
    }

    /// pekit run --progress: a batch's counts and a download's bytes on standard error (the
    /// default on a terminal); nothing in a pipe otherwise, or when the script watches itself.
    func testRunShowsProgress() throws {
        let dir = try makeTemporaryDirectory("run-progress")
        let script = "pekit.http.all({ '\(server.base)/status/200', '\(server.base)/status/204', 'http://127.0.0.1:1/' }) " +
            "pekit.http.get('\(server.base)/bytes/2000', { sink = '\(dir.path)/f' })"
        let shown = try PekitProcess.run(["run", "--progress", "-e", script])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let lines = shown.stderr.split(separator: "\n").map { $0.components(separatedBy: "\r\u{1B}[K").last ?? "" }
        XCTAssertEqual(lines.count, 2, shown.stderr.debugDescription)
        XCTAssertTrue(lines[0].hasPrefix("3/3 done, 1 failed, 0 in flight  "), shown.stderr.debugDescription)
        XCTAssertTrue(lines[1].hasPrefix("2.0 KB of 2.0 KB (100%)  "), shown.stderr.debugDescription)
        XCTAssertEqual(try PekitProcess.run(["run", "-e", script]).stderr, "")
        XCTAssertEqual(try PekitProcess.run(["run", "--progress", "-e", "pekit.http.all({ '\(server.base)/status/200' }, { progress = function() end })"]).stderr, "")
    }

    /// Several URLs as curl takes them, compared with curl itself: the same stdout (bodies and
    /// -w in order, -f's body left out but its -w kept), -o pairing with URLs in order, the exit
    /// status of the last transfer; -Z sends them at once (the server counts them in flight).
    func testSeveralURLsAndParallel() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let dir = try makeTemporaryDirectory("several")
        func curl(_ args: [String]) throws -> PekitResult {
            let process = Process(), out = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-s"] + args
            process.currentDirectoryURL = dir
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let bytes = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return PekitResult(stdout: String(decoding: bytes, as: UTF8.self), stderr: "", status: process.terminationStatus)
        }
        func pekit(_ args: [String]) throws -> PekitResult { try PekitProcess.run(["request", "-s"] + args, directory: dir) }
        let b = server.base
        for args in [["\(b)/status/200", "\(b)/status/201", "-w", "[%{http_code}]\n"],
                     ["-f", "\(b)/status/200", "\(b)/status/404", "-w", "[%{http_code}]\n"],
                     ["-f", "\(b)/status/404", "\(b)/status/200", "-w", "[%{http_code}]\n"],
                     ["-o", "first.txt", "\(b)/status/202", "\(b)/status/203"]] {
            let theirs = try curl(args)
            let first = try? String(contentsOf: dir.appendingPathComponent("first.txt"), encoding: .utf8)
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("first.txt"))
            let ours = try pekit(args)
            XCTAssertEqual(ours.stdout, theirs.stdout, "\(args)")
            XCTAssertEqual(ours.status, theirs.status, "\(args): \(ours.stderr)")
            XCTAssertEqual(try? String(contentsOf: dir.appendingPathComponent("first.txt"), encoding: .utf8), first, "\(args)")
        }
        // -D FILE holds every transfer's head in turn, as curl's does (status lines compared: the
        // Date fields differ).
        func statusLines(_ name: String) throws -> [String] {
            try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8).components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/") }
        }
        let dump = ["-o", "/dev/null", "-o", "/dev/null", "\(b)/status/200", "\(b)/status/404"]
        _ = try curl(["-D", "theirs.txt"] + dump)
        XCTAssertEqual(try pekit(["-D", "ours.txt"] + dump).status, 0)
        XCTAssertEqual(try statusLines("ours.txt"), try statusLines("theirs.txt"))
        XCTAssertEqual(try statusLines("ours.txt"), ["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found"])
        XCTAssertEqual(try pekit(["-Z", "-D", "ours.txt"] + dump).status, 0)
        XCTAssertEqual(try statusLines("ours.txt"), ["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found"])
        // A transfer that fails still writes -w (http_code 000), as curl; pekit's exit status for a
        // failed transfer's exit status is its curl error code, as curl's (issue 69).
        let refused = ["\(b)/status/200", "http://127.0.0.1:1/", "-w", "[%{http_code} %{url_effective}]\n"]
        XCTAssertEqual(try pekit(refused).stdout, try curl(refused).stdout)
        XCTAssertEqual(try pekit(refused).status, try curl(refused).status)
        XCTAssertEqual(try pekit(refused).status, 7)
        // -Z: all five in flight at once (--parallel-max 5), answers in the order given.
        let key = UUID().uuidString
        let parallel = try pekit(["-Z", "--parallel-max", "5"] + (1...5).map { "\(b)/inflight/\(key)?delay=0.5&n=\($0)" } + ["-w", " %{url_effective}\n"])
        XCTAssertEqual(parallel.status, 0, parallel.stderr)
        XCTAssertEqual(parallel.stderr, "", "no progress line in a pipe")
        let lines = parallel.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.map { $0.components(separatedBy: " ").last ?? "" }, (1...5).map { "\(b)/inflight/\(key)?delay=0.5&n=\($0)" })
        XCTAssertTrue(lines.allSatisfy { $0.contains(#""max": 5"#) }, parallel.stdout)
        // One at a time without -Z; --parallel-max 2 holds two.
        let serial = try pekit((1...3).map { _ in "\(b)/inflight/\(UUID().uuidString)" })
        XCTAssertEqual(serial.stdout.components(separatedBy: #""max": 1"#).count, 4, serial.stdout)
        let two = UUID().uuidString
        let limited = try pekit(["-Z", "--parallel-max", "2"] + (1...4).map { _ in "\(b)/inflight/\(two)?delay=0.3" })
        XCTAssertEqual(limited.stdout.components(separatedBy: #""max": 2"#).count, 5, limited.stdout)
        let shown = try pekit(["-Z", "--progress", "-o", "/dev/null", "-o", "/dev/null", "\(b)/status/200", "\(b)/status/200"])
        XCTAssertTrue(shown.stderr.contains("\r\u{1B}[K2/2 done, 0 failed, 0 in flight  "), shown.stderr.debugDescription)
        // --rate 20/s: four starts take at least 3 × 50 ms.
        let start = Date()
        XCTAssertEqual(try pekit(["--rate", "20/s", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null"] + (1...4).map { _ in "\(b)/status/200" }).status, 0)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.15)
        // What does not fit several URLs says so.
        // Issue 69: more -o than URLs is no error: the extra ones are not used, as in curl (its
        // test 26), and a warning says so unless -s.
        let extra = try pekit(["-o", "a", "-o", "b", "\(b)/status/200"])
        XCTAssertEqual(extra.status, 0, extra.stderr)
        XCTAssertEqual(extra.stderr, "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("a").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("b").path))
        let warned = try PekitProcess.run(["request", "--send", "-o", "c", "-o", "d", "\(b)/status/200"], directory: dir)
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertEqual(warned.stderr, "pekit request: warning: 2 -o/-O for 1 URL: the last 1 is not used (each pairs with one URL, in order)\n")
        XCTAssertEqual(try pekit(["--har", "x.har", "\(b)/status/200", "\(b)/status/200"]).stderr,
                       "pekit request: --har takes one URL (for several, a script: pekit run, with pekit.http.all and a jar) (see 'pekit request --help')\n")
        XCTAssertEqual(try pekit(["-Z", "--parallel-max", "0", "\(b)/status/200"]).stderr,
                       "pekit request: --parallel-max takes a count from 1 to 300, not '0' (see 'pekit request --help')\n")
        XCTAssertEqual(try PekitProcess.run(["request", "--raw", "http://a/", "http://b/"]).stderr,
                       "pekit request: several URLs are for sending (--send, or a sending option): --raw, --curl and --describe show one request (see 'pekit request --help')\n")
    }

    /// curl's --retry: transient statuses are sent again (Retry-After honoured), a POST too, as
    /// curl sends it again (issue 69, curl's test 1633).
    func testRetryFlags() throws {
        let key = UUID().uuidString
        let r = try PekitProcess.run(["request", "-v", "--retry", "2", "\(server.base)/flaky/\(key)/1?after=0"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("\n* retry: attempt 2 after status 503, waiting 0.0 s\n"), r.stderr)
        XCTAssertTrue(r.stdout.contains(#""attempt": 2"#), r.stdout)
        let post = try PekitProcess.run(["request", "--retry", "2", "-d", "a=1", "\(server.base)/flaky/\(UUID().uuidString)/1?after=0"])
        let curlPost = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "--retry", "2", "-d", "a=1", "\(server.base)/flaky/\(UUID().uuidString)/1?after=0"])
        XCTAssertTrue(String(decoding: curlPost, as: UTF8.self).contains(#""attempt": 2"#), "curl sends the POST again")
        XCTAssertTrue(post.stdout.contains(#""attempt": 2"#), post.stdout)
        let usage = try PekitProcess.run(["request", "--retry-all-errors", "http://h/"])
        XCTAssertEqual(usage.stderr, "pekit request: --retry-max-time and --retry-all-errors go with --retry N (see 'pekit request --help')\n")
    }

    func testSessionExample() throws {
        let r = try example("session")
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, """
            POST /login -> 303, Location /me
            GET /me -> 200 OK\tuser = ada
            stored:\tsession\t127.0.0.1\t/\tHttpOnly\thost-only
            GET /me ->\t200
            GET /me without the jar ->\t401
            after logout:\t0\tcookies; GET /me ->\t401

            """)
    }

    func testTwoBackendsExample() throws {
        let r = try example("two-backends")
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, """
            rack      GET /echo?user[name]=%E5%B0%8FA&user[tags][]=a+b&user[tags][]=c%2Cd&page=2
                        changed-type params.page: the number 2 arrives as the string "2"
            qs-comma  GET /echo?user%5Bname%5D=%E5%B0%8FA&user%5Btags%5D=a%20b%2Cc%2Cd&page=2
                        changed      params.user.tags: sent as a list of 2, arrives as "a b,c,d": qs does not split on commas
                        lost         params.user.tags[0]: "a b": the list arrives as one value
                        lost         params.user.tags[1]: "c,d": the list arrives as one value
                        changed-type params.page: the number 2 arrives as the string "2"

            """)
    }

    /// Every page of the paginated demo API, ten at a time; the 503s the server sends to every
    /// third page's first request are sent again.
    func testCrawlExample() throws {
        let r = try example("crawl")
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, """
            25 pages, 250 items, ids 1 to 250 in order: true
            8 pages answered 503 first and were fetched again; 0 failed

            """)
    }

    func testSignedExample() throws {
        let r = try example("signed")
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, """
            SigV4   AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261130/eu-west-1/execute-api/aws4_request → 200
            presign X-Amz-Expires=60  → 200
            OAuth1  oauth_signature_method="HMAC-SHA1" → 200
            sign =  1 redirect, then → 200

            """)
    }

    func testIPDirectExample() throws {
        let r = try example("ip-direct")
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, """
            connected to\t127.0.0.1\t| SNI\tapi.example.test\t| Host\tapi.example.test
            cookie stored for\tapi.example.test\t| sent back:\tregion=eu
            curl --http1.1 --connect-to api.example.test:PORT:127.0.0.1:PORT https://api.example.test:PORT/echo -H 'Host: api.example.test:PORT' -H 'User-Agent: pekit/0.1.0 (Linux; x86_64)' -H 'Accept: */*'
            false\tpekit.http.get: GET https://127.0.0.1:PORT/echo: SSL: no alternative certificate subject name matches target host name '127.0.0.1' (curl error 60); the certificate is not for this host name: to reach a host at another address, keep its name in the URL and map it with connect = {["name:443"] = "address:443"}

            """)
    }

    func testJarFilesExample() throws {
        let r = try example("jar-files")
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, """
            #pekit-attributes: SameSite=Lax
            #HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\t…
            127.0.0.1\tFALSE\t/\tFALSE\t0\ttheme\tdark
            loaded\t2\tcookies; GET /me ->\tlinus

            """)
    }

    func testExamplesSayHowToRunThem() throws {
        guard ProcessInfo.processInfo.environment["PEKIT_DEMO_URL"] == nil else { throw XCTSkip("PEKIT_DEMO_URL is set") }
        let r = try PekitProcess.run([PekitProcess.packageRoot.appendingPathComponent("scripts/examples/session.lua").path])
        do {
            XCTAssertTrue(r.stderr.contains("session.lua:3: run me with scripts/run, which starts the local demo server"), r.stderr)
            XCTAssertEqual(r.status, 1)
        }
    }

    /// The one-shot command: log in with a jar file, then use it; the jar file is curl's format.
    func testAWSSigV4FlagSignsWhatTheServerChecks() throws {
        let ok = try PekitProcess.run(["request", "--send", "--aws-sigv4", "aws:amz:eu-west-1:execute-api", "-u", "AKIDEXAMPLE:wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                       "--json", "@-", "-H", "X-Amz-Security-Token: T", "\(server.base)/aws/items?b=2&a=1"], stdin: Array(#"{"n": 1}"#.utf8))
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(ok.stdout.hasPrefix(#"{"canonical_request": "POST\n/aws/items\na=1&b=2\naccept:application/json\ncontent-type:application/json\nhost:"#), ok.stdout)
        XCTAssertTrue(ok.stdout.contains(#""ok": true"#), ok.stdout)
        let wrong = try PekitProcess.run(["request", "--send", "--fail", "--aws-sigv4", "aws:amz:eu-west-1:s3", "-u", "AKIDEXAMPLE:nope", "\(server.base)/aws/b/k"])
        XCTAssertEqual(wrong.status, 22)
        let usage = try PekitProcess.run(["request", "--aws-sigv4", "aws:amz:eu-west-1:s3", "http://h/"])
        XCTAssertEqual(usage.stderr, "pekit request: --aws-sigv4 needs -u ACCESS_KEY:SECRET_KEY (see 'pekit request --help')\n")
        XCTAssertEqual(usage.status, 2)
    }

    /// The request line is what curl sends for a URL with non-ASCII (RequestCommandTests holds
    /// it to curl), a space escaped where curl refuses the URL; URL credentials are the
    /// Authorization header the preview shows and --send sends.
    func testPreviewIsWhatGoesOnTheWire() throws {
        let preview = try PekitProcess.run("request", "http://h/a b/汉?q=汉 字")
        XCTAssertTrue(preview.stdout.hasPrefix("GET /a%20b/%e6%b1%89?q=汉%20字 HTTP/1.1\r\nHost: h\r\nUser-Agent: pekit/0.1.0 (Linux; x86_64)\r\n"), preview.stdout)
        let sent = try PekitProcess.run(["request", "--send", "\(server.base)/raw/a b/汉?q=汉 字"])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stdoutBytes.starts(with: Array("GET /raw/a%20b/%e6%b1%89?q=汉%20字 HTTP/1.1\r\n".utf8)), sent.stdout)
        let user = try PekitProcess.run("request", "http://us%40er:p%3Ass@h:8080/x")
        XCTAssertTrue(user.stdout.hasPrefix("GET /x HTTP/1.1\r\nHost: h:8080\r\n"), user.stdout)
        XCTAssertTrue(user.stdout.contains("Authorization: Basic dXNAZXI6cDpzcw==\r\n"), "us@er:p:ss")
        let authorized = try PekitProcess.run(["request", "--send", server.base.replacingOccurrences(of: "http://", with: "http://ada:se%20cret@") + "/echo"])
        XCTAssertTrue(authorized.stdout.contains(#"["Authorization", "Basic YWRhOnNlIGNyZXQ="]"#), authorized.stdout)
    }

    func testRequestSendWithJarFile() throws {
        let dir = try makeTemporaryDirectory("send")
        let jar = dir.appendingPathComponent("jar.txt").path
        let login = try PekitProcess.run(["request", "--send", "-i", "-d", "user=ada", "-d", "password=secret", "--jar", jar, "\(server.base)/login"])
        XCTAssertEqual(login.status, 0, login.stderr)
        // -i writes the head of every response of the chain, the 303 followed first, as curl -L -i.
        XCTAssertTrue(login.stdout.hasPrefix("HTTP/1.1 303 See Other\r\nServer: pekit-test-server\r\nDate: "), login.stdout)
        XCTAssertTrue(login.stdout.contains("\r\n\r\nHTTP/1.1 200 OK\r\nServer: pekit-test-server\r\nDate: "), login.stdout)
        XCTAssertTrue(login.stdout.hasSuffix("\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"user\": \"ada\"}"), login.stdout)
        let me = try PekitProcess.run(["request", "--send", "--jar", jar, "\(server.base)/me"])
        XCTAssertEqual(me.stdout, #"{"user": "ada"}"#)
        // A file that is not a jar is not replaced by the cookies that come back.
        let notes = dir.appendingPathComponent("notes.txt").path
        try "my notes\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let notAJar = try PekitProcess.run(["request", "--send", "--jar", notes, "\(server.base)/cookies/set?a=1"])
        XCTAssertEqual(notAJar.status, 1)
        XCTAssertTrue(notAJar.stderr.hasSuffix("pekit request: \(notes) does not look like a cookie jar (1 line skipped, none loaded); not replacing it (--force replaces it)\n"), notAJar.stderr)
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes\n")
        // curl reads the same file.
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-b", jar, "\(server.base)/me"]
        let out = Pipe()
        curl.standardOutput = out
        try curl.run()
        curl.waitUntilExit()
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), #"{"user": "ada"}"#)

        let download = dir.appendingPathComponent("bytes.bin").path
        let saved = try PekitProcess.run(["request", "--send", "-o", download, "-v", "\(server.base)/redirect/302?to=/bytes/1000"])
        XCTAssertEqual(saved.stdout, "")
        // -v as curl's: the heads sent and received, for each request of the chain; then pekit's notes.
        XCTAssertTrue(saved.stderr.contains("\n> GET /redirect/302?to=/bytes/1000 HTTP/1.1\n> Host: 127.0.0.1:\(server.httpPort)\n"), saved.stderr)
        XCTAssertTrue(saved.stderr.contains("\n< HTTP/1.1 302 Found\n"), saved.stderr)
        XCTAssertTrue(saved.stderr.contains("\n> GET /bytes/1000 HTTP/1.1\n"), saved.stderr)
        XCTAssertTrue(saved.stderr.contains("\n* redirect: 302 GET \(server.base)/redirect/302?to=/bytes/1000 -> /bytes/1000\n* timing: dns "), saved.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: download)).count, 1000)

        // curl's -f: exit 22 and no body; --fail-with-body prints it; -I is the head only.
        let failed = try PekitProcess.run(["request", "-f", "\(server.base)/status/404"])
        XCTAssertEqual(failed.status, 22)
        XCTAssertEqual(failed.stdout, "")
        XCTAssertTrue(failed.stderr.hasPrefix("pekit request: the server answered 404"), failed.stderr)
        let withBody = try PekitProcess.run(["request", "--fail-with-body", "\(server.base)/status/404"])
        XCTAssertEqual(withBody.status, 22)
        XCTAssertEqual(withBody.stdout, "status 404\n")
        let head = try PekitProcess.run(["request", "-I", "\(server.base)/status/200"])
        XCTAssertTrue(head.stdout.hasPrefix("HTTP/1.1 200 OK\r\n") && head.stdout.hasSuffix("\r\n\r\n"), head.stdout)
        let quick = try PekitProcess.run(["request", "-sSLm", "5", "--max-redirs", "3", "\(server.base)/chain/2"])
        XCTAssertEqual(quick.status, 0, quick.stderr)
        let refused = try PekitProcess.run(["request", "--send", "http://127.0.0.1:1/"])
        XCTAssertEqual(refused.status, 7, "curl's exit status is its error code")
        XCTAssertEqual(refused.stderr.replacingOccurrences(of: #"after \d+ ms"#, with: "after 0 ms", options: .regularExpression), "pekit request: GET http://127.0.0.1:1/: Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server (curl error 7)\n")
        let badTimeout = try PekitProcess.run(["request", "--send", "--timeout", "soon", "\(server.base)/"])
        XCTAssertEqual(badTimeout.status, 2)
        XCTAssertEqual(badTimeout.stderr, "pekit request: --timeout takes a number of seconds more than 0 and at most 1000000, not 'soon' (see 'pekit request --help')\n")
        // The flags read by the send options' rows (SendOptions.fields), each in its row's words.
        for (flags, message) in [(["--http", "3"], #"--http takes "1.0", "1.1", "2" or "auto", not '3'"#),
                                 (["--max-redirs", "-1"], "--max-redirects takes a count from 0 to 1000, not '-1'"),
                                 (["--max-filesize", "x"], "--max-filesize takes a number of bytes, not 'x'"),
                                 (["--connect-timeout", "0"], "--connect-timeout takes a number of seconds more than 0 and at most 1000000, not '0'")] {
            let bad = try PekitProcess.run(["request"] + flags + ["\(server.base)/"])
            XCTAssertEqual(bad.status, 2)
            XCTAssertEqual(bad.stderr, "pekit request: \(message) (see 'pekit request --help')\n")
        }
        let auto = try PekitProcess.run(["request", "--http", "auto", "--no-follow", "--max-filesize", "100K", "\(server.base)/echo"])
        XCTAssertEqual(auto.status, 0, auto.stderr)
        let small = try PekitProcess.run(["request", "--max-filesize", "1k", "\(server.base)/bytes/1025"])
        XCTAssertEqual(small.status, 63, small.stderr)
        XCTAssertEqual(small.stderr, "pekit request: \(server.base)/bytes/1025: the response body is larger than 1024 bytes (--max-filesize); raise --max-filesize\n")
        // -4 / -6, as curl's: the server listens on 127.0.0.1, which IPv6 alone cannot reach.
        XCTAssertEqual(try PekitProcess.run(["request", "-4", "-sS", "\(server.base)/bytes/3"]).status, 0)
        let six = try PekitProcess.run(["request", "-6", "\(server.base)/bytes/3"])
        XCTAssertEqual(six.status, 7)
        XCTAssertTrue(six.stderr.hasSuffix("(curl error 7)\n"), six.stderr)
        let tls = try PekitProcess.run(["request", "--send", "--cacert", server.cacert, "--connect", "www.example.test:443=127.0.0.1:\(server.httpsPort)",
                                        "https://www.example.test/echo"])
        XCTAssertTrue(tls.stdout.contains(#""sni": "www.example.test""#), tls.stdout + tls.stderr)
    }

    /// libcurl reads the usual proxy variables (lower-case http_proxy, as curl does).
    func testProxyFromEnvironment() throws {
        let r = try PekitProcess.run(["run", "-e", #"print(pekit.http.get("http://logical.example.test/echo"):json().target)"#],
                                     environment: ["http_proxy": server.base, "NO_PROXY": ""])
        XCTAssertEqual(r.stdout, "http://logical.example.test/echo\n", r.stderr)
    }

    /// --trace-ascii writes what curl's does: the same sections and lines for the same request
    /// (the User-Agent and Accept lines aside, which differ by tool), from libcurl's transfer (a
    /// POST) and from pekit's own (a GET, which -v and --trace-ascii no longer send otherwise).
    func testTraceAsciiMatchesCurlsFormat() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        try traceMatchesCurls(["-d", "a=1"], "/bytes/5", sender: "libcurl (a request body)")
        try traceMatchesCurls([], "/bytes/5", sender: "pekit's HTTP/1.1 transfer")
        try traceMatchesCurls([], "/bytes/5?chunked=1", sender: "pekit's HTTP/1.1 transfer")
    }

    private func traceMatchesCurls(_ arguments: [String], _ path: String, sender: String) throws {
        let dir = try makeTemporaryDirectory("trace")
        let ours = dir.appendingPathComponent("ours.txt").path, theirs = dir.appendingPathComponent("theirs.txt").path
        let r = try PekitProcess.run(["request", "--trace-ascii", ours, "-H", "User-Agent:", "-H", "Accept-Language:", "-H", "Accept:"] + arguments + ["-o", "/dev/null", "\(server.base)\(path)"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try String(contentsOfFile: ours, encoding: .utf8).hasPrefix("== Info: sent by \(sender)\n"))
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "--trace-ascii", theirs, "-H", "User-Agent:", "-H", "Accept:"] + arguments + ["-o", "/dev/null", "\(server.base)\(path)"]
        try curl.run()
        curl.waitUntilExit()
        // What was sent, line by line; of what came back, the status line and the body. (The
        // other header lines are the server's, and how libcurl's reads split them can vary.)
        func sections(_ path: String) throws -> [String] {
            var out: [String] = [], section = ""
            for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init) {
                if line.hasPrefix("==") { section = ""; continue }
                if line.hasPrefix("=>") || line.hasPrefix("<=") { section = String(line.prefix(14)); if !line.hasPrefix("<= Recv header") { out.append(line) }; continue }
                let content = line.replacingOccurrences(of: #"^[0-9a-f]{4}: "#, with: "", options: .regularExpression)
                if section.hasPrefix("=>") || section.hasPrefix("<= Recv data") || content.hasPrefix("HTTP/1.1 ") { out.append(content) }
            }
            return out
        }
        // Sections in the order they came can differ (the test server answers before it reads the
        // body, so "Send data" may be reported after the answer): compared as a set of sections.
        // The body's bytes come in as many reads as the socket gives (split by timing): they are
        // compared as one section, in order.
        func grouped(_ lines: [String]) -> [String] {
            var groups: [String] = [], body: [String] = []
            var inBody = false
            for line in lines where !line.contains("Content-") {
                if line.hasPrefix("<= Recv data") { inBody = true; continue }
                if line.hasPrefix("=>") || line.hasPrefix("<=") || line.hasPrefix("HTTP/1.1 ") || groups.isEmpty {
                    inBody = false
                    groups.append(line)
                } else if inBody { body.append(line) } else { groups[groups.count - 1] += "\n" + line }
            }
            if !body.isEmpty { groups.append((["<= Recv data"] + body).joined(separator: "\n")) }
            return groups.sorted()
        }
        XCTAssertEqual(grouped(try sections(ours)), grouped(try sections(theirs)))
    }

    /// What a server says is escaped before it reaches a person's terminal: a CR or an escape
    /// sequence in a Location cannot rewrite the line.
    func testVerboseEscapesControlBytesFromTheServer() throws {
        let r = try PekitProcess.run(["request", "--send", "-v", "\(server.base)/redirect/302?to=/echo%0Dx%1B%5B31mRED"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("\n< Location: /echo\\rx\\x1B[31mRED\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("\n* redirect: 302 GET \(server.base)/redirect/302?to=/echo%0Dx%1B%5B31mRED -> /echo\\rx\\x1B[31mRED\n"), r.stderr)
        XCTAssertFalse(r.stderr.contains("\r"))
        XCTAssertFalse(r.stderr.contains("\u{1B}"))
    }

    /// --max-filesize, as curl's: a body over the limit fails, and nothing is left of -o's file.
    func testMaxFilesize() throws {
        let dir = try makeTemporaryDirectory("max-filesize")
        let out = dir.appendingPathComponent("out.bin").path
        let r = try PekitProcess.run(["request", "--send", "--max-filesize", "1000", "-o", out, "\(server.base)/bytes/5000"])
        XCTAssertEqual(r.status, 63, "curl's exit status for --max-filesize")
        XCTAssertEqual(r.stderr, "pekit request: \(server.base)/bytes/5000: the response body is larger than 1000 bytes (--max-filesize); raise --max-filesize\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "no temporary file left")
        let i = try PekitProcess.run(["request", "--send", "-i", "--max-filesize", "10", "\(server.base)/bytes/50"])
        XCTAssertEqual(i.stderr, "pekit request: \(server.base)/bytes/50: the response body is larger than 10 bytes (--max-filesize); write it to a file with -o FILE, or raise --max-filesize\n")
    }

    /// A header line past libcurl's limit is reported as that, not as "Out of memory".
    func testHugeHeaderLineSaysWhichLimit() throws {
        let r = try PekitProcess.run(["request", "--send", "\(server.base)/bigheader/1048576"])
        XCTAssertEqual(r.status, 27, "curl's exit status is its error code")
        XCTAssertEqual(r.stderr, "pekit request: GET \(server.base)/bigheader/1048576: a response header line is longer than libcurl accepts (100 KiB) (curl error 27)\n")
        XCTAssertEqual(try PekitProcess.run(["request", "--send", "\(server.base)/bigheader/50000"]).stdout, "ok", "under the limit")
    }

    /// SIGINT, SIGTERM or SIGHUP during a download leaves no temporary file; a stale one of a
    /// writer that died (SIGKILL) is swept by the next write to the same file.
    func testSignalsLeaveNoTemporaryFiles() throws {
        let dir = try makeTemporaryDirectory("signals")
        let out = dir.appendingPathComponent("out.bin").path
        let cases: [(Int32, [String])] = [
            (SIGINT, ["request", "--send", "-o", out, "\(server.base)/bytes/300000?chunked=1&pause=0.1"]),
            (SIGTERM, ["request", "--send", "-o", out, "\(server.base)/bytes/300000?chunked=1&pause=0.1"]),
            (SIGHUP, ["request", "--send", "-o", out, "\(server.base)/bytes/300000?chunked=1&pause=0.1"]),
            (SIGTERM, ["run", "-e", "pekit.http.get('\(server.base)/bytes/300000?chunked=1&pause=0.1', { sink = '\(out)' })"]),
            // Several at once (-Z): every file of the batch.
            (SIGINT, ["request", "-Z", "-o", out, "-o", out + "2", "-o", out + "3"] + Array(repeating: "\(server.base)/bytes/300000?chunked=1&pause=0.1", count: 3)),
        ]
        for (sig, args) in cases {
            let process = Process()
            process.executableURL = PekitProcess.binary
            process.arguments = args
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Until the temporary file exists (the transfer has started), at most 5 s.
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline, (try FileManager.default.contentsOfDirectory(atPath: dir.path)).isEmpty { Thread.sleep(forTimeInterval: 0.02) }
            kill(process.processIdentifier, sig)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "\(sig) \(args)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "signal \(sig): \(args)")
        }
        // A writer killed with SIGKILL cannot clean up: the next write to the same file does.
        let stale = dir.appendingPathComponent("out.bin.pekit-999999-abcdef").path
        FileManager.default.createFile(atPath: stale, contents: Data("partial".utf8))
        let r = try PekitProcess.run(["request", "--send", "-o", out, "\(server.base)/bytes/10"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["out.bin"])
    }

    /// Ctrl-C during a slow transfer stops it at once and exits 130.
    func testInterruptDuringTransfer() throws {
        try assertInterruptStops(#"pcall(pekit.http.get, "\#(server.base)/delay/10"); print("not reached")"#, after: 0.7)
    }

    /// Ctrl-C stops pekit.time.sleep at once, even inside pcall, and exits 130.
    func testInterruptDuringSleep() throws {
        try assertInterruptStops(#"pcall(pekit.time.sleep, 30); print("not reached")"#, after: 0.5)
    }

    /// Ctrl-C during a batch of downloads stops every one at once: no partial file is left.
    func testInterruptDuringABatch() throws {
        let dir = try makeTemporaryDirectory("batch-interrupt")
        let items = (1...6).map { "{ url = '\(server.base)/bytes/400000?chunked=1&pause=0.1', sink = '\(dir.path)/f\($0)' }" }
        try assertInterruptStops("pekit.http.all({ \(items.joined(separator: ", ")) }, { concurrency = 6 }); print('not reached')", after: 0.8)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
        // And in tasks.
        let spawned = (1...4).map { "pekit.spawn(function() pekit.http.get('\(server.base)/bytes/400000?chunked=1&pause=0.1', { sink = '\(dir.path)/t\($0)' }) end)" }
        try assertInterruptStops(spawned.joined(separator: " ") + " pekit.wait() print('not reached')", after: 0.8)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    /// Runs `script`, sends SIGINT after `seconds`, and checks pekit stops at once with 130.
    func assertInterruptStops(_ script: String, after seconds: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let process = Process()
        process.executableURL = PekitProcess.binary
        process.arguments = ["run", "-e", script]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let started = Date()
        try process.run()
        Thread.sleep(forTimeInterval: seconds)
        process.interrupt()
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, file: file, line: line)
        XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "pekit: interrupted\n", file: file, line: line)
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 130, file: file, line: line)
    }
}
