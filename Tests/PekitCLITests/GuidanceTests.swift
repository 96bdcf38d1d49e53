import Foundation
import PekitTestSupport
import XCTest

/// Issue 33, the frictions of the first hour: what did not happen is said, and a near miss gets
/// its "did you mean".
final class GuidanceTests: XCTestCase {
    func testDidYouMean() throws {
        XCTAssertEqual(try PekitProcess.run(["encod", "x"]).stderr, "pekit: unknown command 'encod'; did you mean 'encode'? (see 'pekit help')\n")
        XCTAssertEqual(try PekitProcess.run(["hlep"]).stderr, "pekit: unknown command 'hlep'; did you mean 'help'? (see 'pekit help')\n")
        XCTAssertEqual(try PekitProcess.run(["frobnicate"]).stderr, "pekit: unknown command 'frobnicate' (see 'pekit help')\n")
        XCTAssertEqual(try PekitProcess.run(["request", "--sned", "http://h/"]).stderr,
                       "pekit request: unknown option '--sned'; did you mean '--send'? (see 'pekit request --help')\n")
        XCTAssertTrue(try PekitProcess.run(["encode", "--policy", "afnetworkin", "x"]).stderr
                        .hasPrefix("pekit encode: unknown policy \"afnetworkin\"; did you mean \"afnetworking\"? (no afnetworkin.lua"))
        XCTAssertEqual(try PekitProcess.run(["query", "--decode", "--server", "rak", "a=1"]).stderr,
                       "pekit query: unknown server 'rak'; did you mean 'rack'? (known: qs, php, rack, python, go, whatwg, node-querystring; "
                       + "frameworks: rails (rack), sinatra (rack), laravel (php), symfony (php), express (qs), django (python), flask (python), fastapi (python)) (see 'pekit query --help')\n")
        let field = try PekitProcess.run(["run", "-e", "pekit.http.get('http://127.0.0.1:1/', { folow = false })"])
        XCTAssertTrue(field.stderr.contains(#"pekit.http.get: bad argument #2 (unknown field "folow" (did you mean "follow"?); known: "#), field.stderr)
    }

    /// `r.json()` written with a dot says how to call it.
    func testAMethodCalledWithADot() throws {
        let (server, port) = try RequestCommandTests.startEcho(requests: 1)
        defer { server.terminate() }
        let r = try PekitProcess.run(["run", "-e", "local r = pekit.http.get('http://127.0.0.1:\(port)/') print(pcall(r.json)) print(r:header('Connection'))"])
        XCTAssertEqual(r.stdout, "false\tjson is a method of a response: call it with a colon, r:json()\nclose\n")
    }

    /// `--disallow` takes characters out of the allowed set, in order with `--allow`.
    func testDisallow() throws {
        XCTAssertEqual(try PekitProcess.run(["encode", "--policy", "afnetworking", "--disallow", "/?", "a/b?c&d"]).stdout, "a%2Fb%3Fc%26d\n")
        XCTAssertEqual(try PekitProcess.run(["encode", "--allow", "/", "--disallow", "/", "a/b"]).stdout, "a%2Fb\n")
        XCTAssertEqual(try PekitProcess.run(["encode", "--disallow", "/", "--allow", "/", "a/b"]).stdout, "a/b\n")
    }

    /// A request shown at a terminal says that it was not sent, and how to send it; in a pipe
    /// the bytes alone.
    func testAPreviewAtATerminalSaysItWasNotSent() throws {
        let dir = try makeTemporaryDirectory("preview")
        let pekit = PekitProcess.binary.path
        let terminal = try TerminalSession("sh -c '\(pekit) request --param a=1 http://h/; echo [done]; sleep 60'", directory: dir, tag: "preview")
        let screen = try terminal.screen(waitingFor: "[done]")
        XCTAssertTrue(screen.contains("pekit request: shown, not sent: --send (or any sending option, -i, -o FILE…) sends it"), screen)
        let piped = try PekitProcess.run(["request", "--param", "a=1", "http://h/"])
        XCTAssertEqual(piped.stderr, "")
    }

    /// Every error a command prints starts with its name, a plugin's too.
    func testOnePrefixEverywhere() throws {
        let dir = try makeTemporaryDirectory("prefix")
        try #"return { kind = "policy", order = function(a, b) error("boom") end }"#.write(toFile: dir.appendingPathComponent("bad.lua").path, atomically: true, encoding: .utf8)
        let r = try PekitProcess.run(["query", "--plugins", dir.path, "--policy", "bad", #"{"a":1,"b":2}"#])
        XCTAssertEqual(r.stderr, "pekit query: plugin \"bad\" (\(dir.path)/bad.lua): order: bad.lua:1: boom\n")
        XCTAssertEqual(r.status, 1)
    }

    /// A jar bound to a file: loaded when the file is there (a missing one is an empty jar),
    /// saved when the script ends and on jar:flush(); a file that is not a jar is refused at once.
    /// jar:load(path, {missing_ok = true}) reads no file on a first run.
    func testAJarBoundToAFile() throws {
        let dir = try makeTemporaryDirectory("bound")
        let path = dir.appendingPathComponent("jar.txt").path
        let first = try PekitProcess.run(["run", "-e", "local j = pekit.cookies.jar{ file = '\(path)' } j:receive('https://a.example/', { 's=1', 'p=2; Max-Age=100' })"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let second = try PekitProcess.run(["run", "-e", """
            local j = pekit.cookies.jar{ file = '\(path)' }
            print(j:header('https://a.example/'))
            j:receive('https://a.example/', { 't=3' })
            j:flush()
            print(#pekit.cookies.jar{ file = '\(path)' }:all())
            print(pekit.cookies.jar():load('\(dir.path)/none.txt', { missing_ok = true }))
            """])
        XCTAssertEqual(second.status, 0, second.stderr)
        let lines = second.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.prefix(2)), ["s=1; p=2", "3"])
        XCTAssertTrue(lines[2].hasPrefix("0\tpekit.array"), lines[2])
        let notes = dir.appendingPathComponent("notes.txt").path
        try "my notes\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let refused = try PekitProcess.run(["run", "-e", "pekit.cookies.jar{ file = '\(notes)' }"])
        XCTAssertTrue(refused.stderr.contains("pekit.cookies.jar: \(notes) does not look like a cookie jar (1 line skipped, none loaded); not replacing it; it would be replaced when the script ends"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes\n")
        XCTAssertTrue(try PekitProcess.run(["run", "-e", "pekit.cookies.jar():flush()"]).stderr.contains("jar.flush: this jar has no file: make it with pekit.cookies.jar{file = PATH}, or use jar:save(path)"))
    }

    /// A request to an address carrying another name's Host field stores the cookies under the
    /// address, as it should: said once, with the option that reaches the name at the address.
    func testCookiesFromAnAddressSentAHostField() throws {
        let (server, port) = try CookiesCommandTests.startCookieServer(["sid=1; Path=/"], requests: 5)
        defer { server.terminate() }
        let jar = try makeTemporaryDirectory("hostfield").appendingPathComponent("jar.txt").path
        let cli = try PekitProcess.run(["request", "--send", "-H", "Host: API.example.test", "--jar", jar, "http://127.0.0.1:\(port)/"])
        XCTAssertEqual(cli.status, 0, cli.stderr)
        XCTAssertEqual(cli.stderr, "pekit request: warning: cookies from 127.0.0.1 were stored under 127.0.0.1, not api.example.test: the Host field does not change whose cookies they are; to reach api.example.test at 127.0.0.1, put api.example.test in the URL and map it with --connect api.example.test:\(port)=127.0.0.1:\(port)\n")
        let plain = try PekitProcess.run(["request", "--send", "--jar", jar, "http://127.0.0.1:\(port)/"])
        XCTAssertEqual(plain.stderr, "", "no Host field, nothing to say")
        let lua = try PekitProcess.run(["run", "-e", """
            local jar = pekit.cookies.jar()
            for _ = 1, 2 do pekit.http.get("http://127.0.0.1:\(port)/", { headers = { Host = "api.example.test:8080" }, jar = jar }) end
            print(jar:header("http://127.0.0.1/"), jar:header("http://api.example.test/"))
            """])
        XCTAssertEqual(lua.stdout, "sid=1\tnil\n")
        XCTAssertEqual(lua.stderr, "pekit.http: warning: cookies from 127.0.0.1 were stored under 127.0.0.1, not api.example.test: the Host field does not change whose cookies they are; to reach api.example.test at 127.0.0.1, put api.example.test in the URL and map it with connect = {[\"api.example.test:\(port)\"] = \"127.0.0.1:\(port)\"}\n")
    }
}
