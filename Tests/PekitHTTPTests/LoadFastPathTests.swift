import Foundation
import PekitCore
@testable import PekitHTTP
import PekitTestSupport
import XCTest

/// `pekit load`'s fast path (`LoadConnections`) held to the general path (`HTTPEngine`): the
/// same run on the same server, answered in each way a server answers (lengths, chunks, HTTP/1.0
/// to the close, `Connection: close`, a HEAD, a redirect not followed and followed, an error
/// status, a broken status line, a timeout, nobody listening), counts the same requests,
/// statuses, bytes and errors. The `http` fuzz target compares them on random answers.
final class LoadFastPathTests: XCTestCase {
    private func run(_ url: String, method: String = "GET", fast: Bool, requests: Int = 24, timeout: Double = 5, connect: Double? = 30,
                     follow: Bool = false) throws -> LoadResult {
        var builder = RequestBuilder(url: url)
        builder.method = .init(method)
        let request = try builder.build()
        var options = SendOptions()
        options.followRedirects = follow
        options.maxRedirects = 3
        options.connectSeconds = connect
        XCTAssertNotNil(LoadConnections.route(for: request, options: options), "the fast path takes \(url)")
        let runner = LoadRunner(plan: LoadPlan(connections: 3, duration: nil, requests: requests, timeout: timeout), request: request, options: options)
        runner.usesFastPath = fast
        let result = try runner.run()
        XCTAssertEqual(runner.fastPathRequests, fast ? requests : 0, "first hops on the fast path: \(url)")
        return result
    }

    private func canned(_ response: String, close: Bool) throws -> String {
        let b = Data(response.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return try TestServer.shared().base + "/canned?b=\(b)&close=\(close ? 1 : 0)"
    }

    private func assertSame(_ url: String, method: String = "GET", requests: Int = 24, timeout: Double = 5, connect: Double? = 30, messages: Bool = true,
                            follow: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        let general = try run(url, method: method, fast: false, requests: requests, timeout: timeout, connect: connect, follow: follow)
        let fast = try run(url, method: method, fast: true, requests: requests, timeout: timeout, connect: connect, follow: follow)
        XCTAssertEqual(fast.requests, general.requests, "requests: \(url)", file: file, line: line)
        XCTAssertEqual(fast.statuses, general.statuses, "statuses: \(url)", file: file, line: line)
        XCTAssertEqual(fast.bytesReceived, general.bytesReceived, "bytes: \(url)", file: file, line: line)
        XCTAssertEqual(fast.errors, general.errors, "errors: \(url)", file: file, line: line)
        XCTAssertEqual(fast.latency.count, general.latency.count, "answers: \(url)", file: file, line: line)
        if messages {
            // The same words; the milliseconds a timeout took are the clock's.
            let shape = { (text: String) in text.replacingOccurrences(of: #"\d+ milliseconds"#, with: "N milliseconds", options: .regularExpression) }
            XCTAssertEqual(fast.messages.map { shape($0.text) }, general.messages.map { shape($0.text) }, "messages: \(url)", file: file, line: line)
        }
    }

    func testEachWayOfAnsweringCountsTheSameOnBothPaths() throws {
        try assertSame(try canned("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", close: false))
        try assertSame(try canned("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n", close: false))
        try assertSame(try canned("HTTP/1.0 200 OK\r\n\r\nread to the close", close: true))
        try assertSame(try canned("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", close: true))
        try assertSame(try canned("HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n", close: false))
        try assertSame(try canned("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy", close: false))
        try assertSame(try canned("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", close: false))
        try assertSame(try canned("HTTP/1.1 abc\r\n\r\n", close: true))
        try assertSame(try canned("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", close: true))
        try assertSame(try TestServer.shared().base + "/echo", method: "HEAD")
    }

    /// A request that follows redirects: its first hop on the fast path; a redirect's answer read
    /// whole and followed by the general path's rules from there, so that every run counts what
    /// the general path alone counts: the final status and body, a loop's error.
    func testARedirectFollowedGoesOnFromTheFastPathsAnswer() throws {
        let server = try TestServer.shared()
        let base = server.base
        for answer in [
            "HTTP/1.1 302 Found\r\nLocation: /bytes/100\r\nContent-Length: 9\r\n\r\nelsewhere",
            "HTTP/1.1 301 Moved Permanently\r\nLocation: http://localhost:\(server.httpPort)/bytes/50\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nmove\r\n0\r\n\r\n",
            "HTTP/1.1 307 Temporary Redirect\r\nLocation: /status/404\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 303 See Other\r\nLocation: /bytes/7\r\nContent-Length: 0\r\n\r\n",
            // No Location: the answer itself, body and all.
            "HTTP/1.1 302 Found\r\nContent-Length: 11\r\n\r\nnowhere yet",
            "HTTP/1.1 302 Found\r\nLocation:  \r\nContent-Length: 5\r\n\r\nblank",
            // Not a redirect: counted on the fast path as before.
            "HTTP/1.1 200 OK\r\nLocation: /bytes/100\r\nContent-Length: 2\r\n\r\nok",
        ] {
            try assertSame(try canned(answer, close: false), follow: true)
            try assertSame(try canned(answer, close: true), follow: true)
        }
        // A loop: the fourth redirect is one too many (maxRedirects 3), the same error on both paths.
        let loop = base + "/redirect/302?to=" + "/redirect/302?to=/redirect/302%3Fto%3D/redirect/302%253Fto%253D/echo"
        let general = try run(loop, fast: false, requests: 6, follow: true)
        XCTAssertEqual(general.errors, ["transfer": 6], "the general path's own count: \(general.messages)")
        try assertSame(loop, requests: 6, follow: true)
        // The statuses the general path ends on, for the first answers above.
        let first = try run(try canned("HTTP/1.1 302 Found\r\nLocation: /bytes/100\r\nContent-Length: 9\r\n\r\nelsewhere", close: false), fast: true, follow: true)
        XCTAssertEqual(first.statuses, [200: 24])
        XCTAssertEqual(first.bytesReceived, 2400)
    }

    func testTimeoutsAndRefusedConnectionsAreTheSameKinds() throws {
        try assertSame(try TestServer.shared().base + "/delay/2", requests: 3, timeout: 0.3)
        // Nobody listens: libcurl's words on the general path, pekit's on the fast one; the kind is the same.
        try assertSame("http://127.0.0.1:\(LoopbackListener.unused().port)/", requests: 6, messages: false)
        // A listener whose queue is full and never accepts: a connect hangs, and the connect
        // limit ends each try, long before the whole exchange's, on both paths.
        let full = LoopbackListener.neverAccepting()
        let general = try run("http://127.0.0.1:\(full.port)/", fast: false, requests: 3, timeout: 5, connect: 0.3)
        let fast = try run("http://127.0.0.1:\(full.port)/", fast: true, requests: 3, timeout: 5, connect: 0.3)
        XCTAssertEqual(general.errors, ["timeout": 3])
        XCTAssertEqual(fast.errors, general.errors)
        let shape = { (text: String) in text.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression) }
        XCTAssertEqual(fast.messages.map { shape($0.text) }, general.messages.map { shape($0.text) })
        XCTAssertTrue(fast.messages.first?.text.contains("Failed to connect to 127.0.0.1 port \(full.port) after ") == true,
                      "libcurl's words for the connect's own limit: \(fast.messages)")
    }

    /// A source giving a request each time (a script's function): those that qualify and go
    /// where the first went take the fast path with their own heads, the others the general
    /// path, in the same run; the counts are those of the general path alone.
    func testASourcesRequestsTakeTheFastPathWhereTheyQualify() throws {
        let server = try TestServer.shared()
        for mixed in [false, true] {
            var runs: [LoadResult] = []
            for fast in [false, true] {
                var options = SendOptions()
                options.followRedirects = false
                // Each request its own body length, so that a head sent for another shows in the bytes.
                let source: LoadRunner.Source = { n in
                    let host = mixed && n % 3 == 0 ? "localhost" : "127.0.0.1"
                    let url = "http://\(host):\(server.httpPort)/bytes/\(n % 7 * 100)"
                    return (try RequestBuilder(url: url).build(), options)
                }
                let runner = LoadRunner(plan: LoadPlan(connections: 4, duration: nil, requests: 60, timeout: 5), source: source)
                runner.usesFastPath = fast
                runs.append(try runner.run())
                if fast {
                    XCTAssertEqual(runner.fastPathRequests, mixed ? 40 : 60, "mixed: \(mixed)")
                } else {
                    XCTAssertEqual(runner.fastPathRequests, 0)
                }
            }
            XCTAssertEqual(runs[1].requests, runs[0].requests)
            XCTAssertEqual(runs[1].statuses, runs[0].statuses)
            XCTAssertEqual(runs[1].errors, runs[0].errors)
            // Requests 0…59: n % 7 * 100 bytes each.
            XCTAssertEqual(runs[0].bytesReceived, Int64((0..<60).reduce(0) { $0 + $1 % 7 * 100 }))
            XCTAssertEqual(runs[1].bytesReceived, runs[0].bytesReceived)
        }
    }

    /// Where the general path would do more than send and read, the fast path is not taken.
    func testTheFastPathIsTakenOnlyWhereTheGeneralPathWouldDoNothingMore() throws {
        let request = try RequestBuilder(url: "http://127.0.0.1:9/").build()
        var bare = SendOptions()
        bare.followRedirects = false
        XCTAssertNotNil(LoadConnections.route(for: request, options: bare))
        var following = bare
        following.followRedirects = true
        XCTAssertNotNil(LoadConnections.route(for: request, options: following), "a redirect is handed to the general path")
        var changes: [(String, (inout SendOptions) -> Void)] = [
            ("a jar", { $0.jar = CookieJar(publicSuffixes: nil, clock: { 1_800_000_000 }) }),
            ("retries", { $0.retry = .curl(retries: 1) }),
            ("a trace", { $0.trace = { _, _ in } }),
            ("a proxy", { $0.proxy = "http://127.0.0.1:3128" }),
            ("HTTP/2", { $0.version = .http2 }),
            ("a sink", { $0.sink = .custom { _ in } }),
        ]
        changes.append(("a body limit", { $0.maxBody = 10 }))
        changes.append(("cookies explained", { $0.explainsCookies = true }))
        // Notices are about a jar's cookies, and a digest hash answers only a challenge: neither
        // does anything here, and neither keeps a request off the fast path.
        var quiet = bare
        quiet.notice = { _ in }
        quiet.authHash = { _, bytes in bytes }
        XCTAssertNotNil(LoadConnections.route(for: request, options: quiet))
        var digest = RequestBuilder(url: "http://127.0.0.1:9/")
        digest.basicAuth = ("u", "p")
        quiet.authScheme = .digest
        XCTAssertNil(LoadConnections.route(for: try digest.build(), options: quiet), "a challenge to answer")
        for (what, change) in changes {
            var options = bare
            change(&options)
            XCTAssertNil(LoadConnections.route(for: request, options: options), what)
        }
        XCTAssertNil(LoadConnections.route(for: try RequestBuilder(url: "http://localhost:9/").build(), options: bare), "a name to resolve")
        XCTAssertNil(LoadConnections.route(for: try RequestBuilder(url: "https://127.0.0.1:9/").build(), options: bare), "TLS")
        var post = RequestBuilder(url: "http://127.0.0.1:9/")
        post.body = .bytes([1], contentType: nil)
        XCTAssertNil(LoadConnections.route(for: try post.build(), options: bare), "a body")
    }
}
