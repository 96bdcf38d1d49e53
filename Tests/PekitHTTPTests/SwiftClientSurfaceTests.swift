import Foundation
import PekitCore
import PekitHTTP
import PekitTestSupport
import XCTest

/// The Swift client as an Alamofire or AsyncHTTPClient user expects it (issue 76): a body
/// streamed as an `AsyncSequence`, one-call decoding whose error names the JSON path, a jar set
/// once on the builder, a typed method. Against the test server on 127.0.0.1.
final class SwiftClientSurfaceTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    /// Three blocks of 16,064 bytes, 0.4 s apart: the head comes before the body, and the body
    /// in pieces as they arrive (the first before the last was sent), byte for byte.
    func testTheBodyStreamsAsItArrives() async throws {
        let client = try PekitClient()
        let started = Date()
        let response = try await client.stream(try RequestBuilder(url: server.base + "/bytes/48192?chunked=1&pause=0.4").build())
        XCTAssertEqual(response.head.status, 200)
        XCTAssertEqual(response.head.header("Transfer-Encoding")?.description, "chunked")
        XCTAssertTrue(response.head.body.isEmpty)
        var arrivals: [TimeInterval] = [], bytes: [UInt8] = []
        for try await chunk in response.body {
            arrivals.append(Date().timeIntervalSince(started))
            bytes += chunk
        }
        XCTAssertEqual(bytes, (0..<48192).map { UInt8($0 % 251) })
        let first = try XCTUnwrap(arrivals.first), last = try XCTUnwrap(arrivals.last)
        XCTAssertGreaterThan(last - first, 0.6, "the blocks came at once: \(arrivals)")
    }

    /// Leaving the loop stops the transfer (a 10-block body, 1 s apart, is not waited for), and
    /// an error status is a head like any other.
    func testBreakingOffStopsTheTransfer() async throws {
        let client = try PekitClient()
        let started = Date()
        let response = try await client.stream(try RequestBuilder(url: server.base + "/bytes/160640?chunked=1&pause=1").build())
        for try await chunk in response.body {
            XCTAssertFalse(chunk.isEmpty)
            break
        }
        // The client is free again well before the body's 10 s: a second send goes through.
        let next = try await client.send(try RequestBuilder(url: server.base + "/status/404").build())
        XCTAssertEqual(next.status, 404)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        let empty = try await client.stream(try RequestBuilder(url: server.base + "/status/404").build())
        XCTAssertEqual(empty.head.status, 404)
        let rest = try await empty.body.collect()
        XCTAssertEqual(rest, next.body, "the whole body of a response the head came with")
    }

    /// A failed connection is thrown by `stream` itself, before any head.
    func testAFailedConnectionIsThrownBeforeTheHead() async throws {
        let client = try PekitClient()
        do {
            _ = try await client.stream(try RequestBuilder(url: "http://127.0.0.1:1/").build())
            XCTFail("no error")
        } catch let error as HTTPError {
            XCTAssertTrue("\(error)".hasPrefix("GET http://127.0.0.1:1/: "), "\(error)")
        }
    }

    struct Echo: Decodable, Equatable {
        var method: String
        var target: String
        var headers: [[String]]
        var cookie: String?
    }

    /// `decode` reads the body as JSON into a Decodable type; its error names the path that
    /// failed as RFC 9535 writes a normalized path, and reads each value only as its own kind.
    func testDecodeNamesTheJSONPathThatFailed() async throws {
        let client = try PekitClient()
        var builder = RequestBuilder(url: server.base + "/echo?a=1")
        builder.method = .post
        builder.body = .bytes(Array("x".utf8), contentType: "text/plain")
        let response = try await client.send(try builder.build())
        let echo = try response.decode(Echo.self)
        XCTAssertEqual(echo.method, "POST")
        XCTAssertEqual(echo.target, "/echo?a=1")
        XCTAssertNil(echo.cookie)
        XCTAssertEqual(echo.headers.first, ["Host", String(server.base.dropFirst("http://".count))])

        struct Lengths: Decodable { var body_length: String }
        XCTAssertThrowsError(try response.decode(Lengths.self)) { error in
            XCTAssertEqual("\(error)", "cannot read the body of \(server.base)/echo?a=1 (status 200) as Lengths: at $['body_length']: expected a string, found integer")
            XCTAssertEqual((error as? PekitResponse.DecodingFailure)?.path, "$['body_length']")
        }
        struct Fields: Decodable { var headers: [[Int]] }
        XCTAssertThrowsError(try response.decode(Fields.self)) { error in
            XCTAssertEqual((error as? PekitResponse.DecodingFailure)?.path, "$['headers'][0][0]")
            XCTAssertEqual((error as? PekitResponse.DecodingFailure)?.reason, "expected an integer, found string")
        }
        struct Missing: Decodable { var absent: Int }
        XCTAssertThrowsError(try response.decode(Missing.self)) { error in
            XCTAssertEqual((error as? PekitResponse.DecodingFailure)?.path, "$['absent']")
            XCTAssertEqual((error as? PekitResponse.DecodingFailure)?.reason, "no such member")
        }
        let notJSON = try await client.send(try RequestBuilder(url: server.base + "/bytes/3").build())
        XCTAssertThrowsError(try notJSON.decode(Echo.self)) { error in
            XCTAssertEqual((error as? PekitResponse.DecodingFailure)?.path, "$")
            XCTAssertTrue((error as? PekitResponse.DecodingFailure)?.reason.hasPrefix("invalid JSON at byte 1: ") == true, "\(error)")
        }
    }

    /// The path of a member whose name needs escaping, and of a member named like an index.
    func testNormalizedPathsEscapeAsRFC9535Says() throws {
        var response = PekitResponse()
        response.status = 200
        response.url = "http://h/"
        response.body = Array(#"{"a'b\\":{"2":[true]}}"#.utf8)
        struct Inner: Decodable { var two: [Int]; enum CodingKeys: String, CodingKey { case two = "2" } }
        struct Outer: Decodable { var value: Inner; enum CodingKeys: String, CodingKey { case value = "a'b\\" } }
        XCTAssertThrowsError(try response.decode(Outer.self)) { error in
            XCTAssertEqual((error as? PekitResponse.DecodingFailure)?.path, #"$['a\'b\\']['2'][0]"#)
        }
    }

    /// A jar given to the builder is the send's jar too: the Cookie field of a redirect's hop and
    /// the Set-Cookie fields of the answers go through it with no second step.
    func testAJarSetOnTheBuilderIsTheSendsJar() async throws {
        let client = try PekitClient()
        let jar = CookieJar()
        var builder = RequestBuilder(url: server.base + "/cookies/set?token=x%20y")
        builder.jar = jar
        let response = try await client.send(try builder.build())
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(jar.all.map(\.pair), ["token=x y"])
        // The next request built with the jar carries the cookie; a send's own jar wins.
        var echo = RequestBuilder(url: server.base + "/echo")
        echo.jar = jar
        let echoed = try await client.send(try echo.build())
        XCTAssertEqual(try echoed.decode(Echo.self).cookie, "token=x y")
        var other = SendOptions()
        other.jar = CookieJar()
        _ = try await client.send(try builder.build(), options: other)
        XCTAssertEqual(other.jar?.all.map(\.pair), ["token=x y"])
    }

    /// A typed method: the common ones by name, any token as written (its case kept on the
    /// request, RFC 9110 §9.1), string literals still taken.
    func testTheMethodIsTyped() throws {
        XCTAssertEqual(PekitRequest.Method.patch.rawValue, "PATCH")
        XCTAssertNotEqual(PekitRequest.Method("get"), .get)
        var builder = RequestBuilder(url: "http://h/")
        builder.method = "PROPFIND"
        XCTAssertEqual(try builder.build().method, PekitRequest.Method("PROPFIND"))
        builder.method = .init("purge")
        builder.keepsMethodCase = true
        XCTAssertEqual(try builder.build().method.rawValue, "purge")
        XCTAssertEqual("\(try builder.build().method)", "purge")
        builder.method = "BAD METHOD"
        XCTAssertThrowsError(try builder.build()) { XCTAssertEqual("\($0)", "method \"BAD METHOD\" is not an HTTP token") }
    }

    /// Server-sent events as an AsyncSequence (issue 73): each as it comes, with its last event ID.
    func testServerSentEventsAreAnAsyncSequence() async throws {
        let client = try PekitClient()
        let started = Date()
        let streamed = try await client.stream(try RequestBuilder(url: server.base + "/events?n=3&pause=0.3").build())
        XCTAssertEqual(streamed.head.header("Content-Type")?.description, "text/event-stream")
        var events: [ServerSentEvent] = [], arrivals: [TimeInterval] = []
        for try await event in streamed.body.events {
            events.append(event)
            arrivals.append(Date().timeIntervalSince(started))
        }
        XCTAssertEqual(events, (1...3).map { ServerSentEvent(data: "event \($0)", lastEventId: "\($0)") })
        XCTAssertGreaterThan(arrivals[2] - arrivals[0], 0.4, "the events came at once: \(arrivals)")
    }
}
