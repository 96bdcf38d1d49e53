import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PekitCore
import PekitCrypto
import PekitFoundation
import PekitHTTPFoundation
import PekitCryptoFoundation
import PekitHTTP
import XCTest

/// PekitFoundation's conversions, each both ways, and errors that say their message through
/// `localizedDescription` (issue 45).
final class FoundationBridgeTests: XCTestCase {
    func testARequestBecomesAURLRequestAndBack() throws {
        var builder = RequestBuilder(url: "https://api.example.com/v1/items?tag=a%20b")
        builder.method = "POST"
        builder.params = ["name": "café", "n": 2]
        builder.headers = [.init("X-Trace", "1"), .init("X-Trace", "2")]
        let request = try builder.build()
        let foundation = try URLRequest(request)
        XCTAssertEqual(foundation.httpMethod, "POST")
        XCTAssertEqual(foundation.url?.absoluteString, "https://api.example.com/v1/items?tag=a%20b")
        XCTAssertEqual(foundation.value(forHTTPHeaderField: "X-Trace"), "1,2")
        XCTAssertEqual(foundation.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
        // rfc3986's policy sorts the keys.
        XCTAssertEqual(foundation.httpBody.map { String(decoding: $0, as: UTF8.self) }, "n=2&name=caf%C3%A9")

        let back = try PekitRequest(foundation)
        XCTAssertEqual(back.method, "POST")
        XCTAssertEqual(back.url, request.url)
        XCTAssertEqual(back.body, request.body)
        // A dictionary has no order: the fields come back in their names' order.
        XCTAssertEqual(back.headers.fields.map(\.name), request.headers.fields.map(\.name).reduce(into: [String]()) { names, name in
            if !names.contains(where: { $0.lowercased() == name.lowercased() }) { names.append(name) }
        }.sorted { $0.lowercased() < $1.lowercased() })
        XCTAssertEqual(back.headers.values("X-Trace"), ["1,2"])
    }

    func testAURLRequestWithAFieldPekitWouldNotSendIsRefused() throws {
        var foundation = URLRequest(url: URL(string: "http://example.com/")!)
        foundation.setValue("1", forHTTPHeaderField: "Bad Name")
        XCTAssertThrowsError(try PekitRequest(foundation)) { error in
            XCTAssertEqual(error.localizedDescription, "\(error)")
            XCTAssertTrue("\(error)".contains("Bad Name"), "\(error)")
        }
    }

    func testAResponseFromURLSessionsResponse() throws {
        let url = URL(string: "https://example.com/a")!
        let foundation = try XCTUnwrap(HTTPURLResponse(url: url, statusCode: 201, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/plain", "ETag": "\"x\""]))
        let response = PekitResponse(foundation, data: Data("hello".utf8))
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.url, "https://example.com/a")
        // Foundation itself normalises the names' case (corelibs writes "Etag").
        let names = foundation.allHeaderFields.keys.compactMap { $0 as? String }.sorted { $0.lowercased() < $1.lowercased() }
        XCTAssertEqual(names.map { $0.lowercased() }, ["content-type", "etag"])
        XCTAssertEqual(response.headers.map(\.name), names)
        XCTAssertEqual(response.headers.map { String(decoding: $0.value.bytes, as: UTF8.self) }, ["text/plain", "\"x\""])
        XCTAssertEqual(response.body, Array("hello".utf8))
    }

    func testACookieBecomesAnHTTPCookieAndBackSayingWhatIsLost() throws {
        let cookie = Cookie(name: "sid", value: "abc", domain: "example.com", path: "/app", expires: 2_000_000_000,
                            hostOnly: false, secure: true, httpOnly: true, sameSite: .lax)
        let (foundation, notKept) = try XCTUnwrap(cookie.httpCookie())
        #if canImport(Darwin)
        XCTAssertEqual(notKept, [])
        let kept = cookie
        #else
        XCTAssertEqual(notKept, ["SameSite=Lax (this Foundation's HTTPCookie has no SameSite)"])
        var kept = cookie
        kept.sameSite = nil
        #endif
        XCTAssertEqual(foundation.name, "sid")
        XCTAssertEqual(foundation.domain, ".example.com")
        XCTAssertEqual(foundation.path, "/app")
        XCTAssertTrue(foundation.isSecure)
        XCTAssertTrue(foundation.isHTTPOnly)
        XCTAssertEqual(foundation.expiresDate, Date(timeIntervalSince1970: 2_000_000_000))
        XCTAssertEqual(Cookie(foundation), kept)

        let hostOnly = Cookie(name: "__Host-id", value: "1", domain: "example.com", secure: true, sameSite: SameSiteNone.value, partitioned: true, partitionKey: "https://site.example")
        let (converted, lost) = try XCTUnwrap(hostOnly.httpCookie())
        XCTAssertEqual(converted.domain, "example.com")
        XCTAssertEqual(lost, ["SameSite=None (HTTPCookie knows only Lax and Strict)",
                              "Partitioned (partition https://site.example) (HTTPCookie has no partitions)",
                              "the __Host- prefix's rules (HTTPCookie does not check them)"])
        XCTAssertTrue(Cookie(converted).hostOnly)
        XCTAssertNil(Cookie(name: "", value: "v", domain: "example.com").httpCookie())
    }

    /// HTTPCookieStorage's own parse of a Set-Cookie field, taken into the jar.
    func testCookiesFoundationParsedGoIntoTheJar() throws {
        let url = URL(string: "https://www.example.com/")!
        let parsed = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": "a=1; Domain=example.com; Path=/"], for: url)
        XCTAssertEqual(parsed.count, 1)
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        for cookie in parsed { try jar.set(Cookie(cookie, now: 1_700_000_000)) }
        XCTAssertEqual(try jar.header(for: RequestURL("https://sub.example.com/x")), "a=1")
    }

    func testAWHATWGURLBecomesAURLAndBack() throws {
        let parsed = try WHATWGURL("HTTPS://Example.COM:443/a/../b?q=1 2#frag")
        let url = try XCTUnwrap(URL(parsed))
        XCTAssertEqual(url.absoluteString, "https://example.com/b?q=1%202#frag")
        XCTAssertEqual(try WHATWGURL(url).href, parsed.href)
    }

    func testEveryErrorSaysItsMessageThroughLocalizedDescription() throws {
        let errors: [Error] = [
            CookieError.publicSuffixList("no list"),
            HTTPError.setup("no libcurl"),
            CryptoError("bad key"),
        ]
        for error in errors { XCTAssertEqual(error.localizedDescription, "\(error)") }
        do { _ = try WHATWGURL("http://exa mple.com/") } catch { XCTAssertEqual(error.localizedDescription, "\(error)") }
        do { _ = try PercentDecoder().decode("%zz") } catch { XCTAssertEqual(error.localizedDescription, "\(error)") }
    }
}

/// `.none` beside Optional's none, written once.
private enum SameSiteNone { static let value = Cookie.SameSite.none }
