import PekitCore
import XCTest

/// `RequestTemplate` held to `RequestBuilder.build()`: for random builders (fields alike but for
/// case, `Host`, framing fields, removals, values that are empty, not UTF-8 or hold CR LF; a body,
/// credentials, a token, a jar, a policy's own fields, a signer that reads the values, curl's
/// upload habits) and random new values of the same fields, the request and head a template
/// makes are those the builder builds, or its error is the build's; where the template cannot
/// tell, there is none.
final class RequestTemplateTests: XCTestCase {
    private struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
    }

    private static let urls = ["http://127.0.0.1:8080/ok", "http://h/p?q=a b#f", "http://u:p@h/", "http://[::1]:81/x", "https://h/", "http://h/\u{e9}", "nope"]
    private static let names = ["X-Request", "x-request", "X-Id", "Host", "User-Agent", "Accept", "Authorization", "Cookie", "Expect", "Content-Type",
                                "Content-Length", "Transfer-Encoding", "Accept-Encoding", "bad name"]
    private static let values: [[UInt8]?] = [Array("1".utf8), Array("two words".utf8), [], [0xFF, 0xFE], Array("a\r\nb".utf8), Array(" padded ".utf8),
                                             Array("chunked".utf8), Array("0".utf8), Array("caf\u{e9}".utf8), nil]

    private func header(_ name: String, _ value: [UInt8]?) -> RequestBuilder.Header {
        value.map { RequestBuilder.Header(name, bytes: $0) } ?? RequestBuilder.Header(name, nil)
    }

    /// Everything a request carries that a send reads, as text.
    private func described(_ request: PekitRequest) -> String {
        "\(request.head())|\(request.headers)|\(request.url)|\(request.method)|\(request.body)|\(String(describing: request.requestURLOrNil))|"
            + "\(String(describing: request.requestTarget))|\(request.decodesBody)|\(request.framingLength)|\(request.connect)|\(request.signer != nil)"
    }

    func testATemplatesRequestIsTheBuildersRequest() throws {
        var random = Random(state: 0x5EED)
        var made = 0, errors = 0, compared = 0
        for round in 0..<400 {
            var builder = RequestBuilder(url: random.pick(Self.urls))
            builder.method = .init(random.pick(["GET", "GET", "post", "HEAD", "BAD METHOD"]))
            builder.headers = (0..<random.next(4)).map { _ in header(random.pick(Self.names), random.pick(Self.values)) }
            switch random.next(12) {
            case 0: builder.body = .bytes(Array("body".utf8), contentType: nil)
            case 1: builder.basicAuth = ("user", "secret")
            case 2: builder.bearerToken = "token"
            case 3: builder.userAgent = nil; builder.accept = "text/plain"; builder.referer = "http://r/"
            case 4: builder.cookie = "a=1"
            case 5: builder.policy = .alamofire; builder.environment = ["LANG": "fr_FR.UTF-8"]
            case 6:
                // A signer that reads the values: the template cannot place them alone.
                builder.signer = { request in try request.headers.set("X-Sig", String(request.headers.fields.reduce(0) { $0 + $1.value.utf8.count })) }
            case 7: builder.uploadsAsCurl = true
            case 8: builder.jar = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
            case 9: builder.target = "/elsewhere"
            default: break
            }
            let template: RequestTemplate?
            do {
                let (t, request) = try RequestTemplate.make(builder)
                XCTAssertEqual(described(request), described(try builder.build()), "round \(round): the template's own request")
                template = t
            } catch {
                XCTAssertThrowsError(try builder.build(), "round \(round)") { XCTAssertEqual("\($0)", "\(error)") }
                continue
            }
            guard let template else { continue }
            made += 1
            for _ in 0..<6 {
                // The same fields (names, removals), other values.
                var other = builder
                for i in other.headers.indices where other.headers[i].value != nil {
                    var value = random.pick(Self.values.compactMap { $0 })
                    if random.next(2) == 0 { value = Array(String(random.next(100_000)).utf8) }
                    other.headers[i] = header(other.headers[i].name, value)
                }
                let expected = Result { try other.build() }
                let got = Result { try template.request(url: other.url, method: other.method.rawValue, headers: other.headers) }
                switch (got, expected) {
                case (.success(let request?), .success(let built)):
                    compared += 1
                    XCTAssertEqual(described(request), described(built), "round \(round)")
                case (.success(nil), _):
                    // Only a value that changed from empty to not (or back) is another shape.
                    XCTAssertTrue(zip(other.headers, builder.headers).contains { ($0.value?.isEmpty ?? true) != ($1.value?.isEmpty ?? true) }, "round \(round)")
                case (.failure(let a), .failure(let b)):
                    errors += 1
                    XCTAssertEqual("\(a)", "\(b)", "round \(round)")
                default:
                    XCTFail("round \(round): \(got) | \(expected)")
                }
            }
        }
        XCTAssertGreaterThan(made, 60)
        XCTAssertGreaterThan(compared, 300)
        XCTAssertGreaterThan(errors, 20)
    }

    /// A template's head goes with its request until what the head is written from changes.
    func testAMadeHeadIsDroppedWhenTheRequestChanges() throws {
        var builder = RequestBuilder(url: "http://127.0.0.1:9/ok")
        builder.headers = [.init("X-Request", "1")]
        let (template, _) = try RequestTemplate.make(builder)
        var request = try XCTUnwrap(try template?.request(url: builder.url, method: "GET", headers: [.init("X-Request", "2")]))
        XCTAssertTrue(String(decoding: request.head(), as: UTF8.self).contains("X-Request: 2\r\n"))
        try request.headers.set("X-Request", "3")
        XCTAssertTrue(String(decoding: request.head(), as: UTF8.self).contains("X-Request: 3\r\n"))
        request.url = "http://127.0.0.1:9/other"
        XCTAssertTrue(String(decoding: request.head(), as: UTF8.self).hasPrefix("GET /other HTTP/1.1\r\n"))
    }
}

private extension PekitRequest {
    var requestURLOrNil: RequestURL? { try? requestURL() }
}
