import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore

final class RequestBuilderTests: XCTestCase {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func testURLResolutionAndQueryAppending() {
        // RFC 3986 §5.4.1 and §5.4.2, the normal and abnormal examples as the RFC gives them,
        // against "http://a/b/c/d;p?q".
        let base = "http://a/b/c/d;p?q"
        let cases: KeyValuePairs = [
            "g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/", "/g": "http://a/g",
            "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y", "#s": "http://a/b/c/d;p?q#s",
            "g#s": "http://a/b/c/g#s", "g?y#s": "http://a/b/c/g?y#s", ";x": "http://a/b/c/;x", "g;x": "http://a/b/c/g;x",
            "g;x?y#s": "http://a/b/c/g;x?y#s", "": "http://a/b/c/d;p?q", ".": "http://a/b/c/", "./": "http://a/b/c/",
            "..": "http://a/b/", "../": "http://a/b/", "../g": "http://a/b/g", "../..": "http://a/", "../../": "http://a/",
            "../../g": "http://a/g",
            "../../../g": "http://a/g", "../../../../g": "http://a/g", "/./g": "http://a/g", "/../g": "http://a/g",
            "g.": "http://a/b/c/g.", ".g": "http://a/b/c/.g", "g..": "http://a/b/c/g..", "..g": "http://a/b/c/..g",
            "./../g": "http://a/b/g", "./g/.": "http://a/b/c/g/", "g/./h": "http://a/b/c/g/h", "g/../h": "http://a/b/c/h",
            "g;x=1/./y": "http://a/b/c/g;x=1/y", "g;x=1/../y": "http://a/b/c/y", "g?y/./x": "http://a/b/c/g?y/./x",
            "g?y/../x": "http://a/b/c/g?y/../x", "g#s/./x": "http://a/b/c/g#s/./x", "g#s/../x": "http://a/b/c/g#s/../x",
            "http:g": "http:g",
        ]
        for (reference, expected) in cases { XCTAssertEqual(URLResolution.resolve(reference, against: base), expected, reference) }
        // AFNetworking's rule, for a base URL (--base) alone: a base path is a directory.
        XCTAssertEqual(URLResolution.resolve("g", against: base, baseIsDirectory: true), "http://a/b/c/d;p/g")
        XCTAssertEqual(URLResolution.resolve("users?x=1", against: "https://api.example.com/v1", baseIsDirectory: true), "https://api.example.com/v1/users?x=1")
        XCTAssertEqual(URLResolution.resolve("../v2/users", against: "https://api.example.com/v1/", baseIsDirectory: true), "https://api.example.com/v2/users")
        // An absolute reference's dot segments go too, unless kept (curl's --path-as-is).
        XCTAssertEqual(URLResolution.resolve("http://h/abs/../d", against: base), "http://h/d")
        XCTAssertEqual(URLResolution.resolve("http://h/abs/../d", against: base, keepingDotSegments: true), "http://h/abs/../d")
        XCTAssertEqual(URLResolution.removeDotSegments("/a/b/c/./../../g"), "/a/g")
        XCTAssertEqual(URLResolution.appendQuery("a=1", to: "http://x/p"), "http://x/p?a=1")
        XCTAssertEqual(URLResolution.appendQuery("a=1", to: "http://x/p?b=2#f"), "http://x/p?b=2&a=1#f")
        XCTAssertEqual(URLResolution.appendQuery("a=1", to: "http://x/p?"), "http://x/p?a=1")
        XCTAssertEqual(URLResolution.appendQuery("", to: "http://x/p"), "http://x/p", "no lone '?'")
    }

    // The seed reference: AFNetworking parameters into the URL for GET, into the body for POST.
    func testReferenceOutputs() throws {
        let params = PekitValue.map(PekitMap(unordered: [.init(key: "name", value: .text("p&p")), .init(key: "nick_name", value: .text("p&p[]@= =!")),
                                                         .init(key: "father name", value: .text("~!@#$%^&*(){}"))]))
        let query = "father%20name=~%21%40%23%24%25%5E%26%2A%28%29%7B%7D&name=p%26p&nick_name=p%26p%5B%5D%40%3D%20%3D%21"
        var get = RequestBuilder(url: "https://www.baidu.com")
        get.params = params
        get.policy = .afnetworking
        XCTAssertEqual(try get.build().url, "https://www.baidu.com?" + query)
        // curl's defaults, then AFNetworking's Accept-Language (its policy carries it).
        XCTAssertEqual(text(try get.build().raw()), "GET /?\(query) HTTP/1.1\r\nHost: www.baidu.com\r\nUser-Agent: \(RequestBuilder.userAgent)\r\nAccept: */*\r\nAccept-Language: en;q=1\r\n\r\n")
        var post = get
        post.method = "POST"
        let request = try post.build()
        XCTAssertEqual(request.url, "https://www.baidu.com")
        XCTAssertEqual(text(try request.bodyBytes()), query)
        XCTAssertEqual(request.headers["content-type"], "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertEqual(request.headers["Content-Length"], String(query.utf8.count))
        var forced = post
        forced.placement = .query
        XCTAssertEqual(try forced.build().url, "https://www.baidu.com?" + query)
    }

    func testHeadersDefaultsAuthJarAndInjection() throws {
        var b = RequestBuilder(url: "http://example.com:8080/x")
        b.environment = ["LANGUAGE": "zh_CN.UTF-8:en_US:fr", "LANG": "de_DE.UTF-8"]
        b.basicAuth = ("user", "pa:ss")
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        _ = try jar.receive("sid=1", from: RequestURL("http://example.com:8080/"))
        b.jar = jar
        b.headers = [.init("X-Trace", "abc"), .init("User-Agent", nil), .init("accept-language", "ja"), .init("X-Trace", "again", spacing: "")]
        b.cookie = "hand=2"
        b.referer = "http://r/"
        let r = try b.build()
        // curl's order: Host, Authorization, User-Agent, Accept, Referer, Cookie (the jar's, then
        // -b's), then the given fields in order, repeats kept.
        XCTAssertEqual(r.headers.fields.map(\.line),
                       ["Host: example.com:8080", "Authorization: Basic dXNlcjpwYTpzcw==", "Accept: */*", "Referer: http://r/",
                        "Cookie: sid=1; hand=2", "X-Trace: abc", "accept-language: ja", "X-Trace:again"])
        XCTAssertEqual(AcceptLanguage.afnetworking.value(environment: ["LANGUAGE": "zh_CN.UTF-8:en_US:fr"]), "zh-CN;q=1, en-US;q=0.9, fr;q=0.8")
        XCTAssertEqual(AcceptLanguage.alamofire.value(environment: ["LANGUAGE": "zh_CN.UTF-8:en_US:fr"]), "zh-CN;q=1.0, en-US;q=0.9, fr;q=0.8")
        XCTAssertEqual(AcceptLanguage.afnetworking.value(environment: ["LANG": "C.UTF-8"]), "en;q=1")
        func error(_ change: (inout RequestBuilder) -> Void) -> String {
            var b = RequestBuilder(url: "http://example.com/")
            change(&b)
            do { _ = try b.build(); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(error { $0.headers = [.init("X-A", "1\r\nEvil: yes")] }, "header X-A: the value contains CR at byte 2 (header injection is refused)")
        XCTAssertEqual(error { $0.headers = [.init("X-A", "a\nb")] }, "header X-A: the value contains LF at byte 2 (header injection is refused)")
        XCTAssertEqual(error { $0.headers = [.init("X-A", "a\u{0}")] }, "header X-A: the value contains NUL at byte 2 (header injection is refused)")
        XCTAssertEqual(error { $0.headers = [.init("Bad Name", "x")] }, "header name \"Bad Name\" is not an HTTP token")
        XCTAssertEqual(error { $0.method = "GET /evil HTTP/1.1\r\n" }, "method \"GET /evil HTTP/1.1\\x0D\\x0A\" is not an HTTP token")
        XCTAssertEqual(error { $0.url = "nope" }, "invalid URL \"nope\": expected scheme://host")
        // One framing: never Content-Length with Transfer-Encoding (RFC 9112 §6.2).
        XCTAssertEqual(error { $0.body = .bytes([0x61], contentType: nil); $0.headers = [.init("Transfer-Encoding", "chunked"), .init("Content-Length", "1")] },
                       "Content-Length and Transfer-Encoding cannot go together (RFC 9112 §6.2): leave one out")
        XCTAssertEqual(error { $0.headers = [.init("Transfer-Encoding", "gzip")] },
                       "Transfer-Encoding: gzip does not end in chunked, so a server cannot tell where the body ends (RFC 9112 §6.3)")
        XCTAssertEqual(error { $0.body = .bytes([0x61], contentType: nil); $0.headers = [.init("Content-Length", "5")] },
                       "Content-Length: 5 is not the body's length, 1 bytes: leave it out and pekit writes it")
    }

    /// tchar is RFC 9110's list (section 5.6.2), for every byte (the check is a bit mask).
    func testTokenBytesAreRFC9110s() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in 0...255 { XCTAssertEqual(PekitHeaders.isTokenByte(UInt8(byte)), tchar.contains(UInt8(byte)), "byte \(byte)") }
        XCTAssertFalse(PekitHeaders.isToken(""))
        // Added without a check by the builder: valid by construction.
        XCTAssertNoThrow(try PekitHeaders.validate(name: "User-Agent", value: RequestBuilder.userAgent))
        XCTAssertTrue(PekitHeaders.isToken("X-Custom_1"))
    }

    /// The wire form: scheme lower-cased, the canonical authority, the bytes a URI cannot hold
    /// encoded; a URL already in that form is the same string.
    func testWireURL() throws {
        let cases = [
            ("http://example.com/ok", "example.com", "http://example.com/ok"),
            ("HTTP://Example.COM/A b?q=é#f g", "example.com", "http://example.com/A%20b?q=%C3%A9#f%20g"),
            ("http://0x7f.1/{x}", "127.0.0.1", "http://127.0.0.1/%7Bx%7D"),
            ("http://h", "h", "http://h"),
            ("no scheme|here", "h", "no%20scheme%7Chere"),
        ]
        for (url, authority, wire) in cases { XCTAssertEqual(RequestBuilder.wireURL(url, authority: authority), wire, url) }
        XCTAssertEqual(try RequestBuilder(url: "HTTP://EXAMPLE.com:80/a b").build().url, "http://example.com:80/a%20b")
        var lower = RequestBuilder(url: "http://h/")
        lower.method = "patch"
        XCTAssertEqual(try lower.build().method, "PATCH")
    }

    func testJSONBodyFollowsPolicyOrder() throws {
        var b = RequestBuilder(url: "http://x/")
        b.method = "PUT"
        b.body = .json(.map(PekitMap(ordered: [.init(key: "b", value: .integer(1)), .init(key: "a", value: .map(PekitMap(ordered: [.init(key: "z", value: .null), .init(key: "y", value: .boolean(true))])))])))
        XCTAssertEqual(text(try b.build().bodyBytes()), #"{"a":{"y":true,"z":null},"b":1}"#)
        b.policy = .form  // order "given"
        XCTAssertEqual(text(try b.build().bodyBytes()), #"{"b":1,"a":{"z":null,"y":true}}"#)
        XCTAssertEqual(try b.build().headers["Content-Type"], "application/json")
    }

    /// Multipart bodies parse back with Python's email parser (a real MIME parser; it leaves the
    /// A part's type cannot add a header line to the part, and a fixed boundary that occurs in
    /// a part's data (which a server would read as the part's end and a forged field after it)
    /// is refused (issue 41).
    func testMultipartCannotBeForged() throws {
        var b = RequestBuilder(url: "http://x/upload")
        b.method = "POST"
        b.body = .multipart([MultipartBody.Part(name: "f", filename: "x", contentType: "text/plain\r\nX-Evil: 1", source: .data([0x61]))])
        XCTAssertThrowsError(try b.build()) { error in
            XCTAssertEqual("\(error)", "header Content-Type (part \"f\"): the value contains CR at byte 11 (header injection is refused)")
        }
        b.body = .multipart([MultipartBody.Part(name: "f", contentType: "a\0b", source: .data([0x61]))])
        XCTAssertThrowsError(try b.build()) { XCTAssertTrue("\($0)".contains("the value contains NUL at byte 2")) }
        let forged = "--XYZ\r\nContent-Disposition: form-data; name=\"admin\"\r\n\r\ntrue\r\n"
        b.body = .multipart([MultipartBody.Part(name: "comment", source: .data(Array(forged.utf8)))])
        b.boundary = "XYZ"
        XCTAssertThrowsError(try b.build()) { error in
            XCTAssertEqual("\(error)", "boundary \"XYZ\" occurs in the part \"comment\": a server would end the part there; leave boundary unset for a random one")
        }
        b.boundary = "a\r\nb"
        XCTAssertThrowsError(try b.build()) { XCTAssertTrue("\($0)".hasPrefix("boundary \"a\\x0D\\x0Ab\": a multipart boundary is 1 to 70"), "\($0)") }
        b.boundary = nil
        let random = try b.build()
        XCTAssertEqual(text(try random.bodyBytes()).components(separatedBy: "Content-Disposition").count, 3, "the random boundary keeps the text one field")
    }

    /// WHATWG %22 escape of a quote in a filename as it is, where form parsers decode it).
    func testMultipartIsWellFormed() throws {
        let dir = try makeTemporaryDirectory("mp")
        let file = dir.appendingPathComponent("data.bin")
        try Data([0, 1, 2, 0xFF, 0x0D, 0x0A, 0x2D, 0x2D]).write(to: file)
        var b = RequestBuilder(url: "http://x/upload")
        b.method = "POST"
        b.params = .map(PekitMap(unordered: [.init(key: "meta", value: .map(PekitMap(unordered: [.init(key: "k", value: .text("v"))])))]))
        b.body = .multipart([MultipartBody.Part(name: "title", source: .data(Array("hello \"world\"".utf8))),
                             MultipartBody.Part(name: "doc", filename: "报告 \"1\".txt", contentType: "text/plain", source: .data(Array("汉字".utf8))),
                             MultipartBody.Part(name: "blob", filename: "data.bin", source: .file(file.path))])
        b.boundary = "BOUNDARY"
        let r = try b.build()
        let body = try r.bodyBytes()
        XCTAssertEqual(Int(r.headers["Content-Length"] ?? ""), body.count)
        XCTAssertTrue(text(body).contains("Content-Disposition: form-data; name=\"doc\"; filename=\"报告 %221%22.txt\"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%20%221%22.txt\r\n"))
        let message = Array("Content-Type: \(r.headers["Content-Type"]!)\r\n\r\n".utf8) + body
        let script = """
            import email, email.policy, sys, json
            m = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)
            out = []
            for p in m.iter_parts():
                out.append([p.get_param("name", header="content-disposition"), p.get_filename(), p.get_payload(decode=True).hex()])
            print(json.dumps([m.is_multipart(), m.defects and str(m.defects), out]))
            """
        let result = String(decoding: try runPython(script, input: Data(message)), as: UTF8.self)
        XCTAssertEqual(result.trimmingCharacters(in: .whitespacesAndNewlines),
                       #"[true, [], [["meta[k]", null, "76"], ["title", null, "68656c6c6f2022776f726c6422"], ["doc", "\u62a5\u544a %221%22.txt", "e6b189e5ad97"], ["blob", "data.bin", "000102ff0d0a2d2d"]]]"#)
        // Streaming writes in bounded chunks.
        var largest = 0
        try r.writeBody { largest = max(largest, $0.count) }
        XCTAssertLessThanOrEqual(largest, 1 << 16)
    }

    func testShellQuotingAndPrintf() {
        XCTAssertEqual("plain-word".shellQuoted, "plain-word")
        XCTAssertEqual("it's".shellQuoted, #"'it'\''s'"#)
        XCTAssertEqual(PekitRequest.printfFormat([0x61, 0x25, 0x27, 0x5C, 0x00, 0x0A, 0xE6]), #"'a%%\047\\\000\012\346'"#)
    }
}
