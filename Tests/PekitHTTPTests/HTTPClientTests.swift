import Foundation
import PekitCore
import PekitHTTP
import PekitTestSupport
import XCTest

final class HTTPClientTests: XCTestCase {
    var server: TestServer!
    var client: PekitClient!

    // XCTest keeps test case instances (and what they hold) to the end of the run: let go.
    override func tearDown() { client = nil }

    override func setUpWithError() throws {
        server = try TestServer.shared()
        client = try PekitClient()
    }

    func build(_ url: String, _ configure: (inout RequestBuilder) -> Void = { _ in }) throws -> PekitRequest {
        var builder = RequestBuilder(url: url)
        configure(&builder)
        return try builder.build()
    }

    func echo(_ response: PekitResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func temporaryDirectory() throws -> URL { try makeTemporaryDirectory("http") }

    /// What goes on the wire is exactly `raw()`: request line, every header in order, body.
    /// Timeouts a Swift caller passes unchecked (huge, infinite, NaN) do not crash the conversion
    /// to libcurl's milliseconds (they trapped with SIGILL before).
    func testExtremeTimeoutsDoNotCrash() throws {
        var builder = RequestBuilder(url: server.base + "/status/204")
        builder.method = "GET"
        let request = try builder.build()
        for seconds in [1e16, 1e300, .infinity, -.infinity, .nan] {
            var options = SendOptions()
            options.timeoutSeconds = seconds  // what a script or the command line may give: no Duration holds these
            options.connectSeconds = seconds
            let response = try PekitClient().sendBlocking(request, options: options)
            XCTAssertEqual(response.status, 204, "\(seconds)")
        }
    }

    func testSendsExactlyTheBuiltBytes() throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("upload.bin")
        try Data((0..<70_000).map { UInt8($0 % 256) }).write(to: file)
        let large = dir.appendingPathComponent("large.bin")
        try Data(count: 1_100_000).write(to: large)
        let requests = [
            // curl would add "Expect: 100-continue" to an upload over 1 MiB, and a form
            // Content-Type to a POST without one: neither is in the request, so neither is sent.
            try build("\(server.base)/raw") { $0.method = "POST"; $0.body = .file(large.path, contentType: nil); $0.headers = [.init("Content-Type", nil)] },
            try build("\(server.base)/raw") { $0.method = "PATCH"; $0.body = .bytes([], contentType: nil); $0.headers = [.init("Content-Type", nil)] },
            try build("\(server.base)/raw?x=%2F") { $0.params = .map(PekitMap(ordered: [.init(key: "q", value: .text("a b&c"))])) },
            try build("\(server.base)/raw") { $0.method = "POST"; $0.body = .json(.map(PekitMap(ordered: [.init(key: "漢", value: .integer(1))]))) },
            try build("\(server.base)/raw") { $0.method = "PUT"; $0.body = .file(file.path, contentType: nil) },
            try build("\(server.base)/raw") {
                $0.method = "POST"; $0.boundary = "pekit-test"
                $0.body = .multipart([.init(name: "note", source: .data(Array("hi".utf8))), .init(name: "f", filename: "u.bin", source: .file(file.path))])
            },
            try build("\(server.base)/raw") { $0.method = "DELETE"; $0.headers = [.init("X-Empty", ""), .init("User-Agent", nil)] },
            try build("\(server.base)/raw/../a/./b") { $0.method = "OPTIONS" },
            // As browsers send them: spaces and non-ASCII percent-encoded, userinfo as Basic
            // Authorization, hosts in their canonical form (IDNA, IPv4 in any form, IPv6).
            try build("\(server.base)/raw/a b/汉?q=汉 字&x=\"^\"#frag"),
            try build(server.base.replacingOccurrences(of: "://", with: "://us%20er:p%C3%A4ss@") + "/raw"),
            try build(server.base.replacingOccurrences(of: "127.0.0.1", with: "0x7F.1") + "/raw"),
            try build(server.base.replacingOccurrences(of: "127.0.0.1", with: "Www.例子.中国") + "/raw") {
                $0.connect = [HostMapping(host: "www.例子.中国", port: nil, address: "127.0.0.1", addressPort: nil)]
            },
            try build(server.base.replacingOccurrences(of: "127.0.0.1", with: "[2001:DB8:0:0::1]") + "/raw") {
                $0.connect = [HostMapping(host: "2001:DB8::0:1", port: nil, address: "127.0.0.1", addressPort: nil)]
            },
            // A raw target goes as given.
            try build("\(server.base)/ignored") { $0.target = "/raw/%zz/汉?a=^" },
        ]
        // Each twice in a row (the second reuses the header list its handle kept), then all again.
        for request in requests.flatMap({ [$0, $0] }) + requests {
            let response = try client.sendBlocking(request)
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.body, try request.raw(), "\(request.method) \(request.url):\n\(String(decoding: response.body.prefix(600), as: UTF8.self))")
        }
    }

    /// A request made by hand is checked before it goes out (the builder's own are checked as
    /// they are built, and not parsed again); changing a built request's URL makes it unchecked.
    func testHandMadeRequestsAreChecked() throws {
        var request = try build("\(server.base)/echo")
        XCTAssertNotNil(request.parsedURL)
        request.url = "http://127.0.0.1:1/a b\r\nX-Evil: 1"
        XCTAssertNil(request.parsedURL)
        XCTAssertThrowsError(try client.sendBlocking(request)) {
            XCTAssertEqual("\($0)", #"invalid URL "http://127.0.0.1:1/a b\x0D\x0AX-Evil: 1": control byte 0x0D (CR) at byte 23; encode it (%0D) if it is data"#)
        }
        let handMade = PekitRequest(method: "GET", url: "\(server.base)/echo", headers: request.headers, body: .empty)
        XCTAssertNil(handMade.parsedURL)
        XCTAssertEqual(try client.sendBlocking(handMade).status, 200)
    }

    func testPreviewShowsTheCanonicalURL() throws {
        let request = try build("HTTP://u:p@Www.例子.中国:8080/a b?q=汉#f") { $0.headers = [.init("Accept-Language", "en;q=1")] }
        XCTAssertEqual(request.url, "http://www.xn--fsqu00a.xn--fiqs8s:8080/a%20b?q=%E6%B1%89#f")
        XCTAssertEqual(String(decoding: try request.raw(), as: UTF8.self),
                       "GET /a%20b?q=%E6%B1%89 HTTP/1.1\r\nHost: www.xn--fsqu00a.xn--fiqs8s:8080\r\nAuthorization: Basic dTpw\r\nUser-Agent: \(RequestBuilder.userAgent)\r\nAccept: */*\r\nAccept-Language: en;q=1\r\n\r\n")
        XCTAssertThrowsError(try build("http://h/") { $0.target = "/a\nb" }) {
            XCTAssertEqual("\($0)", "the request target holds LF at byte 3: it would end the request line")
        }
    }

    /// 301/302/303 turn POST into GET without body; 307/308 keep both; 303 keeps HEAD. The same
    /// as curl -L does (run here against the same server).
    func testRedirectMethodRulesMatchCurl() throws {
        for code in [301, 302, 303, 307, 308] {
            let request = try build("\(server.base)/redirect/\(code)?to=/echo") { $0.method = "POST"; $0.body = .form(.map(PekitMap(ordered: [.init(key: "a", value: .text("1"))]))) }
            let response = try client.sendBlocking(request)
            let ours = try echo(response)
            let curl = try runCurl(["-sL", "-d", "a=1", "\(server.base)/redirect/\(code)?to=/echo"])
            let theirs = try XCTUnwrap(JSONSerialization.jsonObject(with: curl) as? [String: Any])
            XCTAssertEqual(ours["method"] as? String, theirs["method"] as? String, "\(code)")
            XCTAssertEqual(ours["body_length"] as? Int, theirs["body_length"] as? Int, "\(code)")
            let names = { (e: [String: Any]) in ((e["headers"] as? [[String]]) ?? []).map { $0[0].lowercased() }.filter { $0.hasPrefix("content-") }.sorted() }
            XCTAssertEqual(names(ours), names(theirs), "\(code)")
            XCTAssertEqual(response.redirects, [.init(method: "POST", url: "\(server.base)/redirect/\(code)?to=/echo", status: code, location: "/echo")])
            XCTAssertEqual(response.url, "\(server.base)/echo")
            XCTAssertEqual(response.method, code >= 307 ? "POST" : "GET")
        }
        let head = try client.sendBlocking(try build("\(server.base)/redirect/303?to=/echo") { $0.method = "HEAD" })
        XCTAssertEqual(head.method, "HEAD")
        XCTAssertEqual(head.status, 200)
    }

    func runCurl(_ arguments: [String]) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return data
    }

    func testRedirectLimitsAndNotFollowing() throws {
        var options = SendOptions()
        options.maxRedirects = 3
        XCTAssertThrowsError(try client.sendBlocking(try build("\(server.base)/chain/5"), options: options)) { error in
            XCTAssertEqual("\(error)", "\(server.base)/chain/5: more than 3 redirects (raise maxRedirects, or followRedirects = false to see the response)")
        }
        XCTAssertEqual(try client.sendBlocking(try build("\(server.base)/chain/3"), options: options).redirects.count, 3)
        options.followRedirects = false
        let response = try client.sendBlocking(try build("\(server.base)/chain/5"), options: options)
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.header("location"), "/chain/4")
        XCTAssertEqual(response.redirects, [])
        let bad = try build("\(server.base)/redirect/302?to=ftp://example.test/x")
        XCTAssertThrowsError(try client.sendBlocking(bad)) { error in
            XCTAssertEqual("\(error)", "\(server.base)/redirect/302?to=ftp://example.test/x: cannot follow redirect to \"ftp://example.test/x\": only http and https are followed")
        }
        // A Location with a space and UTF-8 (servers do send them) is encoded as curl's URL API
        // encodes it (RequestCommandTests holds that to curl): '+' in the query, lower-case hex.
        let odd = try client.sendBlocking(try build("\(server.base)/redirect/302?to=/echo%3Fq%3Da%20b%C3%A9"))
        XCTAssertEqual(try echo(odd)["target"] as? String, "/echo?q=a+b%c3%a9")
    }

    /// Every hop stores its Set-Cookie for its own URL and sends the jar's cookies for its own URL.
    func testCookiesOnEveryHop() throws {
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
        var options = SendOptions()
        options.jar = jar
        let response = try client.sendBlocking(try build("\(server.base)/redirect/302?to=/cookies&cookie=hop%3D1"), options: options)
        XCTAssertEqual(try echo(response)["cookie"] as? String, "hop=1")
        XCTAssertEqual(try jar.header(for: RequestURL("http://127.0.0.1/")), "hop=1")
        // To another host name (same server): the cookie of 127.0.0.1 is not sent there.
        let other = try client.sendBlocking(try build("\(server.base)/redirect/302?to=http://localhost:\(server.httpPort)/cookies"), options: options)
        XCTAssertTrue(try echo(other)["cookie"] is NSNull)
        // A login: POST, 303 with the session cookie, then GET /me with it.
        let login = try client.sendBlocking(try build("\(server.base)/login") {
            $0.method = "POST"; $0.body = .form(.map(PekitMap(ordered: [.init(key: "user", value: .text("ada")), .init(key: "password", value: .text("secret"))])))
        }, options: options)
        XCTAssertEqual(login.status, 200)
        XCTAssertEqual(String(decoding: login.body, as: UTF8.self), #"{"user": "ada"}"#)
        XCTAssertEqual(try jar.cookies(for: RequestURL("http://127.0.0.1/")).map(\.name), ["hop", "session"])
        // A hand-written Cookie header is kept when the caller says so.
        options.cookieHeaderFromJar = false
        let manual = try client.sendBlocking(try build("\(server.base)/cookies") { $0.headers = [.init("Cookie", "mine=1")] }, options: options)
        XCTAssertEqual(try echo(manual)["cookie"] as? String, "mine=1")
    }

    /// With a site for cookies, each hop's context is judged anew (RFC 6265bis §5.2): a POST
    /// navigation from another site sends no Lax cookie, and the GET a 303 turns it into does.
    func testSiteForCookiesIsJudgedOnEveryHop() throws {
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
        let api = "http://localhost:\(server.httpPort)"
        _ = try jar.receive("l=1; SameSite=Lax; Path=/", from: RequestURL(api + "/"))
        var options = SendOptions()
        options.jar = jar
        options.cookieContext = .init(siteForCookies: try RequestURL("http://127.0.0.1/page"), navigation: true)
        let post = try client.sendBlocking(try build(api + "/cookies") { $0.method = "POST" }, options: options)
        XCTAssertTrue(try echo(post)["cookie"] is NSNull)
        let redirected = try client.sendBlocking(try build(api + "/redirect/303?to=/cookies") { $0.method = "POST" }, options: options)
        XCTAssertEqual(try echo(redirected)["cookie"] as? String, "l=1")
        // A subresource of that page (no navigation) sends it on no hop.
        options.cookieContext.navigation = false
        XCTAssertTrue(try echo(client.sendBlocking(try build(api + "/redirect/302?to=/cookies"), options: options))["cookie"] is NSNull)
        // Same-site: the page is on the API's own site.
        options.cookieContext.siteForCookies = try RequestURL(api + "/app")
        XCTAssertEqual(try echo(client.sendBlocking(try build(api + "/cookies") { $0.method = "POST" }, options: options))["cookie"] as? String, "l=1")
    }

    /// Issue 45: a builder's own cookie (`cookie`) goes with the jar's on the wire, as in the
    /// built request, on every hop; with an empty jar it goes alone.
    func testTheBuildersOwnCookieIsSentWithTheJars() throws {
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
        func sent(_ url: String) throws -> Any? {
            var builder = RequestBuilder(url: url)
            builder.cookie = "manual=1"
            builder.jar = jar
            XCTAssertEqual(try builder.build().headers["Cookie"], jar.all.isEmpty ? "manual=1" : "sid=1; manual=1")
            return try echo(client.sendBlocking(try builder.build(), options: SendOptions(cookiesOf: builder)))["cookie"]
        }
        XCTAssertEqual(try sent("\(server.base)/cookies") as? String, "manual=1")
        _ = try jar.receive("sid=1; Path=/", from: RequestURL(server.base + "/"))
        XCTAssertEqual(try sent("\(server.base)/cookies") as? String, "sid=1; manual=1")
        XCTAssertEqual(try sent("\(server.base)/redirect/302?to=/cookies") as? String, "sid=1; manual=1")
    }

    /// Issue 45: the curl command of a request whose path has dot segments sends the bytes pekit
    /// sends (curl itself, run on it, against the test server's /raw).
    func testCurlCommandsKeepDotSegments() throws {
        for path in ["/raw/../raw", "/raw/%2e%2E/raw", "/raw/./raw"] {
            let request = try build(server.base + path)
            let ours = try client.sendBlocking(request).body
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", try request.curl() + " --silent"]
            let out = Pipe()
            shell.standardOutput = out
            try shell.run()
            let theirs = out.fileHandleForReading.readDataToEndOfFile()
            shell.waitUntilExit()
            func requestLine(_ bytes: [UInt8]) -> String { String(decoding: bytes.prefix { $0 != 0x0D }, as: UTF8.self) }
            XCTAssertEqual(requestLine(Array(theirs)), requestLine(ours))
            XCTAssertEqual(requestLine(ours), "GET \(path) HTTP/1.1")
        }
    }

    /// A Set-Cookie value that is not UTF-8 comes back in the next request's Cookie field with the
    /// bytes it came with, as the jar keeps them from a string it is given (issue 43).
    func testSetCookieBytesThatAreNotUTF8SurviveTheWire() throws {
        // Through libcurl as through the plain reader.
        for plain in [true, false] { try setCookieBytesSurvive(plain: plain) }
    }

    private func setCookieBytesSurvive(plain: Bool) throws {
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
        var options = SendOptions()
        options.jar = jar
        options.plainHTTP = plain
        _ = try client.sendBlocking(try build("\(server.base)/cookies/raw?h=bananas%3D%FFtest%FF%3B%20Path%3D%2F"), options: options)
        XCTAssertEqual(try jar.headerBytes(for: RequestURL("http://127.0.0.1/")), Array("bananas=".utf8) + [0xFF] + Array("test".utf8) + [0xFF])
        let echoed = try client.sendBlocking(try build("\(server.base)/raw"), options: options)
        XCTAssertTrue(echoed.body.starts(with: Array("GET /raw HTTP/1.1\r\n".utf8)))
        let cookieLine = Array("Cookie: bananas=".utf8) + [0xFF] + Array("test".utf8) + [0xFF] + [0x0D, 0x0A]
        XCTAssertNotNil(echoed.body.firstRange(of: cookieLine), String(decoding: echoed.body, as: UTF8.self))
    }

    /// connect: the socket goes to 127.0.0.1 while Host, SNI, the certificate check and cookies
    /// use the name.
    func testConnectKeepsTheNameForTLSAndCookies() throws {
        let url = "https://api.example.test:\(server.httpsPort)/cookies/set?k=v"
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 })
        var options = SendOptions()
        options.caCertificate = server.cacert
        options.jar = jar
        options.connect = [try HostMapping("api.example.test:\(server.httpsPort)", "127.0.0.1:\(server.httpsPort)")]
        let response = try client.sendBlocking(try build(url), options: options)
        let e = try echo(response)
        XCTAssertEqual(e["sni"] as? String, "api.example.test")
        XCTAssertEqual(e["tls"] as? Bool, true)
        XCTAssertEqual((e["headers"] as? [[String]])?.first, ["Host", "api.example.test:\(server.httpsPort)"])
        XCTAssertEqual(response.remoteAddress, "127.0.0.1")
        XCTAssertGreaterThan(response.timing.tls, 0)
        XCTAssertEqual(jar.all.map { "\($0.domain) \($0.name)" }, ["api.example.test k"])
        // The mapping can also travel with the request (and shows in its curl command).
        let request = try build("https://api.example.test:\(server.httpsPort)/echo") { $0.connect = options.connect }
        options.connect = []
        XCTAssertEqual(try client.sendBlocking(request, options: options).status, 200)
        XCTAssertTrue(try request.curl().contains("--connect-to api.example.test:\(server.httpsPort):127.0.0.1:\(server.httpsPort) "))
    }

    func testCertificateErrorsSayWhatToDo() throws {
        var options = SendOptions()
        options.connect = [try HostMapping("api.example.test", "127.0.0.1")]
        let url = "https://api.example.test:\(server.httpsPort)/echo"
        XCTAssertThrowsError(try client.sendBlocking(try build(url), options: options)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("GET \(url): SSL certificate problem: unable to get local issuer certificate (curl error 60); to trust a private CA pass caCertificate = \"ca.pem\" (insecure = true skips the check: never in production)"), text)
        }
        options.caCertificate = server.cacert
        options.connect = []
        let byAddress = "https://127.0.0.1:\(server.httpsPort)/echo"
        XCTAssertThrowsError(try client.sendBlocking(try build(byAddress), options: options)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("(curl error 60); the certificate is not for this host name: to reach a host at another address, keep its name in the URL and map it with connect = [HostMapping(host: \"name\", port: 443, address: \"address\", addressPort: 443)]"), text)
        }
        options.caCertificate = nil
        options.insecure = true
        XCTAssertEqual(try client.sendBlocking(try build(byAddress), options: options).status, 200)
    }

    /// One message, three spellings of its options: a Swift caller reads the SendOptions
    /// properties (also `localizedDescription`, through PekitFoundation), a script its fields, the
    /// command line its flags; each name comes from the option's row.
    func testMessagesNameEachSurfacesOptions() {
        let redirects = HTTPError.tooManyRedirects(url: "http://h/", limit: 3)
        XCTAssertEqual("\(redirects)", "http://h/: more than 3 redirects (raise maxRedirects, or followRedirects = false to see the response)")
        XCTAssertEqual(redirects.message(.lua), "http://h/: more than 3 redirects (raise max_redirects, or follow = false to see the response)")
        XCTAssertEqual(redirects.message(.commandLine), "http://h/: more than 3 redirects (raise --max-redirects, or --no-follow to see the response)")
        let body = HTTPError.bodyTooLarge(url: "http://h/", limit: 1 << 20, inMemory: true)
        XCTAssertEqual("\(body)", "http://h/: the response body is larger than 1 MiB (maxBody); stream it with sink = .file(path) or .custom { chunk in … }, or raise maxBody")
        XCTAssertEqual(body.message(.lua), #"http://h/: the response body is larger than 1 MiB (max_body); stream it with sink = "file" or sink = function(chunk), or raise max_body"#)
        XCTAssertEqual(body.message(.commandLine), "http://h/: the response body is larger than 1 MiB (--max-filesize); write it to a file with -o FILE, or raise --max-filesize")
        XCTAssertEqual(HTTPError.Hint.untrustedCertificate.text(.commandLine), "to trust a private CA pass --cacert ca.pem (--insecure skips the check: never in production)")
        XCTAssertEqual(HTTPError.Hint.untrustedCertificate.text(.lua), #"to trust a private CA pass cacert = "ca.pem" (insecure = true skips the check: never in production)"#)
        XCTAssertEqual(HTTPError.Hint.unresolvedHost.text(.commandLine), "check the host name, or map it to an address with --connect")
        XCTAssertEqual(HTTPError.Hint.wrongHostName.text(.lua), #"the certificate is not for this host name: to reach a host at another address, keep its name in the URL and map it with connect = {["name:443"] = "address:443"}"#)
    }

    func testNetworkErrorsAndTimeouts() throws {
        XCTAssertThrowsError(try client.sendBlocking(try build("http://127.0.0.1:1/x"))) { error in
            XCTAssertEqual("\(error)".replacingOccurrences(of: #"after \d+ ms"#, with: "after 0 ms", options: .regularExpression), "GET http://127.0.0.1:1/x: Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server (curl error 7)")
        }
        var options = SendOptions()
        options.timeout = .seconds(0.3)
        XCTAssertThrowsError(try client.sendBlocking(try build("\(server.base)/delay/3"), options: options)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("GET \(server.base)/delay/3: Operation timed out after "), text)
            XCTAssertTrue(text.hasSuffix("(curl error 28); raise timeout or connectTimeout (seconds)"), text)
        }
        // An HTTP error status is a response.
        let missing = try client.sendBlocking(try build("\(server.base)/status/404"))
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.reason, "Not Found")
        XCTAssertEqual(String(decoding: missing.body, as: UTF8.self), "status 404\n")
    }

    func testSinksAndUploadsStream() throws {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("download.bin").path
        var options = SendOptions()
        options.sink = .file(path)
        let response = try client.sendBlocking(try build("\(server.base)/redirect/302?to=/bytes/1000000"), options: options)
        XCTAssertEqual(response.body, [])
        XCTAssertEqual(response.bodyLength, 1_000_000)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(bytes.count, 1_000_000)
        XCTAssertTrue(bytes.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["download.bin"])

        let counts = CallbackState((chunks: 0, total: 0))
        options.sink = .custom { chunk in counts.value.chunks += 1; counts.value.total += chunk.count }
        _ = try client.sendBlocking(try build("\(server.base)/bytes/300000?chunked=1"), options: options)
        XCTAssertEqual(counts.value.total, 300_000)
        XCTAssertGreaterThan(counts.value.chunks, 1)

        // A sink that fails stops the transfer; a failed download leaves no file behind.
        struct Enough: Error {}
        options.sink = .custom { _ in throw Enough() }
        XCTAssertThrowsError(try client.sendBlocking(try build("\(server.base)/bytes/300000"), options: options)) { XCTAssertTrue($0 is Enough) }
        let partial = dir.appendingPathComponent("partial.bin").path
        options.sink = .file(partial)
        options.timeout = .seconds(0.5)
        XCTAssertThrowsError(try client.sendBlocking(try build("\(server.base)/delay/2"), options: options))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["download.bin"])

        // An upload from a file: the server's hash of what arrived is the file's.
        let upload = dir.appendingPathComponent("upload.bin")
        let content = Data((0..<3_000_000).map { UInt8(($0 * 7) % 256) })
        try content.write(to: upload)
        let sent = try client.sendBlocking(try build("\(server.base)/upload") { $0.method = "POST"; $0.body = .file(upload.path, contentType: nil) })
        let e = try echo(sent)
        XCTAssertEqual(e["length"] as? Int, 3_000_000)
        XCTAssertEqual(e["sha256"] as? String, try sha256(upload.path))
        // ...and again after a 307, which sends the body a second time.
        let again = try client.sendBlocking(try build("\(server.base)/redirect/307?to=/upload") { $0.method = "POST"; $0.body = .file(upload.path, contentType: nil) })
        XCTAssertEqual(try echo(again)["length"] as? Int, 3_000_000)
    }

    func sha256(_ path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return String(text.prefix(64))
    }

    /// One client keeps the connection: two requests arrive from the same client port.
    func testKeepAlive() throws {
        let a = try echo(try client.sendBlocking(try build("\(server.base)/echo")))
        let b = try echo(try client.sendBlocking(try build("\(server.base)/echo")))
        XCTAssertEqual(a["client_port"] as? Int, b["client_port"] as? Int)
    }

    /// compressed: Accept-Encoding sent, the body decoded; without it, nothing asked, plain text.
    func testCompressed() throws {
        var options = SendOptions()
        options.compressed = true
        let decoded = try client.sendBlocking(try build("\(server.base)/gzip"), options: options)
        XCTAssertEqual(decoded.header("Content-Encoding"), "gzip")
        XCTAssertEqual(String(decoding: decoded.body, as: UTF8.self), String(repeating: "compressible ", count: 200))
        XCTAssertLessThan(Int(decoded.header("Content-Length")?.description ?? "") ?? .max, 200, "it came compressed")
        let plain = try client.sendBlocking(try build("\(server.base)/gzip"))
        XCTAssertNil(plain.header("Content-Encoding"))
        XCTAssertEqual(plain.body.count, 13 * 200)
    }

    func testProxyAndCancel() throws {
        var options = SendOptions()
        options.proxy = server.base
        let viaProxy = try echo(try client.sendBlocking(try build("http://logical.example.test/echo?x=1"), options: options))
        XCTAssertEqual(viaProxy["target"] as? String, "http://logical.example.test/echo?x=1")
        options = SendOptions()
        options.isCancelled = { true }
        XCTAssertThrowsError(try client.sendBlocking(try build("\(server.base)/delay/2"), options: options)) { error in
            XCTAssertEqual("\(error)", "\(server.base)/delay/2: interrupted")
        }
    }

    func testHostMappingParsing() throws {
        XCTAssertEqual(try HostMapping("API.example.com:443", "203.0.113.7:8443").curlArgument, "api.example.com:443:203.0.113.7:8443")
        XCTAssertEqual(try HostMapping("api.example.com", "[2001:db8::7]").curlArgument, "api.example.com::[2001:db8::7]:")
        XCTAssertEqual(try HostMapping("[::1]:80", "127.0.0.1").curlArgument, "[::1]:80:127.0.0.1:")
        XCTAssertThrowsError(try HostMapping("api.example.com:443", "2001:db8::7")) {
            XCTAssertEqual("\($0)", "connect[\"api.example.com:443\"] = \"2001:db8::7\": write an IPv6 address in brackets, as [2001:db8::1]:443")
        }
        XCTAssertThrowsError(try HostMapping("api.example.com:99999", "1.2.3.4")) {
            XCTAssertEqual("\($0)", "connect key \"api.example.com:99999\": the port must be a number from 1 to 65535")
        }
        XCTAssertThrowsError(try HostMapping("a b", "1.2.3.4")) {
            XCTAssertEqual("\($0)", "connect key \"a b\": the host may not contain spaces, control bytes or any of / ? # @ [ ]")
        }
    }

    /// HTTP/2 over TLS (ALPN) against nghttpd with the test certificate: no reason phrase, the
    /// same body, the logical name kept through `connect`.
    func testHTTP2() throws {
        let docroot = try temporaryDirectory()
        try Data("hello over h2\n".utf8).write(to: docroot.appendingPathComponent("hello.txt"))
        let (process, port) = try startNghttpd(docroot: docroot)
        defer { process.terminate(); process.waitUntilExit() }
        var options = SendOptions()
        options.caCertificate = server.cacert
        options.connect = [try HostMapping("api.example.test:\(port)", "127.0.0.1:\(port)")]
        let request = try build("https://api.example.test:\(port)/hello.txt")
        var response: PekitResponse?
        for _ in 0..<50 {  // until nghttpd listens
            response = try? client.sendBlocking(request, options: options)
            if response != nil { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let r = try XCTUnwrap(response, "nghttpd did not answer")
        XCTAssertEqual(r.httpVersion, "2")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.reason, "")
        XCTAssertEqual(String(decoding: r.body, as: UTF8.self), "hello over h2\n")
        // Asked for explicitly, the same; nghttpd speaks nothing else (HTTP/1.1 gets no reply).
        options.version = .http2
        XCTAssertEqual(try client.sendBlocking(request, options: options).httpVersion, "2")
    }

    /// Many requests at once with HTTP/2 share one connection (multiplexing): nghttpd's log
    /// shows every request's HEADERS on the same session, each on a stream of its own.
    func testHTTP2Multiplexing() throws {
        let docroot = try temporaryDirectory()
        for i in 1...20 { try Data("file \(i)\n".utf8).write(to: docroot.appendingPathComponent("f\(i).txt")) }
        let log = docroot.appendingPathComponent("nghttpd.log")
        let (process, port) = try startNghttpd(docroot: docroot, log: log)
        var options = SendOptions()
        options.caCertificate = server.cacert
        options.connect = [try HostMapping("api.example.test:\(port)", "127.0.0.1:\(port)")]
        options.version = .http2
        // Until nghttpd listens (a first connection that then closes is not counted below).
        for _ in 0..<50 where (try? PekitClient().sendBlocking(try build("https://api.example.test:\(port)/f1.txt"), options: options)) == nil {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let batch = try (1...20).map { (try build("https://api.example.test:\(port)/f\($0).txt"), options) }
        let results = try PekitClient().sendAllBlocking(batch, concurrency: 20)
        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(try results.map { String(decoding: try $0.get().body, as: UTF8.self) }, (1...20).map { "file \($0)\n" })
        XCTAssertEqual(try results.map { try $0.get().httpVersion }, Array(repeating: "2", count: 20))
        // "[id=2] [  0.012] recv HEADERS frame <length=…, flags=0x25, stream_id=13>": the batch's session
        // is the last one; it carried all twenty requests, on twenty streams.
        let text = try String(contentsOf: log, encoding: .utf8)
        let headers = text.split(separator: "\n").filter { $0.contains("recv HEADERS frame") }
        let sessions = headers.compactMap { $0.split(separator: "]").first.map(String.init) }
        let last = try XCTUnwrap(sessions.last)
        XCTAssertEqual(sessions.filter { $0 == last }.count, 20, text)
        let ids = headers.filter { $0.hasPrefix(last + "]") }.compactMap { line -> Int? in
            guard let r = line.range(of: "stream_id=") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
        XCTAssertEqual(Set(ids).count, 20)
    }

    /// Starts nghttpd over TLS with the test certificate on a free port (`log`: its -v output).
    func startNghttpd(docroot: URL, log: URL? = nil) throws -> (Process, Int) {
        let nghttpd = ["/usr/sbin/nghttpd", "/usr/bin/nghttpd"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let nghttpd else { throw XCTSkip("nghttpd is not installed (Debian nghttp2-server; scripts/test installs it)") }
        let tls = URL(fileURLWithPath: server.cacert).deletingLastPathComponent()
        // A free port: bind to 0, read it, let go (nghttpd cannot report one it chose).
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        close(probe)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nghttpd)
        process.arguments = (log == nil ? [] : ["-v"]) + ["--htdocs=\(docroot.path)", "--address=127.0.0.1", String(port),
                             tls.appendingPathComponent("server.key").path, tls.appendingPathComponent("server.pem").path]
        if let log {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: log)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, port)
    }

    /// A hand-written Proxy-Authorization goes no further than Authorization and Cookie: a
    /// redirect to another origin drops all three (issue 41), the same origin keeps them.
    func testCredentialsStayWithTheirOrigin() throws {
        let other = server.base.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        for (to, kept) in [("/echo", true), ("\(other)/echo", false)] {
            var b = RequestBuilder(url: "\(server.base)/redirect/302?to=\(PercentEncoder.rfc3986.encode(to))")
            b.headers = [.init("Proxy-Authorization", "Basic cHJveHk="), .init("Authorization", "Bearer t"),
                         .init("Cookie", "a=1")]
            let r = try PekitClient().sendBlocking(try b.build())
            let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
            let names = Set((echo["headers"] as? [[String]] ?? []).map { $0[0] })
            for name in ["Proxy-Authorization", "Authorization", "Cookie"] {
                XCTAssertEqual(names.contains(name), kept, "\(name) after a redirect to \(to)")
            }
        }
    }
}
