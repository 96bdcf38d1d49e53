import Foundation
import PekitCore
@testable import PekitHTTP
import XCTest

/// `LoadRunner` against Tests/Server/stall_server.py (one asyncio loop: what it holds goes out
/// together): a server that freezes gives the corrected percentiles worked out by hand from the
/// schedule, a silent server ends at the duration with every request a timeout, and the closed
/// model sends what it is asked to.
final class LoadRunnerTests: XCTestCase {
    private var servers: [Process] = []

    override func tearDown() {
        for server in servers { server.terminate(); server.waitUntilExit() }
        servers = []
    }

    /// A request to a new stall server that freezes for `ms` milliseconds after `after` requests
    /// (and again every `every` milliseconds after that, when given).
    private func request(after: Int, freezing ms: Int, every: Int? = nil) throws -> PekitRequest {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Server/stall_server.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, String(after), String(ms)] + (every.map { [String($0)] } ?? [])
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        servers.append(process)
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        struct Ready: Decodable { let port: Int }
        let port = try JSONDecoder().decode(Ready.self, from: line).port
        return try RequestBuilder(url: "http://127.0.0.1:\(port)/").build()
    }

    /// 100 requests a second for 10 s on 150 connections, against a server that freezes for 1 s
    /// every 10 s, the first time after 450 requests (4.5 s in; the next would be after the run).
    /// The requests the schedule meant to start in that second (100, one each 10 ms) all go out
    /// on time (there are connections for each) and are answered when it ends: 1000, 990, … 10 ms
    /// after they started. Every other request takes a few milliseconds. So at percentile p of N
    /// answers, the latency is that of the k-th of those 100, k = round(p × N) − (N − 100):
    /// 10·k ms. (`scripts/bench` runs the same for 60 s, six freezes: BENCHMARKS.md.)
    func testAStallGivesThePercentilesWorkedOutByHand() throws {
        let stalled = try request(after: 450, freezing: 1000, every: 10_000)
        let runner = LoadRunner(plan: LoadPlan(connections: 150, rate: 100, duration: 10), source: { _ in (stalled, SendOptions()) })
        let result = try runner.run()
        let corrected = try XCTUnwrap(result.corrected)
        let n = Double(corrected.count)
        XCTAssertEqual(result.errorCount, 0)
        XCTAssertEqual(n, 1000, accuracy: 2, "ten seconds at 100 a second")
        XCTAssertEqual(result.behind, 0)
        // The freeze as the server held it: its first request waited all of it.
        XCTAssertEqual(Double(corrected.max), 1_000_000, accuracy: 20_000, "the first request of the freeze waited all of it")
        // What the server takes to answer at the freeze's end (its timer, a hundred answers
        // written one after another: a few milliseconds, about the same for each): the median of
        // the frozen requests' latencies less the worked-out ones (one slow answer, the first of
        // them often, does not move it).
        let k = { (p: Double) in (p / 100 * n).rounded() - (n - 100) }
        let offsets = [91.0, 92, 93, 94, 95, 96, 97, 98, 99, 99.5].map { Double(corrected.value(atPercentile: $0)) - 10_000 * k($0) }.sorted()
        let overhead = offsets[offsets.count / 2]
        XCTAssertLessThan(overhead, 30_000, "answers at the freeze's end: \(offsets)")
        for p in [92.0, 95, 99, 99.9] {
            let expected = 10_000 * k(p) + overhead
            // Within 1%, or 5 ms where 1% is less (the hundred answers at the freeze's end go out
            // over a few milliseconds, in no promised order).
            XCTAssertEqual(Double(corrected.value(atPercentile: p)), expected, accuracy: Swift.max(expected * 0.01, 5_000), "corrected p\(p)")
        }
        XCTAssertLessThan(corrected.value(atPercentile: 50), 20_000, "most of the run never saw the freeze")
    }

    /// The same freeze with only 10 connections: the 10 requests in flight wait it out, the other
    /// 90 the schedule meant to start cannot go out until it ends. Recorded from when they went
    /// out, the wait is gone (coordinated omission); corrected, it is there.
    func testTheCorrectedLatencyKeepsTheWaitTheRecordedOneLeavesOut() throws {
        let stalled = try request(after: 100, freezing: 1000)
        let runner = LoadRunner(plan: LoadPlan(connections: 10, rate: 100, duration: 4), source: { _ in (stalled, SendOptions()) })
        let result = try runner.run()
        let corrected = try XCTUnwrap(result.corrected)
        XCTAssertEqual(result.errorCount, 0)
        XCTAssertGreaterThan(corrected.value(atPercentile: 90), 500_000, "the freeze is a quarter of the run")
        XCTAssertLessThan(result.latency.value(atPercentile: 90), 100_000, "recorded: only the ten in flight saw it")
        XCTAssertEqual(Double(result.latency.max), 1_000_000, accuracy: 20_000)
    }

    /// A server that never answers: the run still ends at its duration, every request a timeout
    /// (those still waiting at the end too: they waited longer than any answer, of which there is none).
    func testASilentServerEndsAtTheDurationWithEveryRequestATimeout() throws {
        let silent = try request(after: 0, freezing: 60000)
        let runner = LoadRunner(plan: LoadPlan(connections: 3, duration: 1.5, timeout: 0.4), source: { _ in (silent, SendOptions()) })
        let started = Date()
        let result = try runner.run()
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
        XCTAssertEqual(result.errors.keys.sorted(), ["timeout"])
        XCTAssertEqual(result.errorCount, result.requests)
        XCTAssertEqual(result.requests, 12, "three connections: timeouts at 0.4, 0.8 and 1.2 s, and one waiting at the end")
        XCTAssertEqual(result.latency.count, 0)
        XCTAssertEqual(result.unanswered, 0)
    }

    func testTheClosedModelSendsWhatItIsAskedAndChecksEachAnswer() throws {
        let plain = try request(after: 1_000_000, freezing: 0)
        var numbers: [Int] = []
        let runner = LoadRunner(plan: LoadPlan(connections: 4, duration: nil, requests: 150), source: { n in
            numbers.append(n)
            return (plain, SendOptions())
        }, check: { response in response.body == Array("ok".utf8) ? nil : "unexpected body" })
        let result = try runner.run()
        XCTAssertEqual(result.requests, 150)
        XCTAssertEqual(numbers, Array(0..<150))
        XCTAssertEqual(result.statuses, [200: 150])
        XCTAssertEqual(result.latency.count, 150)
        XCTAssertNil(result.corrected)
        XCTAssertEqual(result.errorCount, 0)
        XCTAssertEqual(result.bytesReceived, 300)
        XCTAssertEqual(result.timeline.reduce(0) { $0 + $1.requests }, 150)

        let failing = LoadRunner(plan: LoadPlan(connections: 2, duration: nil, requests: 10), source: { _ in (plain, SendOptions()) },
                                 check: { _ in "wanted something else" })
        let failed = try failing.run()
        XCTAssertEqual(failed.errors, ["check": 10])
        XCTAssertEqual(failed.messages.map(\.text), ["wanted something else"])
        XCTAssertEqual(failed.messages.map(\.count), [10])
    }

    func testAnEndedSourceEndsTheRunAndBadPlansAreRefused() throws {
        let plain = try request(after: 1_000_000, freezing: 0)
        let runner = LoadRunner(plan: LoadPlan(connections: 3, duration: 30), source: { n in n < 7 ? (plain, SendOptions()) : nil })
        let result = try runner.run()
        XCTAssertEqual(result.requests, 7)
        for (plan, message) in [(LoadPlan(connections: 0), "--connections takes 1 to 10000 (got 0)"),
                                (LoadPlan(duration: nil, requests: nil), "say how long the run is: --duration or --requests"),
                                (LoadPlan(rate: 0), "--rate takes more than 0 and at most 10000000 a second (got 0.0)")] {
            XCTAssertThrowsError(try LoadRunner(plan: plan, source: { _ in nil }).run()) { XCTAssertEqual("\($0)", message) }
        }
    }
}
