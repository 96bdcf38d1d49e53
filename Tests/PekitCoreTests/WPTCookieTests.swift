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
    struct Vectors: Decodable { let files: [File], scenarios: [Scenario] }
    /// A test of a scenario file: its steps, in order (see make_wpt_vectors.py).
    struct Step: Decodable {
        let set: String?, from: String?, clear: Bool?, read: String?, http: Bool?
        let expected: String??, starts_with: String?, value_of: String?
        // `expected: null` (a cookie that must be absent) is not `expected` missing.
        enum CodingKeys: String, CodingKey { case set, from, clear, read, http, expected, starts_with, value_of }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            set = try c.decodeIfPresent(String.self, forKey: .set); from = try c.decodeIfPresent(String.self, forKey: .from)
            clear = try c.decodeIfPresent(Bool.self, forKey: .clear); read = try c.decodeIfPresent(String.self, forKey: .read)
            http = try c.decodeIfPresent(Bool.self, forKey: .http)
            expected = c.contains(.expected) ? .some(try c.decodeIfPresent(String.self, forKey: .expected)) : .none
            starts_with = try c.decodeIfPresent(String.self, forKey: .starts_with); value_of = try c.decodeIfPresent(String.self, forKey: .value_of)
        }
    }
    struct ScenarioTest: Decodable { let name: String, steps: [Step] }
    struct Scenario: Decodable { let path: String, source: String, page: String, tests: [ScenarioTest] }

    static func vectors() throws -> Vectors {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "wpt-vectors", withExtension: "json", subdirectory: "Fixtures/cookies"))
        return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }

    func testWebPlatformTestsCookieParsing() throws {
        let vectors = try Self.vectors()
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

    /// WPT's path and prefix files, whose tests set cookies by HTTP and by document.cookie, clear
    /// the jar, and read a Cookie header or document.cookie in a frame, each as WPT asserts it.
    func testWebPlatformTestsCookieScenarios() throws {
        let vectors = try Self.vectors()
        let suffixes = try PublicSuffixList.load()
        var count = 0, failures: [String] = []
        for scenario in vectors.scenarios {
            for test in scenario.tests {
                count += 1
                let jar = CookieJar(publicSuffixes: suffixes, clock: { 1_700_000_000 })
                for step in test.steps {
                    if step.clear == true { jar.clear(); continue }
                    if let field = step.set, let from = step.from {
                        _ = try HTTPStateCookieTests.bytes(field).withUnsafeBufferPointer {
                            try jar.receive(bytes: $0, from: RequestURL(from), http: step.http ?? true)
                        }
                        continue
                    }
                    guard let read = step.read else { continue }
                    let header = try jar.headerBytes(for: RequestURL(read), context: CookieJar.RequestContext(http: step.http ?? true))
                        .map { String(decoding: $0, as: UTF8.self) } ?? ""
                    let what = "\(scenario.path): \(test.name): at \(read)"
                    if let name = step.value_of, case let .some(expected) = step.expected {
                        // document.cookie's pairs, as the test's own cookieValue reads them.
                        let value = header.components(separatedBy: "; ").lazy.compactMap { pair -> String? in
                            guard let eq = pair.firstIndex(of: "="), pair[..<eq] == name else { return nil }
                            return String(pair[pair.index(after: eq)...])
                        }.first
                        if value != expected { failures.append("\(what): \(name) expected \(expected ?? "absent"), got \(value ?? "absent") in \"\(header)\"") }
                    } else if let prefix = step.starts_with {
                        if !header.hasPrefix(prefix) { failures.append("\(what): expected to start with \(prefix), got \"\(header)\"") }
                    } else if case let .some(expected) = step.expected, header != expected ?? "" {
                        failures.append("\(what): expected \"\(expected ?? "")\", got \"\(header)\"")
                    }
                }
            }
        }
        XCTAssertEqual(count, 28)
        XCTAssertEqual(failures, [], "\(failures.count) of \(count) WPT cookie scenarios differ:\n" + failures.joined(separator: "\n"))
    }
}
