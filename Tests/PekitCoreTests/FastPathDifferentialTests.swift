import XCTest
@testable import PekitCore

/// Fast paths held to the general paths they stand in for, on random inputs: the answer of each
/// must be the general path's, byte for byte.
final class FastPathDifferentialTests: XCTestCase {
    /// `ValidUTF8.string` (ASCII read eight bytes a step) gives what `String(validating:as:)`
    /// gives: the same text for UTF-8, nil for anything else, at every length and offset.
    func testValidUTF8IsTheStandardLibrarysValidation() {
        var generator = SystemRandomNumberGenerator()
        let pool: [UInt8] = [0x41, 0x7A, 0x20, 0x7F, 0x00, 0x80, 0xBF, 0xC3, 0xA9, 0xE6, 0xB1, 0x89, 0xF0, 0x9F, 0x98, 0x80, 0xC0, 0xF8, 0xFF, 0xED, 0xA0]
        var valid = 0, invalid = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in Int.random(in: 0..<8, using: &generator) == 0 ? pool[Int.random(in: 0..<pool.count, using: &generator)] : UInt8.random(in: 0x20...0x7E, using: &generator) }
            let offset = Int.random(in: 0...7, using: &generator)
            let padded = [UInt8](repeating: 0x41, count: offset) + bytes
            padded.withUnsafeBufferPointer { all in
                let part = UnsafeBufferPointer(rebasing: all[offset...])
                let fast = ValidUTF8.string(part), general = String(validating: part, as: UTF8.self)
                XCTAssertEqual(fast, general, "\(bytes)")
                if general == nil { invalid += 1 } else { valid += 1 }
            }
        }
        XCTAssertGreaterThan(valid, 1000)
        XCTAssertGreaterThan(invalid, 1000)
    }

    /// `brokenRule` asks the storage rules only when `mayBreakARule` says one may refuse the
    /// cookie: on random candidates (names with and without prefixes in either case, every flag,
    /// SameSite, origin and site) it gives what asking every rule gives, rule and reason.
    func testTheStorageRulesPrecheckIsTheRules() throws {
        var generator = SystemRandomNumberGenerator()
        let names = ["", "a", "_a", "__Secure-a", "__Host-a", "__secure-a", "__HOST-a", "__Http-a", "__Host-Http-a", "__a"]
        let values = ["v", "__Secure-x", "__Host-y", ""]
        let origins: [RequestURL?] = [nil, try RequestURL("http://a.example/"), try RequestURL("https://a.example/"), try RequestURL("http://127.0.0.1/")]
        let sameSites: [Cookie.SameSite?] = [nil] + Cookie.SameSite.allCases
        var refused = 0, stored = 0
        for _ in 0..<20_000 {
            func pick<T>(_ list: [T]) -> T { list[Int.random(in: 0..<list.count, using: &generator)] }
            let cookie = Cookie(name: pick(names), value: pick(values), domain: "a.example", path: pick(["/", "/a"]),
                                hostOnly: .random(using: &generator), secure: .random(using: &generator), httpOnly: .random(using: &generator),
                                sameSite: pick(sameSites), partitioned: .random(using: &generator))
            var candidate = StorageCandidate(cookie: cookie, origin: pick(origins), pathAttribute: pick([nil, "/", "/a"]),
                                             domainAttribute: pick([nil, "a.example"]), http: .random(using: &generator),
                                             site: pick(CookieJar.RequestContext.Site.allCases))
            candidate.prefixesMatchCase = .random(using: &generator)
            let fast = CookieJar.brokenRule(candidate.cookie, origin: candidate.origin, pathAttribute: candidate.pathAttribute, domainAttribute: candidate.domainAttribute,
                                            http: candidate.http, site: candidate.site, prefixesMatchCase: candidate.prefixesMatchCase)
            let general = CookieJar.brokenRuleOfRows(candidate)
            XCTAssertEqual(fast?.rule, general?.rule, "\(candidate)")
            XCTAssertEqual(fast?.reason, general?.reason, "\(candidate)")
            if general == nil { stored += 1 } else { refused += 1 }
        }
        XCTAssertGreaterThan(stored, 1000)
        XCTAssertGreaterThan(refused, 1000)
    }
}
