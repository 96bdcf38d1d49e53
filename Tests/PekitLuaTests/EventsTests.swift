import Foundation
import PekitTestSupport
import XCTest
@testable import PekitLua

/// `pekit.http.events` (issue 73): server-sent events as a loop gets them, each as it comes,
/// against the test server's /events stream (event k: "id: k", "data: event k").
final class EventsTests: LocalServerLuaTestCase {
    /// Each event as it arrives (three 0.3 s apart: the last comes later than the first),
    /// with its type, data and last event ID.
    func testEventsComeAsTheyArrive() {
        XCTAssertEqual(lua.eval(#"""
            local seen, t0 = {}, pekit.time.now()
            local times = {}
            for ev in pekit.http.events(base .. "/events?n=3&pause=0.3") do
              seen[#seen + 1] = ev.type .. "|" .. ev.data .. "|" .. ev.id
              times[#times + 1] = pekit.time.now() - t0
            end
            return table.concat(seen, " "), times[3] - times[1] > 0.4
            """#), #""message|event 1|1 message|event 2|2 message|event 3|3"\#ttrue"#)
    }

    /// A stream that ends is opened again (reconnect = n) with Last-Event-ID, after the delay
    /// its retry: field asked: the server resumes after the last event seen, none twice.
    func testReconnectionResumesFromTheLastEventID() {
        XCTAssertEqual(lua.eval(#"""
            local once, again = {}, {}
            for ev in pekit.http.events(base .. "/events?n=5&pause=0&close_after=2&retry=50") do once[#once + 1] = ev.id end
            for ev in pekit.http.events(base .. "/events?n=5&pause=0&close_after=2&retry=50", { reconnect = 3 }) do again[#again + 1] = ev.id end
            return table.concat(once, ","), table.concat(again, ",")
            """#), #""1,2"\#t"1,2,3,4,5""#)
    }

    /// What EventSource refuses is an error naming the request and the cause.
    func testAnAnswerThatIsNoEventStreamIsAnError() {
        XCTAssertEqual(lua.eval(#"select(2, pcall(function() for ev in pekit.http.events(base .. "/status/404") do end end))"#),
                       #""stdin:1: pekit.http.events: GET \#(server.base)/status/404: the server answered 404, not 200 with an event stream""#)
        XCTAssertEqual(lua.eval(#"select(2, pcall(function() for ev in pekit.http.events(base .. "/events?type=text/plain") do end end))"#),
                       #""stdin:1: pekit.http.events: GET \#(server.base)/events?type=text/plain: the server answered Content-Type text/plain, not text/event-stream""#)
        XCTAssertTrue(lua.eval(#"select(2, pcall(function() for ev in pekit.http.events("http://127.0.0.1:1/") do end end))"#)
            .hasPrefix(#""stdin:1: pekit.http.events: GET http://127.0.0.1:1/: Failed to connect"#))
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.http.events, base, { reconect = 1 }))"#).components(separatedBy: " (did you mean").first,
                       #""pekit.http.events: bad argument #2 (unknown field \"reconect\""#)
    }

    /// A stream waited for inside a transfer's callback is refused, named once.
    func testAStreamCannotBeWaitedForInsideACallback() {
        XCTAssertTrue(lua.eval(#"""
            return select(2, pcall(pekit.http.get, base .. "/bytes/10", { sink = function() for ev in pekit.http.events(base .. "/events?n=1") do end end }))
            """#).hasSuffix(#"stdin:1: pekit.http.events: an event stream cannot be waited for inside a transfer's callback""#))
    }

    /// Leaving the loop stops the transfer: a 50-event stream a second apart is not waited for.
    func testBreakingOffStopsTheStream() {
        XCTAssertEqual(lua.eval(#"""
            local t0 = pekit.time.now()
            for ev in pekit.http.events(base .. "/events?n=50&pause=1") do break end
            local status = pekit.http.get(base .. "/echo").status
            return status, pekit.time.now() - t0 < 3
            """#), "200\ttrue")
    }

    /// In tasks, streams are read at once: two of four events 0.4 s apart take the time of one.
    func testStreamsInTasksRunTogether() {
        XCTAssertEqual(lua.eval(#"""
            local function read() local n = 0 for ev in pekit.http.events(base .. "/events?n=4&pause=0.4") do n = n + 1 end return n end
            local t0 = pekit.time.now()
            local a, b = pekit.spawn(read), pekit.spawn(read)
            local na, nb = pekit.wait(a), pekit.wait(b)
            local took = pekit.time.now() - t0
            return na, nb, took > 1.1 and took < 2.2
            """#), "4\t4\ttrue")
    }
}
