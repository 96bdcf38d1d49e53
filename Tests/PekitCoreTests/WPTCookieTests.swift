import Foundation
import XCTest
@testable import PekitCore

/// Issue 43: web-platform-tests' cookie parsing tests (Fixtures/cookies/wpt-vectors.json, made
/// by make_wpt_vectors.py from the WPT files it names), run against the jar as WPT runs them in a
/// browser: each string a Set-Cookie field of a response from
/// http://web-platform.test/cookies/resources/cookie.py, then document.cookie (a non-HTTP read) on
/// the test's page, or on /cookies/resources/echo-cookie.html for a test of the default path.
final class WPTCookieTests: XCTestCase {
    struct Test: Decodable { let name: String, cookies: [String], expected: String, defaultPath: Bool }
    struct File: Decodable { let path: String, source: String, tests: [Test] }
    struct Vectors: Decodable { let files: [File] }

    func testWebPlatformTestsCookieParsing() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "wpt-vectors", withExtension: "json", subdirectory: "Fixtures/cookies"))
        let vectors = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
        let setter = try RequestURL("http://web-platform.test/cookies/resources/cookie.py")
        let suffixes = try PublicSuffixList.load()
        var count = 0, failures: [String] = []
        for file in vectors.files {
            let page = try RequestURL("http://web-platform.test/" + file.path)
            let reader = try RequestURL("http://web-platform.test/cookies/resources/echo-cookie.html")
            for test in file.tests {
                count += 1
                let jar = CookieJar(publicSuffixes: suffixes, clock: { 1_700_000_000 })
                for cookie in test.cookies {
                    // A CR or LF ends the field on the wire: the browser receives what comes before.
                    let field = String(cookie.prefix { $0 != "\n" && $0 != "\r" })
                    _ = try jar.receive(field, from: setter)
                }
                let got = try jar.header(for: test.defaultPath ? reader : page, context: CookieJar.RequestContext(http: false)) ?? ""
                if got != test.expected { failures.append("\(file.path): \(test.name): expected \"\(test.expected.prefix(60))\", got \"\(got.prefix(60))\"") }
            }
        }
        XCTAssertGreaterThan(count, 100)
        XCTAssertEqual(failures, [], "\(failures.count) of \(count) WPT cookie tests differ:\n" + failures.joined(separator: "\n"))
    }
}
