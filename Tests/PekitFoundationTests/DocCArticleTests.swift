import Foundation
import XCTest
import PekitCore
import PekitCrypto
import PekitFoundation
import PekitHTTPFoundation
import PekitCryptoFoundation
import PekitHTTP

/// The DocC articles' examples do what they say: each line quoted here is in its article, and
/// what its comment shows is what the line gives.
final class DocCArticleTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func article(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// `line` is in `text`; `got` is what the comment after it says.
    func check(_ text: String, _ line: String, _ got: String, file: StaticString = #filePath, lineNumber: UInt = #line) {
        let quoted = text.split(separator: "\n").first { $0.hasPrefix(line) }
        XCTAssertNotNil(quoted, "the article has \(line)", file: file, line: lineNumber)
        guard let quoted, let comment = quoted.range(of: "// ") else { return }
        XCTAssertEqual(String(quoted[comment.upperBound...]), got, line, file: file, line: lineNumber)
    }

    func testEncodingParameters() throws {
        let text = try article("Sources/PekitCore/PekitCore.docc/EncodingParameters.md")
        struct Search: Codable { var q: String; var tags: [String]; var page: Int; var draft: Bool? }
        let search = Search(q: "café & co", tags: ["a", "b"], page: 2, draft: nil)
        let query = try Policy.afnetworking.queryString(encoding: search)
        check(text, "// page=2", "page=2&q=caf%C3%A9%20%26%20co&tags%5B%5D=a&tags%5B%5D=b")
        XCTAssertEqual(query.description, "page=2&q=caf%C3%A9%20%26%20co&tags%5B%5D=a&tags%5B%5D=b")
        let params: PekitValue = ["b": [1, 2], "a": "x y", "n": .null]
        check(text, "try Policy.alamofire.queryString(params)", try Policy.alamofire.queryString(params).description)
        check(text, "try Policy.alamofireForm.queryString(params)", try Policy.alamofireForm.queryString(params).description)
        check(text, "try Policy.php.queryString(params)", try Policy.php.queryString(params).description)
        let php = try QueryServer.php(PHPParser()).read(query, as: Search.self)
        XCTAssertEqual(php.page, 2)
        check(text, "try QueryServer.qs(QSParser()).read(query)", "\(try QueryServer.qs(QSParser()).read(query))")
        var mine = Policy.qs
        mine.arrays = .custom { key, index, _ in ByteString(bytes: key.bytes + Array("[\(index + 1)]".utf8)) }
        XCTAssertTrue(text.contains(#"mine.arrays = .custom { key, index, nested in ByteString(bytes: key.bytes + Array("[\(index + 1)]".utf8)) }"#))
        XCTAssertEqual(try mine.queryString(["t": ["x", "y"]]).description, "t%5B1%5D=x&t%5B2%5D=y")
    }

    func testCookieJars() throws {
        let text = try article("Sources/PekitCore/PekitCore.docc/CookieJars.md")
        let jar = CookieJar(publicSuffixes: try PublicSuffixList.load(environment: [:]), clock: { 1_800_000_000 })
        jar.filters = [CookieFilter(name: "no trackers", accept: { cookie, _ in !cookie.name.hasPrefix("_ga") })]
        let site = try RequestURL("https://www.example.com/")
        var lines: [String] = []
        for field in ["sid=1; Path=/; Secure; HttpOnly", "_ga=GA1.2; Path=/", "wide=1; Domain=com"] {
            lines.append(CookieJar.line(try jar.receive(field, from: site)))
        }
        for line in lines { XCTAssertTrue(text.contains("// " + line + "\n"), line) }
        check(text, "try jar.header(for: site)", "\"\(try jar.header(for: site) ?? "")\"")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docc-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try jar.save(to: directory.appendingPathComponent("cookies.txt").path)
        let again = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
        _ = try again.load(from: directory.appendingPathComponent("cookies.txt").path)
        XCTAssertEqual(try again.header(for: site), "sid=1")
    }

    func testWHATWGURLs() throws {
        let text = try article("Sources/PekitCore/PekitCore.docc/WHATWGURLs.md")
        let url = try WHATWGURL("http://0x7f.1/a/../b?x=1 2")
        check(text, "url.href", "\"\(url.href)\"")
        check(text, "url.hostname", "\"\(url.hostname)\"")
        check(text, "url.search", "\"\(url.search)\"")
        XCTAssertThrowsError(try WHATWGURL("http://exa mple.com/")) { error in
            XCTAssertTrue(text.contains("(`\(error)`)"), "\(error)")
        }
        var u = try WHATWGURL("https://example.com/")
        check(text, #"u.setPort("8443")"#, "\(u.setPort("8443"))")
        let before = u.href
        check(text, #"u.setPort("not-a-port")"#, "\(u.setPort("not-a-port")): the URL is unchanged")
        XCTAssertEqual(u.href, before)
        check(text, #"u.setPathname("/a b")"#, "\(u.setPathname("/a b")): \"\(u.pathname)\"")
    }

    func testSigningRequests() throws {
        let text = try article("Sources/PekitCrypto/PekitCrypto.docc/SigningRequests.md")
        struct Claims: Codable { var sub: String; var exp: Int }
        let key = Array("secret".utf8)
        let token = try JWT.encode(claims: Claims(sub: "u1", exp: 1_900_000_000), key: key, algorithm: .hs256)
        var options = JWT.Options(now: 1_800_000_000)
        options.leeway = .seconds(30)
        check(text, "let claims = try JWT.verify(token, key: key, options: options, as: Claims.self)",
              "claims.sub is \"\(try JWT.verify(token, key: key, options: options, as: Claims.self).sub)\"")
        var request = try RequestBuilder(url: "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08").build()
        let signer = AWSSigV4(accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: "iam")
        let explanation = try signer.sign(&request, at: 1_796_042_096)
        XCTAssertTrue(explanation.canonicalRequest.hasPrefix("GET\n/\nAction=ListUsers&Version=2010-05-08\n"))
        XCTAssertTrue(text.contains("let explanation = try signer.sign(&request, at: 1_796_042_096)"))
    }

    func testSendingRequestsMessage() throws {
        let text = try article("Sources/PekitHTTP/PekitHTTP.docc/SendingRequests.md")
        let message = "\(HTTPError.tooManyRedirects(url: "http://h/", limit: 5))"
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        XCTAssertTrue(flat.contains(String(message.dropFirst("http://h/: ".count))), message)
    }
}
