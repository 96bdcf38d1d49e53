import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore

/// Issue 30: tokens, jars and files that could be fooled. Each test failed on the main of before.
final class HardeningThirdRoundTests: XCTestCase {
    let suffixes = PublicSuffixList(text: "com\nuk\nco.uk\nio\ngithub.io\n")

    /// A trailing dot does not get a Domain past the public suffix list (curl's CVE-2022-27779).
    func testATrailingDotIsNoWayPastThePublicSuffixList() throws {
        let jar = CookieJar(publicSuffixes: suffixes, clock: { 1_700_000_000 })
        let cases = [("http://attacker.com./", "super=1; Domain=com.", "Domain=com. is a public suffix"),
                     ("http://attacker.com./", "b=1; Domain=COM.", "Domain=com. is a public suffix"),
                     ("http://attacker.com./", "c=1; Domain=.com.", "Domain=com. is a public suffix"),
                     ("http://x.co.uk./", "d=1; Domain=co.uk.", "Domain=co.uk. is a public suffix"),
                     ("http://x.github.io./", "e=1; Domain=github.io.", "Domain=github.io. is a public suffix")]
        for (url, setCookie, reason) in cases {
            let name = String(setCookie.prefix { $0 != "=" })
            XCTAssertEqual(try jar.receive(setCookie, from: RequestURL(url)), .rejected(name: name, reason: reason, rule: .publicSuffix), setCookie)
        }
        XCTAssertNil(try jar.header(for: RequestURL("http://bank.com./")))
        // The host itself may still set a host-only cookie, and a real domain takes its own.
        XCTAssertEqual(try jar.header(for: RequestURL("http://bank.com./")), nil)
        if case .stored = try jar.receive("ok=1; Domain=attacker.com.", from: RequestURL("http://www.attacker.com./")) {} else { XCTFail("a registrable domain with a dot") }
    }

    /// An insecure origin cannot shadow a Secure cookie through a Domain attribute or from the
    /// parent host (RFC 6265bis §5.7 step 16: domains matched either way).
    func testSecureCookiesAreLeftAloneByInsecureOriginsEitherWay() throws {
        let jar = CookieJar(publicSuffixes: suffixes, clock: { 1_700_000_000 })
        guard case .stored = try jar.receive("sid=GOOD; Secure", from: RequestURL("https://www.example.test/")) else { return XCTFail() }
        let refused = CookieJar.Outcome.rejected(name: "sid", reason: "a Secure cookie of that name exists; an insecure origin cannot replace it", rule: .overwritesSecure)
        XCTAssertEqual(try jar.receive("sid=EVIL; Domain=example.test; Path=/account", from: RequestURL("http://www.example.test/")), refused)
        XCTAssertEqual(try jar.receive("sid=EVIL2", from: RequestURL("http://example.test/")), refused)
        XCTAssertEqual(try jar.header(for: RequestURL("https://www.example.test/account/settings")), "sid=GOOD")
        // Another name, or a path the Secure one does not cover, is stored.
        if case .stored = try jar.receive("other=1; Domain=example.test", from: RequestURL("http://www.example.test/")) {} else { XCTFail("another name") }
    }

    /// Whatever enters a jar passes the checks a received cookie passes: a file line or JSON entry
    /// that fails is skipped with a warning naming it, and `set` refuses it.
    func testFilesAndSetObeyTheRulesReceivedCookiesObey() throws {
        let lines = """
            # Netscape HTTP Cookie File
            .com\tTRUE\t/\tFALSE\t2000000000\tsuper\t1
            www.example.test\tFALSE\t/\tFALSE\t2000000000\t__Host-x\t1
            .www.example.test\tTRUE\t/\tTRUE\t2000000000\t__Host-y\t1
            www.example.test\tFALSE\t/a\tTRUE\t2000000000\t__Host-z\t1
            www.example.test\tFALSE\t/\tFALSE\t2000000000\t__Secure-s\t1
            www.example.test\tFALSE\t/\tTRUE\t2000000000\t__Host-ok\t1
            .example.test\tTRUE\t/\tFALSE\t2000000000\tok\t1
            """
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        jar.suffixLoader = { PublicSuffixList(text: "com\ntest.example\n") }
        let (loaded, warnings) = try jar.load(Array(lines.utf8), format: .netscape, name: "jar.txt")
        XCTAssertEqual(loaded, 2)
        XCTAssertEqual(warnings, [
            "jar.txt:2: cookie \"super\": the domain com is a public suffix; line skipped",
            "jar.txt:3: cookie \"__Host-x\": a __Host- cookie needs Secure, no Domain (host-only) and Path=/; line skipped",
            "jar.txt:4: cookie \"__Host-y\": a __Host- cookie needs Secure, no Domain (host-only) and Path=/; line skipped",
            "jar.txt:5: cookie \"__Host-z\": a __Host- cookie needs Secure, no Domain (host-only) and Path=/; line skipped",
            "jar.txt:6: cookie \"__Secure-s\": a __Secure- cookie needs the Secure attribute; line skipped",
        ])
        XCTAssertEqual(try jar.header(for: RequestURL("https://www.example.test/")), "__Host-ok=1; ok=1")
        XCTAssertNil(try jar.header(for: RequestURL("http://bank.com/")))
        // The JSON format, and set().
        let json = #"{"pekit_cookies": 1, "cookies": [{"name":"super","value":"1","domain":"com","path":"/","host_only":false},{"name":"n","value":"1","domain":"a.test","path":"/","same_site":"None"}]}"#
        let fromJSON = CookieJar(publicSuffixes: PublicSuffixList(text: "com\n"), clock: { 1_700_000_000 })
        let result = try fromJSON.load(Array(json.utf8), format: .json, name: "jar.json")
        XCTAssertEqual(result.loaded, 0)
        XCTAssertEqual(result.warnings.count, 2, "\(result.warnings)")
        XCTAssertTrue(result.warnings[0].contains("the domain com is a public suffix"), result.warnings[0])
        XCTAssertTrue(result.warnings[1].contains("SameSite=None needs the Secure attribute"), result.warnings[1])
        XCTAssertThrowsError(try fromJSON.set(Cookie(name: "x", value: "1", domain: "com", path: "/", hostOnly: false))) {
            XCTAssertEqual("\($0)", "cookie \"x\": the domain com is a public suffix")
        }
        XCTAssertThrowsError(try fromJSON.set(Cookie(name: "y", value: "1", domain: "exa mple.test", path: "/"))) {
            XCTAssertTrue("\($0)".hasPrefix("cookie \"y\": the domain \"exa mple.test\" is not a host name"), "\($0)")
        }
    }

    /// Saving over a file that is not a jar is refused (also through a symbolic link); a jar, an
    /// empty file or no file may be replaced, and `force` replaces anything.
    func testSavingDoesNotReplaceAFileThatIsNotAJar() throws {
        let dir = try makeTemporaryDirectory("replace")
        let (notes, link) = try makeNotesAndLink(in: dir)
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        try jar.set(Cookie(name: "a", value: "1", domain: "example.test", path: "/", expires: 2_000_000_000))
        for path in [notes, link] {
            XCTAssertThrowsError(try jar.save(to: path)) {
                XCTAssertEqual("\($0)", "\(path) does not look like a cookie jar (1 line skipped, none loaded); not replacing it")
            }
        }
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes\n")
        let jarPath = dir.appendingPathComponent("jar.txt").path
        try jar.save(to: jarPath)
        try jar.save(to: jarPath)
        try "".write(toFile: notes, atomically: true, encoding: .utf8)
        try jar.save(to: link)
        XCTAssertTrue(try String(contentsOfFile: notes, encoding: .utf8).contains("\ta\t1"))
        try "my notes\n".write(toFile: notes, atomically: true, encoding: .utf8)
        try jar.save(to: link, force: true)
        XCTAssertTrue(try String(contentsOfFile: notes, encoding: .utf8).contains("\ta\t1"))
    }

    /// A member given twice: kept both (the default, for what reads all), the last at the first's
    /// place, or refused naming it.
    func testJSONMembersGivenTwice() throws {
        let text = Array(#"{"aud":"good","aud":"evil","n":{"x":1,"x":2}}"#.utf8)
        XCTAssertEqual(JSON.write(try JSON.parse(text, duplicates: .last)), Array(#"{"aud":"evil","n":{"x":2}}"#.utf8))
        XCTAssertThrowsError(try JSON.parse(text, duplicates: .error)) {
            XCTAssertEqual("\($0)", #"invalid JSON at byte 15: the member "aud" appears twice in one object"#)
        }
        guard case .map(let kept) = try JSON.parse(text) else { return XCTFail() }
        XCTAssertEqual(kept.count, 3)
    }
}
