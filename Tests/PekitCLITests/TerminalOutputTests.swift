import Foundation
import PekitTestSupport
import XCTest

/// What a person sees at a terminal (run on a pseudo-terminal): JSON indented and coloured as
/// jq shows it, status lines and header names coloured; in a pipe, the bytes exactly as they came.
final class TerminalOutputTests: XCTestCase {
    /// ESC [ code m … ESC [ 0 m.
    func paint(_ text: String, _ code: String) -> String { "\u{1B}[\(code)m\(text)\u{1B}[0m" }

    func testResponseJSONAtATerminalAndInAPipe() throws {
        let server = try TestServer.shared()
        let url = "\(server.base)/cookies"
        let p = { (t: String) in self.paint(t, "1;39") }
        let coloured = p("{") + "\n  " + paint(#""cookie""#, "34;1") + p(":") + " " + paint(#""a=1""#, "0;32") + "\n" + p("}") + "\n"
        XCTAssertEqual(String(decoding: try PekitProcess.runInTerminal(["request", "--send", "-b", "a=1", url]), as: UTF8.self), coloured)
        // NO_COLOR and --color never: indented, not coloured.
        let indented = "{\n  \"cookie\": \"a=1\"\n}\n"
        XCTAssertEqual(String(decoding: try PekitProcess.runInTerminal(["request", "--send", "-b", "a=1", url], environment: ["NO_COLOR": "1"]), as: UTF8.self), indented)
        XCTAssertEqual(String(decoding: try PekitProcess.runInTerminal(["request", "--send", "--color", "never", "-b", "a=1", url]), as: UTF8.self), indented)
        // A pipe gets the server's bytes; --color always colours a pipe too (for less -R).
        XCTAssertEqual(try PekitProcess.run(["request", "--send", "-b", "a=1", url]).stdout, #"{"cookie": "a=1"}"#)
        XCTAssertEqual(try PekitProcess.run(["request", "--send", "--color", "always", "-b", "a=1", url]).stdout, coloured)
        XCTAssertEqual(try PekitProcess.run(["request", "--send", "--color", "sometimes", url]).stderr,
                       "pekit request: --color takes auto, always or never, not 'sometimes' (see 'pekit request --help')\n")
        // A body that is not JSON, or says it is and is not, is written as it came.
        XCTAssertEqual(String(decoding: try PekitProcess.runInTerminal(["request", "--send", "\(server.base)/status/404"]), as: UTF8.self),
                       String(decoding: try PekitProcess.run(["request", "--send", "\(server.base)/status/404"]).stdoutBytes, as: UTF8.self))
    }

    func testStatusLineAndHeaderNamesUnderInclude() throws {
        let server = try TestServer.shared()
        let shown = String(decoding: try PekitProcess.runInTerminal(["request", "-i", "\(server.base)/status/404"]), as: UTF8.self)
        XCTAssertTrue(shown.hasPrefix(paint("HTTP/1.1", "2") + " " + paint("404 Not Found", "1;31") + "\r\n" + paint("Server", "1;36") + ": "), shown)
        XCTAssertTrue(shown.contains("\r\n" + paint("Content-Type", "1;36") + ": "), shown)
        let piped = try PekitProcess.run(["request", "-i", "\(server.base)/status/404"]).stdout
        XCTAssertTrue(piped.hasPrefix("HTTP/1.1 404 Not Found\r\nServer: "), piped)
        // -v: standard error's lines, when it is a terminal.
        let verbose = String(decoding: try PekitProcess.runInTerminal(["request", "-v", "--no-progress", "-o", "/dev/null", "\(server.base)/status/200"]), as: UTF8.self)
        XCTAssertTrue(verbose.contains("> " + paint("GET /status/200 HTTP/1.1", "1") + "\n> " + paint("Host", "1;36") + ": 127.0.0.1:"), verbose)
        XCTAssertTrue(verbose.contains("< " + paint("HTTP/1.1", "2") + " " + paint("200 OK", "1;32") + "\n"), verbose)
    }

    func testQueryURLAndHARAtATerminal() throws {
        let decoded = String(decoding: try PekitProcess.runInTerminal(["query", "--decode", "--color", "never", "--server", "php", "a[]=1&a[]=2&b=x"]), as: UTF8.self)
        XCTAssertEqual(decoded, "{\n  \"a\": [\n    \"1\",\n    \"2\"\n  ],\n  \"b\": \"x\"\n}\n")
        XCTAssertEqual(try PekitProcess.run(["query", "--decode", "--server", "php", "a[]=1&a[]=2&b=x"]).stdout, #"{"a":["1","2"],"b":"x"}"# + "\n")
        let parsed = String(decoding: try PekitProcess.runInTerminal(["url", "parse", "https://h/p?q"]), as: UTF8.self)
        XCTAssertTrue(parsed.hasPrefix(paint("{", "1;39") + "\n  " + paint(#""href""#, "34;1") + paint(":", "1;39") + " " + paint(#""https://h/p?q""#, "0;32") + paint(",", "1;39") + "\n"), parsed)
        let har = HARCommandTests.fixtures.appendingPathComponent("chrome.har").path
        XCTAssertEqual(String(decoding: try PekitProcess.runInTerminal(["har", "list", har]), as: UTF8.self),
                       "1\tGET\thttps://api.example.com/status/200?page=2\t\(paint("200", "32"))\n2\tPOST\thttps://api.example.com/echo\t\(paint("200", "32"))\n")
    }

    /// `progress = true` on a send and on pekit.http.all draws pekit's own progress line on a
    /// terminal (no function to write); `false` draws none; a send to memory draws none unless asked.
    func testProgressTrueDrawsPekitsLine() throws {
        let server = try TestServer.shared()
        func run(_ chunk: String) throws -> String {
            String(decoding: try PekitProcess.runInTerminal(["run", "-e", chunk]), as: UTF8.self)
        }
        let asked = try run("local r = pekit.http.get('\(server.base)/bytes/300000', {progress = true}); print(r.bytes)")
        XCTAssertTrue(asked.contains("\r\u{1B}[K300.0 KB of 300.0 KB (100%)"), asked)
        XCTAssertTrue(asked.hasSuffix("\n300000\n"), asked)
        XCTAssertEqual(try run("print(pekit.http.get('\(server.base)/bytes/300000').bytes)"), "300000\n")
        let batch = try run("local r = pekit.http.all({'\(server.base)/bytes/10', '\(server.base)/bytes/20'}, {progress = true}); print(#r)")
        XCTAssertTrue(batch.contains("\r\u{1B}[K2/2 done, 0 failed, 0 in flight"), batch)
        XCTAssertEqual(try run("local r = pekit.http.all({'\(server.base)/bytes/10'}, {progress = false}); print(#r)"), "1\n")
        XCTAssertTrue(try run("pekit.http.get('\(server.base)/bytes/1', {progress = 1})").contains(#"field "progress": expected true, false or a function(info), got 1"#))
    }
}
