import Foundation
import XCTest
@testable import PekitCore

/// The event-stream parser (issue 73) makes of each stream what Chromium's EventSource makes of
/// it (Fixtures/eventsource/cases.json, written by scripts/sse-fixtures from the streams of
/// web-platform-tests' eventsource/format-* tests, the HTML Standard's examples and 300 seeded
/// random streams, each served to headless Chromium): whole, a byte at a time, and cut at random.
final class EventStreamTests: XCTestCase {
    struct Case: Decodable {
        struct Event: Decodable { let type: String; let data: String; let lastEventId: String }
        let name: String
        let source: String
        let stream: String
        let events: [Event]
    }

    func cases() throws -> [Case] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "cases", withExtension: "json", subdirectory: "Fixtures/eventsource"))
        struct File: Decodable { let peer: String; let cases: [Case] }
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        XCTAssertTrue(file.peer.hasPrefix("Chromium "), file.peer)
        return file.cases
    }

    func parse(_ bytes: [UInt8], cuts: [Int]) -> [ServerSentEvent] {
        var stream = EventStream()
        var events: [ServerSentEvent] = []
        var start = 0
        for cut in cuts.sorted() + [bytes.count] where cut >= start {
            events += stream.feed(bytes[start..<cut])
            start = cut
        }
        stream.finish()
        return events
    }

    func testEveryStreamGivesChromiumsEvents() throws {
        let all = try cases()
        XCTAssertEqual(all.count, 314)
        var generator = SystemRandomNumberGenerator()
        var events = 0
        for c in all {
            let bytes = try XCTUnwrap(Data(base64Encoded: c.stream).map { Array($0) }, c.name)
            let expected = c.events.map { ServerSentEvent(type: $0.type, data: $0.data, lastEventId: $0.lastEventId) }
            events += expected.count
            XCTAssertEqual(parse(bytes, cuts: []), expected, "\(c.name) (\(c.source)), whole")
            XCTAssertEqual(parse(bytes, cuts: Array(0..<bytes.count)), expected, "\(c.name), a byte at a time")
            let cuts = (0..<Int.random(in: 1...4, using: &generator)).map { _ in Int.random(in: 0...bytes.count, using: &generator) }
            XCTAssertEqual(parse(bytes, cuts: cuts), expected, "\(c.name), cut at \(cuts.sorted())")
        }
        XCTAssertGreaterThan(events, 100)
    }

    /// What a reconnection resumes from: the last ID an ended event put in force (one in an
    /// event the stream never ended does not count), and the last retry asked for.
    func testReconnectionState() {
        var stream = EventStream()
        _ = stream.feed(Array("retry:1000\nid: a\ndata:test1\n\nid:test\nretry: x\ndata:test2".utf8))
        stream.finish()
        XCTAssertEqual(stream.lastEventId, "a")
        XCTAssertEqual(stream.retry, 1000)
        // An unfinished last line is pending data the standard discards: its retry: is not read.
        var cut = EventStream()
        _ = cut.feed(Array("retry:1000\ndata:x\n\nretry:50".utf8))
        cut.finish()
        XCTAssertEqual(cut.retry, 1000)
        var resumed = EventStream(lastEventId: "a")
        XCTAssertEqual(resumed.feed(Array("data:b\n\n".utf8)), [ServerSentEvent(data: "b", lastEventId: "a")])
    }

    /// A line that never ends holds at most maxLineBytes.
    func testALineThatNeverEndsIsBounded() {
        var stream = EventStream()
        stream.maxLineBytes = 16
        XCTAssertEqual(stream.feed(Array("data:".utf8) + Array(repeating: 0x78, count: 100_000) + Array("\n\n".utf8)),
                       [ServerSentEvent(data: String(repeating: "x", count: 11))])
    }
}
