import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore

/// Issue 14: what let someone in.
final class HardeningTests: XCTestCase {
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

    /// One poisoned cookie must not block a domain forever: refused on receipt, skipped on load.
    func testPoisonedCookiesAreRefusedAndSkipped() throws {
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        XCTAssertEqual(try jar.receive("poison=x\u{01}y; Domain=example.com", from: RequestURL("https://www.example.com/")),
                       .rejected(name: "poison", reason: "the value holds control byte 0x01 at byte 2 (ignored, as RFC 6265bis section 5.6 says)", rule: .controlCharacter))
        XCTAssertEqual(try jar.receive("bad\u{7F}name=1", from: RequestURL("https://www.example.com/")),
                       .rejected(name: "bad\u{7F}name", reason: "the name holds control byte 0x7F at byte 4 (ignored, as RFC 6265bis section 5.6 says)", rule: .controlCharacter))
        // A tab in a value is kept, as browsers keep it (RFC 6265bis); in a name it is refused,
        // as curl refuses it: cookies.txt could not carry it there.
        if case .stored = try jar.receive("tab=a\tb", from: RequestURL("https://www.example.com/")) {} else { XCTFail("a tab in a value") }
        XCTAssertEqual(try jar.receive("t\tb=1", from: RequestURL("https://www.example.com/")),
                       .rejected(name: "t\tb", reason: "the name holds control byte 0x09 at byte 2 (a cookies.txt line could not carry it in a name; curl refuses it too)", rule: .controlCharacter))
        let file = ".example.com\tTRUE\t/\tFALSE\t0\tpoison\tx\u{01}y\n.example.com\tTRUE\t/\tFALSE\t0\tbig\t" + String(repeating: "v", count: 5000)
            + "\n.example.com\tTRUE\t/\tFALSE\t0\tok\t1\n"
        let loaded = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        let (count, warnings) = try loaded.load(Array(file.utf8), format: .netscape, name: "jar.txt")
        XCTAssertEqual(count, 1)
        XCTAssertEqual(warnings, [
            "jar.txt:1: cookie \"poison\": the value holds control byte 0x01 at byte 2 (ignored, as RFC 6265bis section 5.6 says); line skipped",
            "jar.txt:2: cookie \"big\": name and value are 5003 bytes; the limit is 4096; line skipped",
        ])
        XCTAssertEqual(try loaded.header(for: RequestURL("https://www.example.com/")), "ok=1")
    }

    /// Expiry is capped at 400 days (RFC 6265bis), so no stored number is too large to list or
    /// save; NaN is refused.
    func testExpiryIsCappedAndNaNRefused() throws {
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_000_000 })
        try jar.set(Cookie(name: "far", value: "1", domain: "x.example", expires: 1e300))
        XCTAssertEqual(jar.all.first?.expires, 1_000_000 + 400 * 86400)
        _ = try jar.receive("m=1; Max-Age=99999999999", from: RequestURL("http://x.example/"))
        _ = try jar.receive("e=1; Expires=Fri, 31 Dec 9999 23:59:59 GMT", from: RequestURL("http://x.example/"))
        XCTAssertEqual(Set(jar.all.map(\.expires)), [1_000_000 + 400 * 86400])
        XCTAssertThrowsError(try jar.set(Cookie(name: "nan", value: "1", domain: "x.example", expires: .nan))) {
            XCTAssertEqual("\($0)", "expires is not a number (NaN); give seconds since 1970")
        }
        let json = String(decoding: jar.serialized(.json, sessions: true), as: UTF8.self)
        XCTAssertTrue(json.contains("\"expires\":35560000"), json)
        // A file written with a huge expiry by an older pekit loads, capped.
        let old = CookieJar(publicSuffixes: nil, clock: { 1_000_000 })
        let (loaded, warnings) = try old.load(Array(#"{"pekit_cookies":1,"cookies":[{"name":"a","value":"1","domain":"x.example","path":"/","expires":1e300}]}"#.utf8), format: .json, name: "j.json")
        XCTAssertEqual(loaded, 1)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(old.all.first?.expires, 1_000_000 + 400 * 86400)
    }

    /// A 40,000-line jar loads with the limits applied once at the end (it took 19 s when each
    /// line scanned for the least recently used cookie): the result is what the limits say.
    func testLargeJarLoadsWithTheLimitsApplied() throws {
        var text = ""
        for i in 0..<40_000 { text += "d\(i % 400).example\tFALSE\t/\tFALSE\t0\tc\(i)\tv\n" }
        let tick = CallbackState(1_000_000.0)
        let jar = CookieJar(publicSuffixes: nil, clock: { tick.value += 1; return tick.value })
        let (loaded, warnings) = try jar.load(Array(text.utf8), format: .netscape, name: "big.txt")
        XCTAssertEqual(loaded, 40_000)
        XCTAssertEqual(warnings, [])
        // Every domain keeps its 50 most recent (lines 20000…), the jar its 3000 most recent.
        XCTAssertEqual(jar.count, 3000)
        XCTAssertEqual(jar.evicted, 37_000)
        XCTAssertEqual(Set(jar.all.map(\.name)), Set((37_000..<40_000).map { "c\($0)" }))
        // A repeated line replaces, it does not add.
        let again = CookieJar(publicSuffixes: nil, clock: { 5 })
        XCTAssertEqual(try again.load(Array("x.example\tFALSE\t/\tFALSE\t0\ta\t1\nx.example\tFALSE\t/\tFALSE\t0\ta\t2\n".utf8), format: .netscape, name: "r").loaded, 2)
        XCTAssertEqual(again.all.map(\.value), ["2"])
    }
}
