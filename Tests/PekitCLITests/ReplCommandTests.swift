import Foundation
import PekitTestSupport
import XCTest

final class ReplCommandTests: XCTestCase {
    func testPipedRepl() throws {
        let input = """
            print(pekit.encode("a b"))
            pekit.encode("汉字&ss", pekit.charset.letters)
            {b = {1, 2}, a = pekit.null}
            for i = 1,
            2 do print(i) end
            error("boom")
            1 + 1
            :trace

            """
        let r = try PekitProcess.run(["repl"], stdin: Array(input.utf8))
        // An error says what went wrong; its traceback is there when asked for (:trace).
        XCTAssertEqual(r.stdout, "a%20b\n\"%E6%B1%89%E5%AD%97%26ss\"\n{ a = pekit.null, b = { 1, 2 } }\n1\n2\n2\nstack traceback:\n\t[C]: in function 'error'\n\tstdin:1: in main chunk\n")
        XCTAssertEqual(r.stderr, "stdin:1: boom\n")
        XCTAssertEqual(r.status, 1, "a failed line makes the exit status 1")
        let clean = try PekitProcess.run(["repl"], stdin: Array("x = 1\nx\n:quit\nprint('not reached')\n".utf8))
        XCTAssertEqual(clean.stdout, "1\n")
        XCTAssertEqual(clean.status, 0)
        let open = try PekitProcess.run(["repl"], stdin: Array("for i = 1, 2 do\n".utf8))
        XCTAssertEqual(open.stderr, "pekit repl: the input ended inside an unfinished statement\n")
        XCTAssertEqual(open.status, 1)
    }

    /// Values print for a person: a URL with its fields, a request as the first lines of its
    /// message, JSON values as JSON-like text, pekit.inspect's text as text; jars as what they
    /// are, a script's own __tostring and __name honoured, long strings folded.
    func testReplPrintsValuesReadably() throws {
        let input = """
            pekit.url.parse("http://例子.中国/a b")
            pekit.request{url = "http://h/", json = {a = 1}}
            pekit.json.decode('{"b": [1, null, {"c": true}], "a": "x"}')
            pekit.ordered{{"method", "GET"}, {"n", 1}}
            pekit.inspect({a = 1, b = {2, 3}})
            pekit.cookies.jar()
            string.rep("x", 500)
            setmetatable({a = 1}, {__name = "Point"})
            setmetatable({}, {__tostring = function() return "custom!" end})
            {u = pekit.url.parse("http://h/"), s = "tab\there\0"}

            """
        let r = try PekitProcess.run(["repl"], stdin: Array(input.utf8))
        XCTAssertEqual(r.stdout, """
            pekit.url.parse("http://xn--fsqu00a.xn--fiqs8s/a%20b")
              origin   = "http://xn--fsqu00a.xn--fiqs8s"
              protocol = "http:"
              username = ""
              password = ""
              host     = "xn--fsqu00a.xn--fiqs8s"
              hostname = "xn--fsqu00a.xn--fiqs8s"
              port     = ""
              pathname = "/a%20b"
              search   = ""
              hash     = ""
            GET / HTTP/1.1
            Host: h
            User-Agent: pekit/0.1.0 (Linux; x86_64)
            Accept: */*
            Content-Length: 7
            Content-Type: application/json
            (and 7 bytes of body: r.body; the whole message: r:raw())
            {"b": [1, null, {"c": true}], "a": "x"}
            {"method": "GET", "n": 1}
            { a = 1, b = { 2, 3 } }
            cookie jar (0 cookies)
            "\(String(repeating: "x", count: 200))" … (500 bytes)
            Point { a = 1 }
            custom!
            { s = "tab\\there\\0", u = pekit.url.parse("http://h/") }

            """)
        XCTAssertEqual(r.stderr, "")
    }

    /// Help inside the REPL: by name, by value, and the CLI's own copy of the reference.
    func testHelpInside() throws {
        let r = try PekitProcess.run(["repl"], stdin: Array("help(pekit.url.parse)\n:help jar:receive\n".utf8))
        XCTAssertTrue(r.stdout.hasPrefix("pekit.url.parse(input [, base])\n  a URL as the WHATWG URL Standard"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("jar:receive(url, set_cookie_or_list [, ctx])\n  {stored = {cookies}, rejected = {{name=, reason=, rule=}}, warnings = {{name=, reason=, rule=}}, removed = n, evicted = n} (rule: the storage rule's name, host-prefix, samesite-cross-site…, as docs/cookies.md lists them; a warning is what was ignored in a stored cookie, attribute-too-long); ctx is the response's context, as jar:header takes it: a cross-site one that is not a top-level navigation (whatever its method) cannot set a SameSite=Lax or Strict cookie, http_only = false is a non-HTTP API, top_level = url the top-level page a Partitioned cookie is kept under (CHIPS: its site, partition_key); the tables in stored are made when the list is first read, by any means, so a script that never reads it does not pay for them\nexample:\n  > #pekit.cookies.jar():receive(\"https://example.com/\", \"sid=1; Secure\").stored\n  1\n"), r.stdout)
        let table = try PekitProcess.run(["help", "--lua-api"])
        XCTAssertTrue(table.stdout.hasPrefix("# Lua API reference\n"))
        XCTAssertTrue(table.stdout.contains("\n| call | returns |\n|---|---|\n| `pekit.encode(s [, policy])` |"))
    }

    /// A real terminal: tmux runs the REPL; keys are typed and the screen is read back. Under
    /// C.UTF-8 and en_US.UTF-8 (pekit falls back to C.UTF-8 where the latter is not installed).
    func testReplInATerminalUnderCUTF8() throws { try terminalSession(lang: "C.UTF-8") }
    func testReplInATerminalUnderEnUS() throws { try terminalSession(lang: "en_US.UTF-8") }

    func terminalSession(lang: String) throws {
        let home = try makeTemporaryDirectory("home")
        let terminal = try TerminalSession(
            "env -u PEKIT_HISTORY -u LC_ALL -u LC_CTYPE HOME=\(home.path) XDG_STATE_HOME= LANG=\(lang) TERM=xterm \(PekitProcess.binary.path) repl",
            directory: home, tag: String(lang.prefix(2)))
        XCTAssertTrue(try terminal.screen(waitingFor: "> ").contains("pekit 0.1.0 (Lua 5.4)"))
        try terminal.send("pekit.encode('a b', 'form')", "Enter")
        XCTAssertTrue(try terminal.screen(waitingFor: "\"a+b\"").contains("> pekit.encode('a b', 'form')\n\"a+b\"\n"))
        // Non-ASCII typed at the prompt reaches Lua (libedit needs a UTF-8 LC_CTYPE for it).
        try terminal.send("pekit.encode('漢字&ss')", "Enter")
        XCTAssertTrue(try terminal.screen(waitingFor: "%26ss").contains("\"%E6%BC%A2%E5%AD%97%26ss\""))
        try terminal.send("function f()", "Enter")
        XCTAssertTrue(try terminal.screen(waitingFor: ">>").contains("\n>>"), "continuation prompt")
        try terminal.send("return 7 end", "Enter", "f()", "Enter")
        XCTAssertTrue(try terminal.screen(waitingFor: "\n7\n").contains("\n7\n"))
        // Ctrl-C clears a typed line and a statement in progress; the session goes on.
        try terminal.send("abc")
        _ = try terminal.screen(waitingFor: "> abc")
        try terminal.send("C-c")
        XCTAssertTrue(try terminal.screen(waitingFor: "abc^C").contains("> abc^C\n>"))
        try terminal.send("for i = 1, 2 do", "Enter")
        _ = try terminal.screen(waitingFor: ">> ")
        try terminal.send("C-c")
        // The fresh prompt first: a line typed before it would be read at the old one.
        _ = try terminal.screen(waitingFor: ">> ^C\n> ")
        try terminal.send("40 + 2", "Enter")
        XCTAssertTrue(try terminal.screen(waitingFor: "\n42\n").contains(">> ^C\n> 40 + 2\n42\n"))
        // Tab completes names, then policy names in the string argument.
        try terminal.send("pekit.q", "Tab")
        _ = try terminal.screen(waitingFor: "pekit.query.")
        try terminal.send("enc", "Tab")
        _ = try terminal.screen(waitingFor: "pekit.query.encode(")
        try terminal.send("{a = 1}, \"afn", "Tab")
        _ = try terminal.screen(waitingFor: "afnetworking\"")
        try terminal.send(")", "Enter")
        XCTAssertTrue(try terminal.screen(waitingFor: "\"a=1\"").contains("> pekit.query.encode({a = 1}, \"afnetworking\")\n\"a=1\"\n"))
        // Text that is not ASCII earlier on the line (libedit counts characters, not bytes).
        try terminal.send("pekit.query.encode({a = \"é\"}, \"afn", "Tab")
        _ = try terminal.screen(waitingFor: "\"é\"}, \"afnetworking\"")
        try terminal.send(")", "Enter")
        XCTAssertTrue(try terminal.screen(waitingFor: "\"a=%C3%A9\"").contains("> pekit.query.encode({a = \"é\"}, \"afnetworking\")\n\"a=%C3%A9\"\n"))
        // On an empty line it says how to leave.
        try terminal.send("C-c")
        XCTAssertTrue(try terminal.screen(waitingFor: "again").contains("(Ctrl-C again or Ctrl-D to leave)"))
        try terminal.send(":quit", "Enter")
        // The history file is rewritten after each line: poll until it holds the line (or time out).
        let wanted = #"pekit.encode('a\040b',\040'form')"#
        var history = ""
        for _ in 0..<100 {
            history = (try? String(contentsOf: home.appendingPathComponent(".local/state/pekit/history"), encoding: .utf8)) ?? ""
            if history.contains(wanted) { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        // libedit's history format writes a space as \040.
        XCTAssertTrue(history.contains(wanted), history)
    }
}
