import Foundation
import PekitTestSupport
import XCTest

/// Issue 71: `pekit test --report html:DIR` is one self-contained page, checked in a real browser
/// (Debian's chromium, headless): the DOM it builds holds every test with its status and time,
/// the exchange of each (a passing one's too), the failed assertion with its diff, no secret,
/// and nothing fetched from anywhere; and a screenshot of it is made (kept beside the report).
final class TestHTMLReportTests: XCTestCase {
    /// Debian's chromium, which scripts/test installs.
    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func browse(_ args: [String], in dir: URL) throws -> PekitResult {
        let browser = try XCTUnwrap(Self.chromium, "chromium is not installed (scripts/test installs it: apt-get install chromium)")
        // No sandbox (tests run as root in CI); no GPU, no network beyond the file.
        return try PekitProcess.run(program: URL(fileURLWithPath: browser),
                                    ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions",
                                     "--user-data-dir=" + dir.appendingPathComponent("profile").path] + args, directory: dir)
    }

    func testTheReportRendersInABrowser() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-test-html")
        let tests = dir.appendingPathComponent("tests")
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try #"""
            local base = pekit.vars.BASE
            test("login <works>", function(t)
              expect(pekit.http.get(base .. "/echo?token=" .. pekit.vars.TOKEN)):status(200):json("$.method", "GET")
            end)
            test("a wrong status", function() expect(pekit.http.get(base .. "/status/404")):status(200) end)
            test("json diff", function() expect(pekit.http.get(base .. "/echo?a=1")):json("$.method", { "GET" }) end)
            test("skipped", function() skip("not today") end)
            """#.write(to: tests.appendingPathComponent("html_test.lua"), atomically: true, encoding: .utf8)
        let run = try PekitProcess.run(["test", "--var", "BASE=\(server.base)", "--secret", "TOKEN=sekrit-7f3a", "--report", "html:out/report"], directory: dir)
        XCTAssertEqual(run.status, 1, run.stderr)
        let page = dir.appendingPathComponent("out/report/index.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        // Self-contained: nothing the page would fetch.
        XCTAssertNil(html.range(of: #"(src|href)\s*=|@import|url\("#, options: .regularExpression), "the page refers to something outside it")
        XCTAssertFalse(html.contains("sekrit-7f3a"))

        let dom = try Self.browse(["--dump-dom", page.absoluteString], in: dir)
        XCTAssertEqual(dom.status, 0, dom.stderr)
        let text = dom.stdout
        func count(_ pattern: String) -> Int {
            (try? NSRegularExpression(pattern: pattern).numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))) ?? -1
        }
        XCTAssertTrue(text.contains(#"<p id="summary" class="bad">1 passed, 2 failed, 1 skipped, 0 errored in "#), text)
        XCTAssertEqual(count(#"<details class="test passed" id="t1">"#), 1, text)
        XCTAssertEqual(count(#"<details class="test failed" id="t\d" open="">"#), 2, text)
        XCTAssertEqual(count(#"<details class="test skipped" id="t4">"#), 1, text)
        XCTAssertTrue(text.contains(#"<span class="name">login &lt;works&gt;</span>"#), "a test's name is text, not markup")
        XCTAssertTrue(text.contains(#"<p class="message">tests/html_test.lua:5: expected status 200, got 404</p>"#), text)
        XCTAssertTrue(text.contains(#"<p class="message">tests/html_test.lua:6: expected $.method to be ["GET"], got "GET"</p>"#), text)
        // The passing test's exchange, its secret redacted in the request line and in the echoed body.
        XCTAssertTrue(text.contains("GET /echo?token=&lt;secret TOKEN&gt; HTTP/1.1"), text)
        XCTAssertTrue(text.contains(#""target": "/echo?token=&lt;secret TOKEN&gt;""#), text)
        XCTAssertFalse(text.contains("sekrit-7f3a"))
        XCTAssertEqual(count("<h3>the response</h3>"), 3)
        XCTAssertTrue(text.contains("<p class=\"message\">skipped: not today</p>"), text)

        let shot = dir.appendingPathComponent("out/report/screenshot.png")
        let picture = try Self.browse(["--window-size=1100,1400", "--screenshot=" + shot.path, page.absoluteString], in: dir)
        XCTAssertEqual(picture.status, 0, picture.stderr)
        let png = try Data(contentsOf: shot)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: the width and height asked for.
        XCTAssertEqual(png.subdata(in: 16..<24).map { $0 }, [0, 0, 0x04, 0x4C, 0, 0, 0x05, 0x78])
    }
}
