import XCTest
@testable import PekitCore

/// Issue 45's bugs that live in PekitCore, each found by a Swift user: error offsets that point
/// past the character, a setter that ignores a value without saying so, a jar's text without its
/// session cookies, a curl command that sends another path.
final class SwiftSurfaceBugTests: XCTestCase {
    func offset(_ input: String) -> Int? {
        do { _ = try WHATWGURL(input); return nil } catch let error as WHATWGURL.ParseError { return error.offset } catch { return nil }
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

    /// A jar's file text keeps its session cookies unless asked not to, as save(to:), curl's -c
    /// and the command line do.
    func testSerializedKeepsSessionCookies() throws {
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        _ = try jar.receive("sid=1", from: RequestURL("http://h.example/"))
        XCTAssertTrue(String(decoding: jar.serialized(.netscape), as: UTF8.self).hasSuffix("h.example\tFALSE\t/\tFALSE\t0\tsid\t1\n"))
        XCTAssertFalse(String(decoding: jar.serialized(.netscape, sessions: false), as: UTF8.self).contains("sid"))
    }

    /// pekit sends a path as it is; its curl command says --path-as-is when the path has dot
    /// segments, so curl sends the same (HTTPClientTests runs both against the test server).
    func testCurlKeepsDotSegments() throws {
        for (url, asIs) in [("http://h/a/../echo", true), ("http://h/a/%2E%2e/echo", true), ("http://h/./x", true), ("http://h/a/.b/c?x=/../", false), ("http://h/a..b", false)] {
            let curl = try RequestBuilder(url: url).build().curl()
            XCTAssertEqual(curl.contains(" --path-as-is "), asIs, curl)
        }
    }

    /// Values from Swift literals, printed as JSON (issue 45).
    func testValuesFromLiteralsPrintAsJSON() throws {
        let value: PekitValue = ["user": ["name": "ada", "tags": ["a", 1, 2.5, true, .null]], "z": [:], "a": []]
        XCTAssertEqual(value.description, #"{"user":{"name":"ada","tags":["a",1,2.5,true,null]},"z":{},"a":[]}"#)
        XCTAssertEqual("\(PekitValue.string(ByteString([0x61, 0xFF])))", #""a\u00ff""#)
        XCTAssertEqual(try Policy.rfc3986.queryString(["q": "a b", "n": 2]), "n=2&q=a%20b", "the policy sorts its keys")
    }

    /// `CookieJar()` keeps time by the system clock and refuses a public suffix's cookie
    /// (issue 45: a jar made with no arguments works as a browser's does).
    func testAPlainJarUsesTheSystemClockAndTheSuffixList() throws {
        let jar = CookieJar()
        XCTAssertEqual(jar.clock(), Timestamp.now(), accuracy: 5)
        guard case .rejected(_, _, let rule) = try jar.receive("a=1; Domain=com", from: RequestURL("https://example.com/")) else { return XCTFail("stored") }
        XCTAssertEqual(rule, .publicSuffix)
        _ = try jar.receive("b=1; Max-Age=60", from: RequestURL("https://example.com/"))
        XCTAssertEqual(try jar.header(for: RequestURL("https://example.com/")), "b=1")
    }
}

