import Foundation
import PekitCore
import PekitHTTP
import PekitTestSupport
import XCTest

/// `PekitClient`'s async face (issue 45): sends run on the client's own thread, not on the
/// tasks', one jar and one client are shared by many tasks, and cancelling a task cancels its
/// transfer. Against the test server on 127.0.0.1.
final class AsyncClientTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    func request(_ path: String) throws -> PekitRequest {
        try RequestBuilder(url: server.base + path).build()
    }

    func json(_ response: PekitResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    /// The blocking send, from outside any task.
    func blockingSend(_ client: PekitClient, _ request: PekitRequest) throws -> PekitResponse { try client.sendBlocking(request) }

    func testTheAsyncSendIsTheBlockingSend() async throws {
        let client = try PekitClient()
        let request = try request("/echo?a=1")
        let blocking = try blockingSend(client, request)
        let awaited = try await client.send(request)
        XCTAssertEqual(awaited.status, 200)
        // The same request on the wire (the async sends have their own connection: another port).
        var (one, other) = (try json(awaited), try json(blocking))
        XCTAssertNotNil(one.removeValue(forKey: "client_port"))
        XCTAssertNotNil(other.removeValue(forKey: "client_port"))
        XCTAssertEqual(one as NSDictionary, other as NSDictionary)
        XCTAssertEqual((one["headers"] as? [[String]])?.first, ["Host", String(server.base.dropFirst(7))])
        XCTAssertEqual(awaited.headers.map(\.name), blocking.headers.map(\.name))
    }

    /// Twenty sends awaited at once from twenty tasks are all at the server together: had a send
    /// blocked its task's thread, the cooperative pool (one thread per core) would let through
    /// only as many as there are cores.
    func testAwaitedSendsDoNotHoldTheTasksThreads() async throws {
        let client = try PekitClient()
        let name = "async-\(UUID().uuidString)"
        let request = try request("/inflight/\(name)?delay=0.5")
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await client.send(request).status } }
            for try await status in group { XCTAssertEqual(status, 200) }
        }
        let stats = try json(try await client.send(try self.request("/inflight/\(name)/stats")))
        XCTAssertEqual(stats["count"] as? Int, 20)
        XCTAssertEqual(stats["max"] as? Int, 20)
    }

    /// One jar and one client shared by a hundred tasks: each stores its own cookie and is then
    /// sent it (the jar's lock makes each receive and each Cookie header whole).
    func testAHundredTasksShareOneJarAndOneClient() async throws {
        let client = try PekitClient()
        let jar = CookieJar(publicSuffixes: nil, clock: { 1_700_000_000 })
        jar.limits.perDomain = 1000
        var options = SendOptions()
        options.jar = jar
        let shared = options
        let base = server.base
        let sent = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for i in 0..<100 {
                group.addTask {
                    _ = try await client.send(try RequestBuilder(url: "\(base)/cookies/set?t\(i)=v\(i)").build(), options: shared)
                    let echoed = try await client.send(try RequestBuilder(url: "\(base)/cookies").build(), options: shared)
                    let object = try JSONSerialization.jsonObject(with: Data(echoed.body)) as? [String: Any]
                    return (i, object?["cookie"] as? String)
                }
            }
            var sent: [Int: String?] = [:]
            for try await (i, cookie) in group { sent[i] = cookie }
            return sent
        }
        XCTAssertEqual(sent.count, 100)
        for (i, cookie) in sent {
            let pairs = Set((cookie ?? "").components(separatedBy: "; "))
            XCTAssertTrue(pairs.contains("t\(i)=v\(i)"), "task \(i) was sent \(cookie ?? "no Cookie field")")
        }
        XCTAssertEqual(jar.count, 100)
        XCTAssertEqual(Set(jar.all.map(\.name)), Set((0..<100).map { "t\($0)" }))
    }

    /// Cancelling the task stops the transfer (the server would answer after 30 s) and throws
    /// CancellationError; the client goes on serving.
    func testCancellingTheTaskCancelsTheTransfer() async throws {
        let client = try PekitClient()
        let slow = try request("/delay/30")
        let task = Task { try await client.send(slow) }
        try await Task.sleep(nanoseconds: 200_000_000)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("the send was not cancelled")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        let after = try await client.send(try request("/status/204"))
        XCTAssertEqual(after.status, 204)
        // A task cancelled before it sends does not send.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(slow)
        }
        do { _ = try await early.value; XCTFail("sent after cancellation") } catch { XCTAssertTrue(error is CancellationError, "\(error)") }
    }

    /// `sendAll` awaited: results in the order given, at most `concurrency` at the server at once.
    func testSendAllAwaitedKeepsOrderAndConcurrency() async throws {
        let client = try PekitClient()
        let name = "all-\(UUID().uuidString)"
        let requests = try (0..<9).map { i in (try request("/inflight/\(name)?delay=0.2&i=\(i)"), SendOptions()) }
        let results = await client.sendAll(requests, concurrency: 3)
        XCTAssertEqual(results.count, 9)
        for result in results { XCTAssertEqual(try result.get().status, 200) }
        let stats = try json(try await client.send(try request("/inflight/\(name)/stats")))
        XCTAssertEqual(stats["count"] as? Int, 9)
        XCTAssertEqual(stats["max"] as? Int, 3)
    }
}
