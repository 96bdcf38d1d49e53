import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore

/// What a stranger's cookies, jar files and Domain attributes must not get past (issues 14, 30,
/// 45): each test failed on the main of its day.
final class CookieJarSafetyTests: XCTestCase {
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

    /// A jar's file text keeps its session cookies unless asked not to, as save(to:), curl's -c
    /// and the command line do.
    func testSerializedKeepsSessionCookies() throws {
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        _ = try jar.receive("sid=1", from: RequestURL("http://h.example/"))
        XCTAssertTrue(String(decoding: jar.serialized(.netscape), as: UTF8.self).hasSuffix("h.example\tFALSE\t/\tFALSE\t0\tsid\t1\n"))
        XCTAssertFalse(String(decoding: jar.serialized(.netscape, sessions: false), as: UTF8.self).contains("sid"))
    }

    /// `CookieJar()` keeps time by the system clock and refuses a public suffix's cookie
    /// (issue 45: a jar made with no arguments works as a browser's does).
    func testAPlainJarUsesTheSystemClockAndTheSuffixList() throws {
        let jar = CookieJar()
        XCTAssertEqual(jar.clock(), UnixTime.now(), accuracy: 5)
        guard case .rejected(_, _, let rule) = try jar.receive("a=1; Domain=com", from: RequestURL("https://example.com/")) else { return XCTFail("stored") }
        XCTAssertEqual(rule, .publicSuffix)
        _ = try jar.receive("b=1; Max-Age=60", from: RequestURL("https://example.com/"))
        XCTAssertEqual(try jar.header(for: RequestURL("https://example.com/")), "b=1")
    }

    /// The word-at-a-time scan for control bytes (every cookie received passes it) finds what the
    /// byte-at-a-time reference finds, on random bytes of every length and offset: mostly
    /// printable text with tabs, bytes past ASCII, and now and then a control byte or DEL.
    func testTheControlByteScanIsTheByteByByteOne() {
        var generator = SystemRandomNumberGenerator()
        let pool: [UInt8] = Array(0x20...0x7E) + [0x09, 0x09, 0x80, 0xC3, 0xA9, 0xFF, 0x7F, 0x00, 0x1F, 0x0A, 0x01]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in Bool.random(using: &generator) && Bool.random(using: &generator) ? pool.randomElement(using: &generator)! : UInt8.random(in: 0x20...0x7E, using: &generator) }
            let offset = Int.random(in: 0...7, using: &generator)
            let padded = [UInt8](repeating: 0x41, count: offset) + bytes
            padded.withUnsafeBufferPointer { all in
                let part = UnsafeBufferPointer(rebasing: all[offset...])
                let fast = SetCookie.controlCharacter(part), slow = SetCookie.controlCharacterByBytes(part)
                XCTAssertEqual(fast?.0, slow?.0, "\(bytes)")
                XCTAssertEqual(fast?.1, slow?.1, "\(bytes)")
            }
        }
    }

    /// A received cookie's checks for control bytes and size start with one scan of the whole
    /// value, and look closely only at what it does not clear: the refusals are those of the
    /// checks made in full (the name and value's own, with their words; then the attributes'),
    /// on random values with tabs, control bytes and DEL in names, values and attributes, and
    /// pairs at and past a small size limit.
    func testTheOneScanShortcutRefusesWhatTheFullChecksRefuse() throws {
        var rng = SplitMix(seed: 6265)
        let pool: [UInt8] = Array("ab=; \t".utf8) + [0x09, 0x00, 0x01, 0x0A, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]
        let attributes = ["", "; Path=/", "; Secure", "; Max-Age=60", "; Domain=example.com", "; SameSite=Lax"]
        let url = try RequestURL("https://www.example.com/a/b")
        var refused = 0
        for _ in 0..<20_000 {
            func random(_ count: Int) -> [UInt8] {
                (0..<count).map { _ in rng.next(4) == 0 ? pool[rng.next(pool.count)] : UInt8(0x61 + rng.next(26)) }
            }
            var bytes = random(rng.next(8)) + [0x3D] + random(rng.next(12))
            for _ in 0..<rng.next(3) { bytes += Array(attributes[rng.next(attributes.count)].utf8) + (rng.next(3) == 0 ? random(rng.next(4)) : []) }
            let jar = CookieJar(publicSuffixes: suffixes, clock: { 1_700_000_000 })
            jar.limits.maxNameValueBytes = 12
            let outcome = try bytes.withUnsafeBufferPointer { try jar.receive(bytes: $0, from: url) }
            // The checks in full, as they were made before the shortcut.
            var expected: (rule: CookieRule, reason: String)?
            if let parsed = bytes.withUnsafeBufferPointer({ SetCookie.parse($0) }) {
                if let problem = Cookie.problem(name: parsed.name, value: parsed.value, limit: 12, valueBytes: parsed.rawValue?.count) {
                    expected = problem
                } else {
                    let start = bytes.firstIndex(of: 0x3B) ?? bytes.count
                    if let (at, byte) = bytes[start...].withUnsafeBufferPointer({ SetCookie.controlCharacterByBytes($0) }) {
                        expected = (.controlCharacter, "the Set-Cookie value holds control byte 0x\(ASCII.hex(byte)) at byte \(start + at) (the whole cookie is ignored, as RFC 6265bis section 5.6 says)")
                    }
                }
            }
            guard let expected else {
                if case .rejected(_, _, let rule) = outcome, rule == .controlCharacter || rule == .nameValueTooLong { XCTFail("\(bytes): refused, \(outcome)") }
                continue
            }
            refused += 1
            guard case .rejected(_, let reason, let rule) = outcome else { XCTFail("\(bytes): \(outcome), expected \(expected)"); return }
            XCTAssertEqual(rule, expected.rule, "\(bytes)")
            XCTAssertEqual(reason, expected.reason, "\(bytes)")
        }
        XCTAssertGreaterThan(refused, 5_000)
    }
}
