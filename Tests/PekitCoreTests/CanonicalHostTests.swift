import XCTest
@testable import PekitCore

/// The fast path for plain hosts agrees with the URL Standard's host parser wherever it answers.
final class CanonicalHostTests: XCTestCase {
    func testSimpleHostsMatchTheStandardParser() throws {
        let fixed = ["127.0.0.1", "example.com", "EXAMPLE.com.", "a..b", ".a", "1.2.3.4.", "1.2.3", "01.2.3.4", "0.0.0.0", "255.255.255.255",
                     "256.1.1.1", "a.0x1f", "a.0xg", "a.09", "xn--a.com", "a.XN--b", "x-n--a", "0x", "a-", "-", ".", "..", "1..2.3",
                     "localhost", "a.b.c.d.e", "1.2.3.4.5", "a.1", "1.a",
                     // Long runs of digits (the fuzzer found the dotted-decimal arithmetic overflowing).
                     "examp" + String(repeating: "4", count: 60) + "sid", String(repeating: "9", count: 40), "1." + String(repeating: "9", count: 30) + ".a"]
        var answered = 0
        for host in fixed { answered += try check(host) }
        // Random hosts over the characters that decide the fast path.
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aAbxXnN09123-.")
        for _ in 0..<50_000 {
            let length = Int.random(in: 1...10, using: &generator)
            let host = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            answered += try check(host)
        }
        XCTAssertGreaterThan(answered, 10_000, "the fast path answers for most plain hosts")
        XCTAssertEqual(RequestURL.simpleCanonicalHost("127.0.0.1"), "127.0.0.1")
        XCTAssertEqual(RequestURL.simpleCanonicalHost("API.Example.com"), "api.example.com")
        XCTAssertNil(RequestURL.simpleCanonicalHost("bücher.example"))
    }

    /// 1 when the fast path answered (and agreed), 0 when it left the host to the parser.
    func check(_ host: String) throws -> Int {
        guard let simple = RequestURL.simpleCanonicalHost(host) else { return 0 }
        let parsed = try? RequestURL.parsedCanonicalHost(host)
        XCTAssertEqual(simple, parsed, "host \(host)")
        return 1
    }
}
