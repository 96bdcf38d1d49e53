import XCTest
@testable import PekitCore

/// Issue 43: the jar as RFC 6265bis (draft-ietf-httpbis-rfc6265bis) and browsers keep cookies,
/// where it differs from RFC 6265. Each case names the rule a refusal breaks (`CookieRule`).
final class RFC6265bisTests: XCTestCase {
    func jar() -> CookieJar { CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 }) }
    let plain = try! RequestURL("http://example.com/")
    let secure = try! RequestURL("https://example.com/")

    func header(_ sets: [String], from url: RequestURL, jar j: CookieJar? = nil) throws -> String? {
        let j = j ?? jar()
        for set in sets { _ = try j.receive(set, from: url) }
        return try j.header(for: url)
    }

    func rule(_ set: String, from url: RequestURL, http: Bool = true, site: CookieJar.RequestContext.Site = .same) throws -> CookieRule? {
        if case .rejected(_, _, let rule) = try jar().receive(set, from: url, http: http, site: site) { return rule }
        return nil
    }

    /// §5.6 steps 3 to 5: a pair without '=' is a value with an empty name, sent back alone.
    func testNamelessCookies() throws {
        XCTAssertEqual(try header(["foo"], from: plain), "foo")
        XCTAssertEqual(try header(["=foo"], from: plain), "foo")
        XCTAssertEqual(try header(["=test=2"], from: plain), "test=2")
        XCTAssertEqual(try header(["a=1", "bare"], from: plain), "a=1; bare")
        // The empty-named cookie is one cookie: a second replaces the first.
        XCTAssertEqual(try header(["foo", "bar"], from: plain), "bar")
        XCTAssertEqual(try rule("", from: plain), .emptyNameAndValue)
        XCTAssertEqual(try rule("=", from: plain), .emptyNameAndValue)
        XCTAssertEqual(try rule(" ; Path=/", from: plain), .emptyNameAndValue)
        // A nameless cookie cannot pass for a prefixed one.
        XCTAssertEqual(try rule("=__Host-x; Secure; Path=/", from: secure), .namelessPrefix)
        XCTAssertEqual(try rule("__secure-y", from: secure), .namelessPrefix)
    }

    /// §5.6 step 6: an attribute value over 1,024 octets is ignored as if absent.
    func testLongAttributeValuesAreIgnored() throws {
        let j = jar()
        guard case .stored(let path, _) = try j.receive("a=1; Path=/" + String(repeating: "x", count: 1035), from: try RequestURL("http://example.com/d/p")) else { return XCTFail() }
        XCTAssertEqual(path.path, "/d")
        guard case .stored(let domain, _) = try j.receive("b=1; Domain=" + String(repeating: "x", count: 1025), from: plain) else { return XCTFail() }
        XCTAssertTrue(domain.hostOnly)
        guard case .stored(let age, let warnings) = try j.receive("c=1; Max-Age=-" + String(repeating: "1", count: 1024), from: plain) else { return XCTFail() }
        XCTAssertNil(age.expires)
        // Each ignored attribute is a warning of the stored cookie, named as Chromium names it.
        XCTAssertEqual(warnings, [.init(rule: .attributeTooLong, reason: "the Max-Age attribute's value is over 1024 bytes: ignored")])
        let outcome = try j.receive("d=1; path=/" + String(repeating: "x", count: 1035) + "; Secure; DOMAIN=" + String(repeating: "y", count: 1025), from: secure)
        XCTAssertEqual(CookieJar.line(outcome), "Set-Cookie d: stored for host example.com, path / (attribute-too-long: the path attribute's value is over 1024 bytes: ignored) (attribute-too-long: the DOMAIN attribute's value is over 1024 bytes: ignored)")
        guard case .stored(_, let none) = try j.receive("e=1; Path=/" + String(repeating: "x", count: 1023), from: plain) else { return XCTFail() }
        XCTAssertEqual(none, [])
    }

    /// §5.6 step 1: a control character other than tab anywhere, attributes included, refuses the
    /// cookie; a tab in a value is kept (and round-trips through cookies.txt and JSON).
    func testControlCharactersAndTabs() throws {
        XCTAssertEqual(try rule("a=1; Path=/te\u{5}st", from: plain), .controlCharacter)
        XCTAssertEqual(try rule("a=1; Foo=\u{7F}", from: plain), .controlCharacter)
        XCTAssertEqual(try rule("a\u{1}=1", from: plain), .controlCharacter)
        let j = jar()
        XCTAssertEqual(try header(["test=tab\ttest", "u=\tlead"], from: plain, jar: j), "test=tab\ttest; u=lead")
        for format in [CookieJar.FileFormat.netscape, .json] {
            let back = jar()
            XCTAssertEqual(try back.load(j.serialized(format, sessions: true), format: format, name: "jar").warnings, [])
            XCTAssertEqual(try back.header(for: plain), "test=tab\ttest; u=lead", "\(format)")
        }
    }

    /// §5.7: a host-only cookie and a domain cookie of the same name are two cookies (the host-only
    /// flag is part of what a new cookie replaces by), in the jar and in its files.
    func testHostOnlyAndDomainCookiesAreTwo() throws {
        let j = jar()
        XCTAssertEqual(try header(["a=1", "a=2; Domain=example.com"], from: plain, jar: j), "a=1; a=2")
        XCTAssertEqual(try header(["a=3"], from: plain, jar: j), "a=3; a=2", "the host-only one is replaced")
        XCTAssertEqual(try j.header(for: try RequestURL("http://www.example.com/")), "a=2")
        for format in [CookieJar.FileFormat.netscape, .json] {
            let back = jar()
            _ = try back.load(j.serialized(format, sessions: true), format: format, name: "jar")
            XCTAssertEqual(try back.header(for: plain), "a=3; a=2", "\(format)")
        }
    }

    /// An IPv6 address's cookie names the address as its Domain only as the URL writes the host,
    /// in brackets: Chromium compares the attribute with GURL's host ("[…]", cookie_util.cc's
    /// GetCookieDomainWithString), and refuses the vector dom-ip-06's `Domain=` without them
    /// (issue 69; pekit took it before). CookieJarTests holds the other forms.
    func testIPv6DomainWithoutBrackets() throws {
        let url = try RequestURL("http://[2606:2800:220:1:248:1893:25c8:1946]/")
        let j = jar()
        XCTAssertEqual(try rule("a=1; Domain=2606:2800:220:1:248:1893:25c8:1946", from: url), .ipAddressDomain)
        guard case .stored(let cookie, _) = try j.receive("a=1; Domain=[2606:2800:220:1:248:1893:25c8:1946]", from: url) else { return XCTFail() }
        XCTAssertTrue(cookie.hostOnly)
        XCTAssertEqual(try j.header(for: url), "a=1")
    }

    /// §4.1.3 as the draft has it now: `__Host-` needs an explicit `Path=/`; `__Http-` and
    /// `__Host-Http-` need HttpOnly (and so HTTP) and Secure.
    func testPrefixes() throws {
        XCTAssertEqual(try rule("__Host-a=1; Secure", from: secure), .hostPrefix)
        XCTAssertNil(try rule("__Host-a=1; Secure; Path=/", from: secure))
        XCTAssertEqual(try rule("__HOST-a=1; Secure; Path=/; Domain=example.com", from: secure), .hostPrefix)
        XCTAssertEqual(try rule("__Http-a=1; Secure", from: secure), .httpPrefix)
        XCTAssertEqual(try rule("__http-a=1; HttpOnly", from: secure), .httpPrefix)
        XCTAssertNil(try rule("__Http-a=1; Secure; HttpOnly", from: secure))
        XCTAssertEqual(try rule("__Http-a=1; Secure; HttpOnly", from: secure, http: false), .httpOnlyFromNonHTTP)
        XCTAssertEqual(try rule("__Host-Http-a=1; Secure; HttpOnly", from: secure), .hostPrefix, "no Path=/")
        XCTAssertEqual(try rule("__Host-Http-a=1; Secure; Path=/", from: secure), .httpPrefix)
        XCTAssertNil(try rule("__Host-Http-a=1; Secure; HttpOnly; Path=/", from: secure))
        XCTAssertEqual(try rule("__Secure-a=1", from: secure), .securePrefix)
    }

    /// §5.7: a response in a cross-site context (not a top-level navigation) cannot set a
    /// SameSite=Lax or Strict cookie; None and the default still can.
    func testSameSiteWhenSet() throws {
        XCTAssertEqual(try rule("a=1; SameSite=Lax", from: secure, site: .cross), .sameSiteCrossSite)
        XCTAssertEqual(try rule("a=1; SameSite=Strict", from: secure, site: .cross), .sameSiteCrossSite)
        XCTAssertNil(try rule("a=1; SameSite=None; Secure", from: secure, site: .cross))
        XCTAssertNil(try rule("a=1", from: secure, site: .cross))
        XCTAssertNil(try rule("a=1; SameSite=Strict", from: secure, site: .crossNavigation))
        XCTAssertNil(try rule("a=1; SameSite=Lax", from: secure))
        XCTAssertEqual(try rule("a=1; SameSite=None", from: secure), .sameSiteNoneInsecure)
    }

    /// §5.2: with a site for cookies, the context is judged for each URL from it: same-site when
    /// the schemeful sites agree, a cross-site navigation sends Lax only with a safe method but
    /// may set Lax whatever its method, and anything else is cross-site.
    func testSiteForCookiesIsJudgedPerRequest() throws {
        // Sites are registrable domains: the jar needs the suffix list to tell them.
        let suffixes = try PublicSuffixList.load()
        func jar() -> CookieJar { CookieJar(publicSuffixes: suffixes, clock: { 1_700_000_000 }) }
        let j = jar()
        let api = try RequestURL("https://api.example.com/")
        for set in ["s=1; SameSite=Strict", "l=1; SameSite=Lax", "n=1; SameSite=None; Secure"] { _ = try j.receive(set, from: api) }
        func sent(_ page: String, navigation: Bool = false, method: String = "GET", to url: RequestURL? = nil) throws -> String? {
            try j.header(for: url ?? api, context: .init(siteForCookies: RequestURL(page), navigation: navigation, method: method))
        }
        XCTAssertEqual(try sent("https://www.example.com/app"), "s=1; l=1; n=1")
        XCTAssertEqual(try sent("http://www.example.com/app"), "n=1", "schemeful: http is another site")
        XCTAssertEqual(try sent("https://other.test/"), "n=1")
        XCTAssertEqual(try sent("https://other.test/", navigation: true), "l=1; n=1")
        XCTAssertEqual(try sent("https://other.test/", navigation: true, method: "head"), "l=1; n=1")
        XCTAssertEqual(try sent("https://other.test/", navigation: true, method: "POST"), "n=1")
        // explain judges the same way, and says why.
        let verdicts = try j.explain(api, context: .init(siteForCookies: RequestURL("https://other.test/"), navigation: true, method: "POST"))
        XCTAssertEqual(verdicts.map(\.rule), [.sameSiteStrict, .sameSiteLax, .sent])
        // Storing: a cross-site navigation may set Lax cookies, even by POST; a subresource may not.
        func stored(_ set: String, _ page: String, navigation: Bool, method: String = "GET") throws -> CookieRule? {
            let context = CookieJar.RequestContext(siteForCookies: try RequestURL(page), navigation: navigation, method: method)
            var bytes = Array(set.utf8)
            if case .rejected(_, _, let rule) = try bytes.withUnsafeMutableBufferPointer({ try jar().receive(bytes: UnsafeBufferPointer($0), from: api, context: context) }) { return rule }
            return nil
        }
        XCTAssertNil(try stored("a=1; SameSite=Lax", "https://other.test/", navigation: true, method: "POST"))
        XCTAssertEqual(try stored("a=1; SameSite=Lax", "https://other.test/", navigation: false), .sameSiteCrossSite)
        XCTAssertNil(try stored("a=1; SameSite=Strict", "https://example.com/", navigation: false))
    }

    /// Every rule has a name for Lua and a section it comes from.
    func testEveryRuleNamesItsSource() {
        XCTAssertEqual(Set(CookieRule.allCases.map(\.rawValue)).count, CookieRule.allCases.count)
        for rule in CookieRule.allCases { XCTAssertFalse(rule.section.isEmpty, rule.rawValue) }
    }

    /// CHIPS: a `Partitioned; Secure` cookie is kept under the top-level site it was set under
    /// and sent only under it; two partitions hold two cookies; without a top-level page, the
    /// request's own URL is the top-level one; the key survives both file formats.
    func testPartitionedCookies() throws {
        let j = CookieJar(publicSuffixes: PublicSuffixList(text: "com\nexample\n"), clock: { 1_700_000_000 })
        let widget = try RequestURL("https://widget.com/embed")
        let a = try RequestURL("https://www.site-a.com/page"), b = try RequestURL("https://site-b.com/")
        guard case .stored(let first, _) = try j.receive("w=1; Secure; Partitioned; Path=/", from: widget, topLevel: a) else { return XCTFail() }
        XCTAssertEqual(first.partitionKey, "https://site-a.com")
        _ = try j.receive("w=2; Secure; Partitioned; Path=/", from: widget, topLevel: b)
        _ = try j.receive("plain=1; Secure; Path=/", from: widget, topLevel: b)
        XCTAssertEqual(j.count, 3)
        XCTAssertEqual(try j.header(for: widget, context: .init(topLevel: try RequestURL("https://site-a.com/other"))), "w=1; plain=1")
        XCTAssertEqual(try j.header(for: widget, context: .init(topLevel: b)), "w=2; plain=1")
        XCTAssertEqual(try j.header(for: widget), "plain=1", "at the top level of widget.com itself, neither partition")
        let verdict = try j.explain(widget, context: .init(topLevel: a)).first { $0.cookie.value == "2" }
        XCTAssertEqual(verdict?.reason, "partition: kept for the top-level site https://site-b.com, not https://site-a.com")
        guard case .rejected(_, _, let rule) = try j.receive("np=1; Partitioned", from: widget, topLevel: a) else { return XCTFail() }
        XCTAssertEqual(rule, .partitionedInsecure)
        // A partitioned cookie set with no top-level page belongs to its own site.
        _ = try j.receive("own=1; Secure; Partitioned; Path=/", from: widget)
        XCTAssertEqual(try j.header(for: widget), "plain=1; own=1")
        for format in [CookieJar.FileFormat.netscape, .json] {
            let back = CookieJar(publicSuffixes: PublicSuffixList(text: "com\nexample\n"), clock: { 1_700_000_000 })
            XCTAssertEqual(try back.load(j.serialized(format, sessions: true), format: format, name: "jar").warnings, [])
            XCTAssertEqual(try back.header(for: widget, context: .init(topLevel: b)), "w=2; plain=1", "\(format)")
            XCTAssertEqual(try back.header(for: widget), "plain=1; own=1", "\(format)")
        }
    }

    /// Every sending verdict names its rule, as a refusal does.
    func testSendingVerdictsNameTheirRule() throws {
        let j = jar()
        for set in ["s=1; Secure", "h=1; HttpOnly", "p=1; Path=/other", "l=1; SameSite=Lax", "x=1; SameSite=Strict", "d=1; Domain=example.com"] {
            _ = try j.receive(set, from: secure)
        }
        func rules(_ url: String, _ context: CookieJar.RequestContext = .init()) throws -> [String: SendRule] {
            Dictionary(uniqueKeysWithValues: try j.explain(try RequestURL(url), context: context).map { ($0.cookie.name, $0.rule) })
        }
        XCTAssertEqual(try rules("http://example.com/"), ["s": .secureOnly, "h": .sent, "p": .pathMismatch, "l": .sent, "x": .sent, "d": .sent])
        XCTAssertEqual(try rules("https://example.com/", .init(http: false, site: .cross)),
                       ["s": .sent, "h": .httpOnly, "p": .pathMismatch, "l": .sameSiteLax, "x": .sameSiteStrict, "d": .sent])
        XCTAssertEqual(try rules("https://www.example.com/")["s"], .hostOnly)
        XCTAssertEqual(try rules("https://other.com/")["d"], .domainMismatch)
    }

    /// Bytes stay bytes: a value that is not UTF-8 is sent back, saved and loaded as it came.
    func testValuesAreBytes() throws {
        let j = jar()
        let set: [UInt8] = Array("cookiesarebananas=".utf8) + [0xFF] + Array("test".utf8) + [0xFF]
        guard case .stored(let cookie, _) = try set.withUnsafeBufferPointer({ try j.receive(bytes: $0, from: plain) }) else { return XCTFail() }
        XCTAssertEqual(cookie.valueBytes, [0xFF] + Array("test".utf8) + [0xFF])
        XCTAssertEqual(try j.headerBytes(for: plain), set)
        let request = try { var b = RequestBuilder(url: "http://example.com/"); b.jar = j; return try b.build() }()
        XCTAssertTrue(try request.raw().starts(with: Array("GET / HTTP/1.1\r\nHost: example.com\r\nUser-Agent: \(RequestBuilder.userAgent)\r\nAccept: */*\r\nCookie: ".utf8) + set))
        for format in [CookieJar.FileFormat.netscape, .json] {
            let back = jar()
            XCTAssertEqual(try back.load(j.serialized(format, sessions: true), format: format, name: "jar").warnings, [])
            XCTAssertEqual(try back.headerBytes(for: plain), set, "\(format)")
        }
    }
}
