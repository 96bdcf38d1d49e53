import XCTest
@testable import PekitCore

/// Issue 42: a request's URL is parsed once, by the builder, and that parse (`parsedURL`) goes
/// to the wire with it. The carried parse must be exactly what parsing the final text again would
/// give, and the target read from it what the scan of the text gives: a differential test over
/// hand-picked and random URLs, parameters and bases.
final class OneURLParseTests: XCTestCase {
    static let urls = [
        "http://h/", "http://h", "HTTP://H/a", "https://u:p%C3%A4@WWW.例子.中国:8443/a b/汉?q=汉 字#top", "http://[::1]:8080/x?y#z",
        "http://h?only=query", "http://h#frag", "http://h/p?q={x}&r=|^", "http://0x7f.1/", "http://h/a/../b/./c", "http://h/%2e%2E/x",
        "http://h/p?a=1#f?g", "http://h:80/", "https://h:443/p", "http://h/ö?ö=ö#ö", "http://h/\"<>`", "http://h/?", "http://h/#",
    ]

    func testTheCarriedParseIsTheTextsParse() throws {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("ab/?#&=%20 {}|^\"<>`~!$'()*+,;:@[]汉é.")
        var urls = Self.urls
        for _ in 0..<400 {
            let length = Int.random(in: 0..<14, using: &rng)
            urls.append(["http://h.example", "https://Ex.COM:8080", "http://[::1]", "http://u:p@h"].randomElement(using: &rng)!
                        + "/" + String((0..<length).map { _ in alphabet.randomElement(using: &rng)! }))
        }
        var built = 0
        for url in urls {
            for params in [nil, PekitValue.map(PekitMap(ordered: [.init(key: "k", value: .text("v w")), .init(key: "汉", value: .integer(1))]))] {
                for method in ["GET", "POST"] {
                    var builder = RequestBuilder(url: url)
                    builder.method = .init(method)
                    builder.params = params
                    guard let request = try? builder.build() else { continue }
                    built += 1
                    let carried = try XCTUnwrap(request.parsedURL, url)
                    XCTAssertEqual(carried, try RequestURL(request.url), "\(url) → \(request.url)")
                    var scanned = request
                    scanned.parsedURL = nil
                    XCTAssertEqual(request.target, scanned.target, "\(url) → \(request.url)")
                }
            }
        }
        XCTAssertGreaterThan(built, 1000)
    }

    /// A URL changed after building is parsed again, not read from a stale parse.
    func testChangingTheURLDropsTheParse() throws {
        var request = try RequestBuilder(url: "http://h/a?x=1").build()
        XCTAssertNotNil(request.parsedURL)
        request.url = "http://other/b"
        XCTAssertNil(request.parsedURL)
        XCTAssertEqual(try request.requestURL().host, "other")
        XCTAssertEqual(request.target, "/b")
    }
}
