import Foundation
import PekitCore
@testable import PekitHTTP
import PekitTestSupport
import XCTest

/// pekit's own HTTP/1.1 reader (PlainTransfer) against libcurl on the same bytes: the test
/// server answers each request with a canned response (well-formed, odd or broken), once read by
/// pekit and once by libcurl; the response (status, reason, version, every header field, body)
/// or the error (curl's code and words) must be the same.
final class PlainHTTPTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws { server = try TestServer.shared() }

    static let cases: [(String, String, Bool)] = [
        // (name, response bytes, whether the server closes the connection after them)
        ("content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello", false),
        ("chunked with extensions and a trailer",
         "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n", false),
        ("chunked beats content-length", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n", false),
        ("to the close", "HTTP/1.1 200 OK\r\nX-A: 1\r\n\r\nuntil the close", true),
        ("HTTP/1.0", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", true),
        ("interim responses", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx", false),
        ("204", "HTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n", false),
        ("304", "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", false),
        ("no reason", "HTTP/1.1 200\r\nContent-Length: 1\r\n\r\nx", false),
        ("a reason with spaces", "HTTP/1.1 404 Not  Found Here\r\nContent-Length: 0\r\n\r\n", false),
        ("folded field", "HTTP/1.1 200 OK\r\nX-Fold: a\r\n  b\r\nContent-Length: 0\r\n\r\n", false),
        ("bare LF", "HTTP/1.1 200 OK\nContent-Length: 2\nX-A:  spaced  \n\nok", false),
        ("a line without a colon", "HTTP/1.1 200 OK\r\nNoColon\r\nContent-Length: 0\r\n\r\n", false),
        ("connection close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", true),
        ("repeated fields", "HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n", false),
        ("empty reply", "", true),
        ("short body", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", true),
        ("cut chunks", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", true),
        ("bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n", true),
        ("HTTP/0.9", "hello there\r\n", true),
        ("a four-digit status", "HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n", true),
        ("HTTP/1.2", "HTTP/1.2 200 OK\r\nContent-Length: 0\r\n\r\n", true),
        ("HTTP/2 text", "HTTP/2 200\r\nContent-Length: 0\r\n\r\n", true),
        ("a bad length", "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nbody", true),
        ("a negative length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nbody", true),
        ("two lengths", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 4\r\n\r\nbody", true),
        ("gzip then chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", true),
        ("HTTP/1.0 kept alive", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", false),
        ("cut in the header block", "HTTP/1.1 200 OK\r\nX-A: 1\r\n", true),
        ("only a status line", "HTTP/1.1 200 OK\r\n", true),
        ("cut in the status line", "HTTP/1.1 20", true),
        ("a status under 100", "HTTP/1.1 099 Odd\r\nContent-Length: 0\r\n\r\n", true),
    ]

    /// What a send came to, as text: the whole response or the error.
    func outcome(_ url: String, plain: Bool, method: String = "GET") throws -> String {
        var builder = RequestBuilder(url: url)
        builder.method = .init(method)
        let request = try builder.build()
        var options = SendOptions()
        options.plainHTTP = plain
        XCTAssertEqual(Transport.choose(request, options) == .plain, plain)
        do {
            let r = try PekitClient().sendBlocking(request, options: options)
            let fields = r.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
            return "\(r.status) [\(r.reason)] HTTP/\(r.httpVersion)\n\(fields)\n\n\(String(decoding: r.body, as: UTF8.self)) (\(r.bodyLength))"
        } catch {
            return "error: \(error)"
        }
    }

    func testReadsResponsesAsLibcurlDoes() throws {
        for (name, bytes, close) in Self.cases {
            let b64 = Data(bytes.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let url = "\(server.base)/canned?b=\(b64)&close=\(close ? 1 : 0)"
            XCTAssertEqual(try outcome(url, plain: true), try outcome(url, plain: false), name)
        }
        let head = Data("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".utf8).base64EncodedString()
        XCTAssertEqual(try outcome("\(server.base)/canned?b=\(head)&close=0", plain: true, method: "HEAD"),
                       try outcome("\(server.base)/canned?b=\(head)&close=0", plain: false, method: "HEAD"))
    }

    /// What the reader makes of `bytes` given in pieces of the sizes `splits` yields, then the close:
    /// the response (status line, fields, body) or the failure.
    func read(_ bytes: [UInt8], isHead: Bool = false, splits: () -> Int) -> String {
        let exchange = Exchange(body: BodyStream([]), options: SendOptions(), url: "http://x/", willFollow: { _, _ in false })
        var reader = ResponseReader(isHead: isHead)
        var at = 0
        do {
            while at < bytes.count, !reader.isDone {
                let n = min(max(1, splits()), bytes.count - at)
                let more = try bytes[at..<at + n].withUnsafeBytes { try reader.read($0, into: exchange) }
                XCTAssertTrue(more)
                at += n
            }
            if !reader.isDone { try reader.closed() }
        } catch {
            return "failure \(error)"
        }
        let r = exchange.response
        return "\(r.status) \(r.reason) \(r.httpVersion) \(r.headers.map { "\($0.name)=\($0.value)" }) \(r.body) reusable=\(reader.reusable)"
    }

    /// However the bytes are cut as they arrive, the reader makes the same of them; and bytes
    /// from a stranger (random, or a response with random bytes changed) end in a response or a
    /// failure, never a crash or a hang.
    func testReadingDoesNotDependOnHowBytesArrive() {
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func random(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        for (name, text, _) in Self.cases {
            let bytes = Array(text.utf8)
            let whole = read(bytes) { bytes.count }
            XCTAssertEqual(read(bytes) { 1 }, whole, name)
            for _ in 0..<20 { XCTAssertEqual(read(bytes) { 1 + random(9) }, whole, name) }
            for _ in 0..<50 {
                var changed = bytes
                for _ in 0..<3 where !changed.isEmpty { changed[random(changed.count)] = UInt8(random(256)) }
                _ = read(changed) { 1 + random(16) }
            }
        }
        for _ in 0..<300 {
            let noise = (0..<random(400)).map { _ in UInt8(random(256)) }
            _ = read(Array("HTTP/1.1 200 OK\r\n".utf8) + noise) { 1 + random(32) }
            _ = read(noise) { 1 + random(32) }
        }
    }

    /// The bytes on the wire are libcurl's: Host first (libcurl moves it there and drops a second
    /// one), an empty value as "Name:", the rest in order.
    func testWritesWhatLibcurlWrites() throws {
        var request = try RequestBuilder(url: "\(server.base)/raw?a=1#frag").build()
        request.headers = PekitHeaders()
        try request.headers.add("X-First", "1")
        try request.headers.add("Host", "example.test:1", spacing: "  ")
        try request.headers.add("X-Empty", "")
        try request.headers.add("host", "second.test")
        try request.headers.add("Accept", "*/*")
        var options = SendOptions()
        let ours = try PekitClient().sendBlocking(request, options: options)
        options.plainHTTP = false
        let curls = try PekitClient().sendBlocking(request, options: options)
        XCTAssertEqual(String(decoding: ours.body, as: UTF8.self), String(decoding: curls.body, as: UTF8.self))
        XCTAssertEqual(String(decoding: ours.body, as: UTF8.self),
                       "GET /raw?a=1 HTTP/1.1\r\nHost:  example.test:1\r\nX-First: 1\r\nX-Empty:\r\nAccept: */*\r\n\r\n")
        // One writer of the head: what --raw and req:raw() print is what libcurl sent.
        XCTAssertEqual(try request.raw(), curls.body)
    }

    /// A kept-alive connection the server closed while idle: the next request goes again on a
    /// new connection (as curl does), and one client keeps its connection between requests.
    func testServerClosedIdleConnectionIsRetried() throws {
        let client = try PekitClient()
        // No "Connection: close", yet the server closes: the client believes it can reuse it.
        let b64 = Data("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8).base64EncodedString()
        let first = try client.sendBlocking(try RequestBuilder(url: "\(server.base)/canned?b=\(b64)&close=1").build())
        XCTAssertEqual(first.body, Array("ok".utf8))
        Thread.sleep(forTimeInterval: 0.05)
        let echo = try client.sendBlocking(try RequestBuilder(url: "\(server.base)/echo").build())
        XCTAssertEqual(echo.status, 200)
        let again = try client.sendBlocking(try RequestBuilder(url: "\(server.base)/echo").build())
        let port = { (r: PekitResponse) in (try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])?["client_port"] as? Int }
        XCTAssertNotNil(port(echo))
        XCTAssertEqual(port(echo), port(again))
    }

    /// A host name goes to libcurl first (its resolver); later requests go to the address it
    /// found, on pekit's own connection, kept between them.
    func testNamesAreResolvedByLibcurlFirst() throws {
        let client = try PekitClient()
        let url = server.base.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/echo"
        let port = { (r: PekitResponse) in (try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])?["client_port"] as? Int }
        let first = try client.sendBlocking(try RequestBuilder(url: url).build())
        let second = try client.sendBlocking(try RequestBuilder(url: url).build())
        let third = try client.sendBlocking(try RequestBuilder(url: url).build())
        XCTAssertEqual(first.remoteAddress, "127.0.0.1")
        XCTAssertEqual(second.remoteAddress, "127.0.0.1")
        XCTAssertNotEqual(port(first), port(second), "libcurl's connection, then pekit's")
        XCTAssertEqual(port(second), port(third))
        XCTAssertEqual(first.timing.dns > 0, true, "libcurl resolved the name")
        XCTAssertEqual(third.timing.dns, 0, "nothing resolved")
    }

    /// A connection that is not made within connect_timeout fails as libcurl's does: a listening
    /// socket whose backlog is full drops the new connection's SYN, so the connect hangs.
    func testConnectTimeoutAsLibcurl() throws {
        let listener = LoopbackListener.neverAccepting()
        defer { withExtendedLifetime(listener) {} }
        let port = listener.port
        let request = try RequestBuilder(url: "http://127.0.0.1:\(port)/").build()
        func failure(plain: Bool) -> String {
            var options = SendOptions()
            options.connectTimeout = .seconds(0.3)
            options.plainHTTP = plain
            do { _ = try PekitClient().sendBlocking(request, options: options); return "sent" } catch {
                return "\(error)".replacingOccurrences(of: #"after \d+ ms"#, with: "after N ms", options: .regularExpression)
            }
        }
        let expected = "GET http://127.0.0.1:\(port)/: Failed to connect to 127.0.0.1 port \(port) after N ms: Timeout was reached (curl error 28); raise timeout or connectTimeout (seconds)"
        XCTAssertEqual(failure(plain: true), expected)
        // libcurl's own words depend on which of its timers sees the limit first, its connect
        // filter's (the words above) or, on a loaded machine, the multi handle's: either is libcurl's.
        let alternate = "GET http://127.0.0.1:\(port)/: Connection timeout after N ms (curl error 28); raise timeout or connectTimeout (seconds)"
        XCTAssertTrue([expected, alternate].contains(failure(plain: false)))
        // The whole send's timeout running out while connecting: libcurl's other words.
        XCTAssertEqual(outcome(request, timeout: 0.3, plain: true), outcome(request, timeout: 0.3, plain: false))
        XCTAssertEqual(outcome(request, timeout: 0.3, plain: true), "error: GET http://127.0.0.1:\(port)/: Connection timed out after N milliseconds (curl error 28); raise timeout or connectTimeout (seconds)")
    }

    /// The send's outcome with `timeout`, the milliseconds in its message written N.
    func outcome(_ request: PekitRequest, timeout: Double, plain: Bool) -> String {
        var options = SendOptions()
        options.timeout = .seconds(timeout)
        options.plainHTTP = plain
        XCTAssertEqual(Transport.choose(request, options) == .plain, plain)
        do {
            let r = try PekitClient().sendBlocking(request, options: options)
            return "\(r.status) \(r.bodyLength)"
        } catch {
            return "error: " + "\(error)".replacingOccurrences(of: #"after \d+ m"#, with: "after N m", options: .regularExpression)
        }
    }

    /// A timeout while waiting for the answer, and in the middle of a body of known or unknown
    /// length, says what libcurl says: how long, and how much of the body came.
    func testTimeoutsAsLibcurl() throws {
        for (path, expected) in [("/delay/3", "with 0 bytes received"), ("/bytes/40000?pause=2", "with 16064 out of 40000 bytes received"),
                                 ("/bytes/40000?pause=2&chunked=1", "with 16064 bytes received")] {
            let request = try RequestBuilder(url: server.base + path).build()
            let ours = outcome(request, timeout: 0.5, plain: true)
            XCTAssertEqual(ours, outcome(request, timeout: 0.5, plain: false), path)
            XCTAssertEqual(ours, "error: GET \(server.base)\(path): Operation timed out after N milliseconds \(expected) (curl error 28); raise timeout or connectTimeout (seconds)")
        }
        XCTAssertEqual(outcome(try RequestBuilder(url: server.base + "/status/204").build(), timeout: 5, plain: true), "204 0", "within the limit")
    }

    /// Every stored property of SendOptions is either implemented by pekit's transfer or sends
    /// through libcurl when set: an option added later and not classified fails here, so the
    /// plain path can never ignore one silently. And each libcurl-only option, set, goes there.
    func testEveryOptionIsClassified() throws {
        let names = Set(Mirror(reflecting: SendOptions()).children.compactMap(\.label))
        XCTAssertEqual(names.subtracting(Transport.implementedOptions).subtracting(Transport.libcurlOptions), [], "options in neither list")
        XCTAssertEqual(Transport.implementedOptions.intersection(Transport.libcurlOptions), [])
        XCTAssertEqual(Transport.implementedOptions.union(Transport.libcurlOptions).subtracting(names), [], "names that are no option")
        let get = try RequestBuilder(url: "http://127.0.0.1:1/x").build()
        var changed: [String: SendOptions] = [:]
        var o = SendOptions(); o.ipVersion = .v4; changed["ipVersion"] = o
        o = SendOptions(); o.proxy = "http://p:1"; changed["proxy"] = o
        o = SendOptions(); o.connect = [HostMapping(host: "a", port: 80, address: "b", addressPort: 80)]; changed["connect"] = o
        o = SendOptions(); o.version = .http2; changed["version"] = o
        o = SendOptions(); o.compressed = true; changed["compressed"] = o
        o = SendOptions(); o.rawTransfer = true; changed["rawTransfer"] = o
        o = SendOptions(); o.progress = { _ in }; changed["progress"] = o
        o = SendOptions(); o.transferEncoding = true; changed["transferEncoding"] = o
        o = SendOptions(); o.ignoresContentLength = true; changed["ignoresContentLength"] = o
        o = SendOptions(); o.proxyTunnel = true; changed["proxyTunnel"] = o
        o = SendOptions(); o.unixSocket = "/tmp/s"; changed["unixSocket"] = o
        o = SendOptions(); o.abstractUnixSocket = "s"; changed["abstractUnixSocket"] = o
        o = SendOptions(); o.allowsHTTP09 = true; changed["allowsHTTP09"] = o
        XCTAssertEqual(Set(changed.keys), Transport.libcurlOptions)
        o = SendOptions(); o.version = .http1_0
        for (name, options) in changed.map({ ($0.key, $0.value) }) + [("version 1.0", o)] {
            guard case .libcurl = Transport.choose(get, options) else { return XCTFail("\(name) set: still pekit's transfer") }
        }
    }

    /// pekit's transfer reads as libcurl 7.88 does: it sends only beside that libcurl (the
    /// headers of the build, and the version line of a libcurl loaded since).
    func testOwnTransferOnlyBesideTheLibcurlItReadsAs() {
        XCTAssertTrue(HeldLibcurl.isHeld(versionNumber: 0x075801))
        XCTAssertTrue(HeldLibcurl.isHeld(versionNumber: 0x075800))
        XCTAssertFalse(HeldLibcurl.isHeld(versionNumber: 0x080E01), "8.14.1")
        XCTAssertFalse(HeldLibcurl.isHeld(versionNumber: 0x075701), "7.87.1")
        XCTAssertTrue(HeldLibcurl.isHeld(versionLine: "libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13"))
        XCTAssertFalse(HeldLibcurl.isHeld(versionLine: "libcurl/8.14.1 OpenSSL/3.5.1"))
        XCTAssertFalse(HeldLibcurl.isHeld(versionLine: "libcurl/7.881.0"))
        // This machine's: Debian 12's libcurl, built and loaded.
        XCTAssertEqual(HeldLibcurl.isHeld(versionLine: PekitClient.curlVersion), HeldLibcurl.built)
        XCTAssertEqual(HeldLibcurl.reason == nil, HeldLibcurl.built)
    }

    /// What pekit takes on itself, and what it leaves to libcurl.
    func testWhatGoesWithoutLibcurl() throws {
        let get = try RequestBuilder(url: "http://127.0.0.1:1/x").build()
        XCTAssertEqual(Transport.choose(get, SendOptions()), .plain)
        var options = SendOptions()
        options.timeout = .seconds(1)
        XCTAssertEqual(Transport.choose(get, options), .plain, "a timeout is kept as libcurl keeps it")
        options = SendOptions()
        options.proxy = "http://127.0.0.1:3128"
        XCTAssertEqual(Transport.choose(get, options), .libcurl("option proxy"))
        options = SendOptions()
        options.compressed = true
        XCTAssertEqual(Transport.choose(get, options), .libcurl("option compressed"))
        options = SendOptions()
        options.trace = { _, _ in }
        XCTAssertEqual(Transport.choose(get, options), .plain, "a trace shows pekit's own exchange (-v sends as without it)")
        XCTAssertEqual(Transport.choose(try RequestBuilder(url: "https://127.0.0.1:1/x").build(), SendOptions()), .libcurl("not http://"))
        var post = RequestBuilder(url: "http://127.0.0.1:1/x")
        post.method = "POST"
        post.body = .bytes([1], contentType: nil)
        XCTAssertEqual(Transport.choose(try post.build(), SendOptions()), .libcurl("a request body"))
        XCTAssertNil(PlainRoute("http://user@127.0.0.1/"), "user info")
        XCTAssertEqual(PlainRoute("http://[::1]:8080/x")?.host, "::1")
        XCTAssertEqual(PlainRoute("http://Example.COM?q")?.key, "example.com")
        XCTAssertEqual(PlainRoute("http://example.com:8080#f")?.port, 8080)
        XCTAssertNil(PlainRoute("http://example.com:0/"))
        // Connecting fails: libcurl tries and says why, in its words.
        XCTAssertThrowsError(try PekitClient().sendBlocking(get)) { error in
            XCTAssertTrue("\(error)".hasPrefix("GET http://127.0.0.1:1/x: Failed to connect to 127.0.0.1 port 1 after "), "\(error)")
        }
    }
}
