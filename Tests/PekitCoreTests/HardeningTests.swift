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
                       .rejected(name: "t", reason: "Secure cookies can only be set from https (or loopback)"))
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
        FileManager.default.changeCurrentDirectoryPath(directory.path)
        defer { FileManager.default.changeCurrentDirectoryPath(saved) }
        try "x".write(toFile: "-A", atomically: false, encoding: .utf8)
        try "y".write(toFile: "-", atomically: false, encoding: .utf8)
        var builder = RequestBuilder(url: "http://h/up")
        builder.method = "POST"
        builder.boundary = "B"
        builder.multipart = [MultipartBody.Part(name: "f", filename: "x", source: .file("-A"))]
        let multipart = try builder.build().curl()
        XCTAssertTrue(multipart.contains("; cat ./-A; printf"), multipart)
        XCTAssertFalse(multipart.contains("cat -A"))
        var file = RequestBuilder(url: "http://h/up")
        file.method = "PUT"
        file.bodyFile = "-"
        XCTAssertTrue(try file.build().curl().hasSuffix(" --data-binary @./-"), "@- would read standard input")
    }
}
