import Foundation
import PekitTestSupport
import XCTest
@testable import PekitLua

/// Retries against the test server's /flaky/KEY/N (the first N requests for KEY fail).
final class RetryTests: LocalServerLuaTestCase {
    func testRetriesUntilItWorks() {
        let k = key()
        XCTAssertEqual(lua.eval(#"local r = pekit.http.get(base .. "/flaky/\#(k)/2", {retry = {attempts = 3, backoff = {base = 0.01}}}) return r.status, r.attempts, r:json().attempt"#),
                       "200\t3\t3")
        // Not enough attempts: the last failure is the answer (with its body).
        let k2 = key()
        XCTAssertEqual(lua.eval(#"local r = pekit.http.get(base .. "/flaky/\#(k2)/5", {retry = {attempts = 2, backoff = {base = 0.01}}}) return r.status, r.attempts, r.body"#),
                       "503\t2\t\"attempt 2\\n\"")
    }

    func testRetryAfterIsHonoured() {
        let k = key()
        XCTAssertEqual(lua.eval(#"local t = pekit.time.now() local r = pekit.http.get(base .. "/flaky/\#(k)/1?after=1", {retry = true}) return r.status, r.attempts, pekit.time.now() - t >= 0.95"#),
                       "200\t2\ttrue")
        let k2 = key()
        XCTAssertEqual(lua.eval(#"local r = pekit.http.get(base .. "/flaky/\#(k2)/1?after=" .. pekit.url.build{scheme = "http", host = "h", path = {pekit.time.format(0, "http")}}.pathname:sub(2), {retry = true}) return r.status, r.attempts"#),
                       "200\t2", "an HTTP-date in the past: no wait")
    }

    func testOnlyIdempotentMethodsUnlessAsked() {
        let k = key()
        XCTAssertEqual(lua.eval(#"local r = pekit.http.post(base .. "/flaky/\#(k)/1", {retry = {attempts = 3}}) return r.status, r.attempts"#), "503\t1")
        XCTAssertEqual(lua.eval(#"local r = pekit.http.post(base .. "/flaky/\#(k)/1", {retry = {attempts = 3, all_methods = true, backoff = {base = 0.01}}}) return r.status, r.attempts"#), "200\t1",
                       "the second POST to the key is its second request: it works at once")
        let k2 = key()
        XCTAssertEqual(lua.eval(#"local r = pekit.http.post(base .. "/flaky/\#(k2)/1", {retry = {attempts = 3, all_methods = true, backoff = {base = 0.01}}}) return r.status, r.attempts"#), "200\t2")
    }

    func testConnectFailuresAndBadOptions() {
        XCTAssertTrue(lua.eval(#"local ok, e = pcall(pekit.http.get, "http://127.0.0.1:1/", {retry = {attempts = 2, on = {"connect"}, backoff = {base = 0.01}}}) return e"#)
            .contains("Couldn't connect to server (curl error 7)"))
        XCTAssertEqual(lua.eval(#"pekit.http.get(base, {retry = {attempts = 0}})"#),
                       "error: stdin:1: pekit.http.get: bad argument #2 (field \"attempts\": expected a whole number from 1 to 100, got 0)")
        XCTAssertEqual(lua.eval(#"pekit.http.get(base, {retry = {on = {"sometimes"}}})"#),
                       "error: stdin:1: pekit.http.get: bad argument #2 (field \"retry\": on[1]: a status (100–599), \"connect\", \"timeout\" or \"any\")")
    }

    /// rate = "N/s": requests to one host spaced 1/N s apart (held within 10%); other hosts do
    /// not wait for it, unless the rate is {"N/s", per = "all"}.
    func testRateLimitSpacesRequests() {
        XCTAssertEqual(lua.eval(#"""
            local done = {}
            for i = 1, 11 do pekit.http.get(base .. "/status/200", {rate = "20/s"}) done[i] = pekit.time.now() end
            local spent = done[11] - done[1]   -- ten intervals of 0.05 s
            return spent >= 0.45 and spent <= 0.55
            """#), "true")
        XCTAssertEqual(lua.eval(#"""
            local other = base:gsub("127.0.0.1", "localhost")
            pekit.http.get(base .. "/status/200", {rate = "1/s"})
            local t0 = pekit.time.now()
            pekit.http.get(other .. "/status/200", {rate = "1/s"})
            return pekit.time.now() - t0 < 0.5
            """#), "true")
        // per = "all": one pace for every host, as for a batch (curl's --rate).
        XCTAssertEqual(lua.eval(#"""
            local other = base:gsub("127.0.0.1", "localhost")
            local rs = pekit.http.all({ base .. "/status/200", other .. "/status/200", base .. "/status/201", other .. "/status/201", base .. "/status/202" },
                                      { concurrency = 5, rate = { "10/s", per = "all" } })
            local t0 = pekit.time.now()
            pekit.http.get(other .. "/status/200", { rate = { "10/s", per = "all" } })
            local waited = pekit.time.now() - t0
            return #rs, waited >= 0.05
            """#), "5\ttrue")
        XCTAssertEqual(lua.eval(#"""
            local t0 = pekit.time.now()
            pekit.http.all({ base .. "/status/200", (base:gsub("127.0.0.1", "localhost")) .. "/status/200", base .. "/status/200" },
                           { concurrency = 3, rate = { "20/s", per = "all" } })
            local spent = pekit.time.now() - t0   -- three starts, two intervals of 0.05 s
            return spent >= 0.09 and spent <= 0.3
            """#), "true")
        XCTAssertEqual(lua.eval(#"pekit.http.get(base, {rate = {"10/s", per = "batch"}})"#),
                       "error: stdin:1: pekit.http.get: bad argument #2 (field \"rate\": per is \"host\" (each host paced on its own, the default) or \"all\" (one pace for every host), not \"batch\")")
        XCTAssertEqual(lua.eval(#"pekit.http.get(base, {rate = {per = "all"}})"#),
                       "error: stdin:1: pekit.http.get: bad argument #2 (field \"rate\": expected \"COUNT/s\" (or /m, /h), or {\"COUNT/s\", per = \"host\" or \"all\"}, got a table)")
        XCTAssertEqual(lua.eval(#"pekit.http.get(base, {rate = "fast"})"#),
                       "error: stdin:1: pekit.http.get: bad argument #2 (field \"rate\": a rate is COUNT/s, COUNT/m or COUNT/h (\"10/s\", \"600/m\"), not \"fast\")")
    }

    /// progress = function(info): the bytes so far and the total, ending at the total.
    func testProgressCallback() {
        XCTAssertEqual(lua.eval(#"""
            local calls, last = 0, nil
            pekit.http.get(base .. "/bytes/200000", {progress = function(info) calls = calls + 1 last = info end})
            return calls >= 1, last.downloaded, last.total, last.elapsed >= 0
            """#), "true\t200000\t200000\ttrue")
    }
}
