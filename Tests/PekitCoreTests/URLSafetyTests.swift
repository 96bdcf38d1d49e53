import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore

/// URLs that must not fool pekit or its users (issues 14, 45): loopback by address, control
/// bytes refused, curl operands that cannot become options, error offsets at the character,
/// setters that say whether they took a value, curl's path kept.
final class URLSafetyTests: XCTestCase {
    func offset(_ input: String) -> Int? {
        do { _ = try WHATWGURL(input); return nil } catch let error as WHATWGURL.ParseError { return error.offset } catch { return nil }
    }

    /// Only real loopback is potentially trustworthy: a name that starts with "127." is not.
    func testLoopbackIsAnAddressOrLocalhostNotAPrefix() throws {
        let trustworthy = ["http://127.0.0.1/", "http://127.255.0.9:8080/", "http://[::1]/", "http://[0:0:0:0:0:0:0:1]:80/",
                           "http://localhost/", "http://app.localhost/", "https://example.com/"]
        let plain = ["http://127.0.0.1.example.com/", "http://127.0.0.1x.example.com/", "http://127.example.com/",
                     "http://128.0.0.1/", "http://[::2]/", "http://localhost.example.com/", "http://example.com/"]
        for url in trustworthy { XCTAssertTrue(try RequestURL(url).isSecureContext, url) }
        for url in plain { XCTAssertFalse(try RequestURL(url).isSecureContext, url) }

        let jar = CookieJar(publicSuffixes: nil, clock: { 1000 })
        _ = try jar.receive("s=T; Domain=example.com; Secure", from: RequestURL("https://www.example.com/"))
        XCTAssertNil(try jar.header(for: RequestURL("http://127.0.0.1.example.com/")))
        XCTAssertNil(try jar.header(for: RequestURL("http://127.0.0.1x.example.com/")))
        XCTAssertEqual(try jar.header(for: RequestURL("https://127.0.0.1.example.com/")), "s=T")
        // A Secure cookie set over plain HTTP by a host that only looks like loopback is refused.
        XCTAssertEqual(try jar.receive("t=1; Secure", from: RequestURL("http://127.0.0.1.example.com/")),
                       .rejected(name: "t", reason: "Secure cookies can only be set from https (or loopback)", rule: .secureFromInsecureOrigin))
    }

    /// CR, LF, NUL (any control byte) never reach a request line: the URL is refused, and the
    /// message shows the bytes escaped.
    func testControlBytesInURLsAreRefused() {
        let cases: [(String, String)] = [
            ("http://h/x\r\nX-Evil: 1", #"invalid URL "http://h/x\x0D\x0AX-Evil: 1": control byte 0x0D (CR) at byte 11; encode it (%0D) if it is data"#),
            ("http://h/a\nb", #"invalid URL "http://h/a\x0Ab": control byte 0x0A (LF) at byte 11; encode it (%0A) if it is data"#),
            ("http://h/\0", #"invalid URL "http://h/\x00": control byte 0x00 (NUL) at byte 10; encode it (%00) if it is data"#),
            ("http://h\t/", #"invalid URL "http://h\x09/": control byte 0x09 (tab) at byte 9; encode it (%09) if it is data"#),
            ("http://h/?q=\u{7F}", #"invalid URL "http://h/?q=\x7F": control byte 0x7F (DEL) at byte 13; encode it (%7F) if it is data"#),
        ]
        for (url, message) in cases {
            XCTAssertThrowsError(try RequestURL(url)) { XCTAssertEqual("\($0)", message) }
            var builder = RequestBuilder(url: url)
            builder.method = "GET"
            XCTAssertThrowsError(try builder.build(), url)
        }
    }

    /// A generated command line never lets a user-controlled operand read as an option.
    func testCurlOperandsCannotBeOptions() throws {
        let directory = try makeTemporaryDirectory("curl-operands")
        let saved = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(directory.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(saved) }
        try "x".write(toFile: "-A", atomically: false, encoding: .utf8)
        try "y".write(toFile: "-", atomically: false, encoding: .utf8)
        var builder = RequestBuilder(url: "http://h/up")
        builder.method = "POST"
        builder.boundary = "B"
        builder.body = .multipart([MultipartBody.Part(name: "f", filename: "x", source: .file("-A"))])
        let multipart = try builder.build().curl()
        XCTAssertTrue(multipart.contains("; cat ./-A; printf"), multipart)
        XCTAssertFalse(multipart.contains("cat -A"))
        var file = RequestBuilder(url: "http://h/up")
        file.method = "PUT"
        file.body = .file("-", contentType: nil)
        XCTAssertTrue(try file.build().curl().hasSuffix(" --data-binary @./-"), "@- would read standard input")
    }

    /// The offset is the bad character's, 1-based, in the input as given: counted before the
    /// leading spaces and the tabs the parser drops, and at a percent-encoded one's `%`.
    func testParseErrorOffsetsPointAtTheCharacter() {
        XCTAssertEqual(offset("http://exa mple.com/"), 11)
        XCTAssertEqual(offset("  http://exa mple.com/"), 13)
        XCTAssertEqual(offset("\thttp://e\txa mple.com/"), 13)
        XCTAssertEqual(offset("http://exa%20mple.com/"), 11)
        XCTAssertEqual(offset("http://例え mple.com/"), 10)
    }

    /// A setter says whether it took the value (the URL is as it was when it did not).
    func testSettersSayWhetherTheyTookTheValue() throws {
        var url = try WHATWGURL("http://example.com:81/a")
        XCTAssertFalse(url.setPort("not-a-port"))
        XCTAssertEqual(url.href, "http://example.com:81/a")
        XCTAssertFalse(url.setPort("99999"))
        XCTAssertTrue(url.setPort("8080abc"))
        XCTAssertEqual(url.href, "http://example.com:8080/a")
        XCTAssertTrue(url.setPort(""))
        XCTAssertEqual(url.href, "http://example.com/a")
        XCTAssertFalse(url.setHost("exa mple.com"))
        XCTAssertTrue(url.setHost("example.org:9"))
        XCTAssertEqual(url.href, "http://example.org:9/a")
        XCTAssertFalse(url.setProtocol("mailto"))
        XCTAssertTrue(url.setProtocol("https"))
        var mail = try WHATWGURL("mailto:a@b")
        XCTAssertFalse(mail.setPort("1"))
        XCTAssertFalse(mail.setPathname("/x"))
    }

    /// pekit sends a path as it is; its curl command says --path-as-is when the path has dot
    /// segments, so curl sends the same (HTTPClientTests runs both against the test server).
    func testCurlKeepsDotSegments() throws {
        for (url, asIs) in [("http://h/a/../echo", true), ("http://h/a/%2E%2e/echo", true), ("http://h/./x", true), ("http://h/a/.b/c?x=/../", false), ("http://h/a..b", false)] {
            let curl = try RequestBuilder(url: url).build().curl()
            XCTAssertEqual(curl.contains(" --path-as-is "), asIs, curl)
        }
    }
}
