import Foundation
import XCTest
@testable import PekitCore

/// Issue 43: the IETF http-state suite (Fixtures/cookies/http-state-vectors.json, made by
/// make_http_state_vectors.py from abarth/http-state), run as its test server runs it: each
/// Set-Cookie field a response of http://home.example.org:8888/cookie-parser?NAME, then the
/// Cookie field an HTTP request to the Location it redirects to carries.
///
/// The suite was written for RFC 6265. Where RFC 6265bis decides otherwise, and browsers follow it,
/// pekit follows the draft: those tests are listed here, each with the step that supersedes it and
/// the header the draft gives, and the list must be exact (a listed test that passes is stale).
final class HTTPStateCookieTests: XCTestCase {
    struct Test: Decodable { let name: String, set_cookie: [String], location: String, expected: String?, disabled: Bool }
    struct Vectors: Decodable { let source: String, tests: [Test] }

    /// The tests RFC 6265bis supersedes: why, and what the draft sends instead (nil: nothing).
    static let superseded: [String: (reason: String, draft: String?)] = [
        "0004": ("§5.6 (the name-value pair): a pair without '=' is a cookie with an empty name, sent as its value", #"foo"#),
        "0021": ("§5.6 (the name-value pair): an empty name before '=' keeps the cookie, sent as its value", #"a=b; x; c=d"#),
        "0023": ("§5.6 (the name-value pair): nameless cookies are kept; an empty name and value is ignored", #"foo"#),
        "0024": ("§5.6 (the name-value pair): nameless cookies are kept; an empty name and value is ignored", #"foo"#),
        "0025": ("§5.6 (the name-value pair): nameless cookies are kept; an empty name and value is ignored", #"foo"#),
        "0026": ("§5.6 (the name-value pair): nameless cookies are kept; an empty name and value is ignored", #"foo"#),
        "0028": ("§5.6 (the name-value pair): nameless cookies are kept; an empty name and value is ignored", #"foo"#),
        "0027": ("§5.7 (replacing a cookie of the same name, domain, host-only flag and path): nameless cookies replace each other", #"bar"#),
        "chromium0009": ("§5.6 (the name-value pair): a pair without '=' is a cookie with an empty name, sent as its value", #"BLAHHH"#),
        "chromium0010": ("§5.6 (the name-value pair): a pair without '=' is a cookie with an empty name, sent as its value", #""BLA\"HHH""#),
        "chromium0012": ("§5.6 (the name-value pair): an empty name before '=' keeps the cookie, sent as its value", #"ABC"#),
        "mozilla0012": ("§5.6 (the name-value pair): a pair without '=' is a cookie with an empty name, sent as its value", #"test="fubar! = foo; five"#),
        "mozilla0014": ("§5.6 (the name-value pair): a pair without '=' is a cookie with an empty name, sent as its value", #"six"#),
        "mozilla0015": ("§5.7 (replacing a cookie of the same name, domain, host-only flag and path): nameless cookies replace each other", #"seven"#),
        "mozilla0016": ("§5.7 (replacing a cookie of the same name, domain, host-only flag and path): nameless cookies replace each other", #"eight"#),
        "mozilla0017": ("§5.7 (replacing a cookie of the same name, domain, host-only flag and path): nameless cookies replace each other, the first one's creation time kept", #"eight; test=six"#),
        "name0017": ("§5.6 (the name-value pair): an empty name before '=' keeps the cookie, sent as its value", #"a=bar"#),
        "name0023": ("§5.6 (the name-value pair): a pair without '=' is a cookie with an empty name, sent as its value", #"foo"#),
        "name0025": ("§5.6 (the name-value pair): an empty name before '=' keeps the cookie, sent as its value", #"==a=bar"#),
        "name0028": ("§5.6 (the name-value pair): an empty name before '=' keeps the cookie, sent as its value", #"a"#),
        "name0031": ("§5.6 (the name-value pair): a pair without '=' is a cookie with an empty name, sent as its value", #""foo"#),
        "name0032": ("§5.6 (the name-value pair): a pair without '=' is a cookie with an empty name, sent as its value", #""foo\"bar"#),
        "name0033": ("§5.7 (replacing a cookie of the same name, domain, host-only flag and path): nameless cookies replace each other", #"aaa"#),
    ]

    /// The suite's files are bytes: the fixture writes each as one latin-1 character.
    static func bytes(_ text: String) -> [UInt8] { text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } }

    func testHTTPStateSuite() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "http-state-vectors", withExtension: "json", subdirectory: "Fixtures/cookies"))
        let vectors = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
        let suffixes = try PublicSuffixList.load()
        var failures: [String] = [], stale: [String] = [], ran = 0
        for test in vectors.tests where !test.disabled {
            ran += 1
            let request = try WHATWGURL("http://home.example.org:8888/cookie-parser?" + test.name)
            // The suite's dates were chosen against the day it was last changed (2017-08-09).
            let jar = CookieJar(publicSuffixes: suffixes, clock: { 1_502_290_942 })
            for field in test.set_cookie {
                _ = try Self.bytes(field).withUnsafeBufferPointer { try jar.receive(bytes: $0, from: RequestURL(request.href)) }
            }
            let target = try RequestURL(WHATWGURL(test.location, base: request).href)
            let sent = try jar.headerBytes(for: target).map { String(decoding: $0, as: UTF8.self) }
            let expected = test.expected.map { String(decoding: Self.bytes($0), as: UTF8.self) }
            if let (_, draft) = Self.superseded[test.name] {
                if sent == expected { stale.append(test.name) }
                if sent != draft { failures.append("\(test.name) (superseded): the draft sends \(draft ?? "nothing"), got \(sent ?? "nothing")") }
            } else if sent != expected {
                failures.append("\(test.name): \(test.set_cookie) to \(test.location): expected \(expected ?? "nothing"), got \(sent ?? "nothing")")
            }
        }
        XCTAssertEqual(ran, 218)
        XCTAssertEqual(stale, [], "listed as superseded, yet they pass: take them off the list")
        XCTAssertEqual(failures, [], "\(failures.count) of \(ran) http-state tests differ:\n" + failures.joined(separator: "\n"))
    }
}
