import XCTest
@testable import PekitCore
@testable import PekitHTTP

/// Issue 42: a redirect's next hop carries the parse of its URL, as a built request does; it must
/// be exactly what parsing the hop's text again gives.
final class RedirectParseTests: XCTestCase {
    func testTheNextHopCarriesItsOwnParse() throws {
        let request = try RequestBuilder(url: "http://h.example/a/b?x=1#keep").build()
        let locations = ["/c d?汉=1", "../up", "//Other.EXAMPLE:8080/p?q={x}", "http://[::1]/v6#f", "?only", "https://例子.中国/路径", "#new", "x y/z"]
        for location in locations {
            let next = try Redirect.next(after: request, status: 302, location: ByteString(location))
            let carried = try XCTUnwrap(next.parsedURL, location)
            XCTAssertEqual(carried, try RequestURL(next.url), "\(location) → \(next.url)")
            var scanned = next
            scanned.parsedURL = nil
            XCTAssertEqual(next.target, scanned.target, "\(location) → \(next.url)")
        }
    }
}
