import Foundation
import PekitTestSupport
import XCTest
@testable import PekitLua
@testable import PekitTools

/// Many requests at once: pekit.http.all and pekit.spawn/wait against the test server, which
/// counts the requests for a key that are in progress at once (/inflight/KEY).
final class ConcurrencyTests: LocalServerLuaTestCase {
    /// At most `concurrency` in flight (the server saw exactly that many at once), results in
    /// the order given, a failure as an error value in its slot, the batch's progress.
    func testAllLimitsOrdersAndKeepsErrorsInTheirSlots() {
        let k = key()
        XCTAssertEqual(lua.eval(#"""
            local list = {}
            for i = 1, 20 do list[i] = base .. "/inflight/\#(k)?delay=0.3&i=" .. i end
            list[21] = "http://127.0.0.1:1/"
            list[22] = { url = base .. "/echo", method = "POST", json = { n = 22 } }
            list[23] = pekit.request{ url = base .. "/status/418" }
            local last
            local rs = pekit.http.all(list, { concurrency = 5, progress = function(info) last = info end })
            local stats = pekit.http.get(base .. "/inflight/\#(k)/stats"):json()
            local ordered = true
            for i = 1, 20 do ordered = ordered and rs[i].status == 200 and rs[i].url:match("i=(%d+)$") == tostring(i) end
            return #rs, ordered, stats.max, stats.count,
                   rs[21].error:match("^GET http://127.0.0.1:1/: Failed to connect to 127.0.0.1 port 1") ~= nil, rs[21].code,
                   tostring(rs[21]) == rs[21].error, rs[21].status, rs[22]:json().method, rs[23].status,
                   last.done, last.failed, last.total, last.in_flight
            """#), "23\ttrue\t5\t20\ttrue\t7\ttrue\tnil\t\"POST\"\t418\t23\t1\t23\t0")
    }

    /// Connections are kept and reused: 30 requests, 5 at a time, arrive on 5 client ports (the
    /// server reports each request's); four tasks then reuse four of those connections.
    func testConnectionsAreReused() {
        XCTAssertEqual(lua.eval(#"""
            local list = {}
            for i = 1, 30 do list[i] = base .. "/delay/0.02" end
            local ports = {}
            for _, r in ipairs(pekit.http.all(list, { concurrency = 5 })) do ports[r:json().client_port] = true end
            local batch = 0
            for _ in pairs(ports) do batch = batch + 1 end
            local tasks, seen = {}, {}
            for i = 1, 4 do
                tasks[i] = pekit.spawn(function()
                    for _ = 1, 5 do seen[pekit.http.get(base .. "/delay/0.02"):json().client_port] = true end
                end)
            end
            pekit.wait(tasks)
            local spawned, reused = 0, 0
            for port in pairs(seen) do
                spawned = spawned + 1
                if ports[port] then reused = reused + 1 end
            end
            -- The tasks (4 in flight at most) ride the batch's kept connections.
            return batch, spawned, reused
            """#), "5\t4\t4")
    }

    /// Every item is checked before anything is sent; an error names the item.
    func testAllRefusesABadItemBeforeSending() {
        let k = key()
        XCTAssertEqual(lua.eval(#"pekit.http.all({ base .. "/inflight/\#(k)", { url = base, bogus = 1 } })"#),
                       #"error: stdin:1: pekit.http.all: item 2: bad argument #1 (unknown field "bogus"; known: method, keep_method_case, url, url_as_curl, path_as_is, base, params, policy, params_in, methods_in_query, headers, json, form, body, body_file, upload, content_type, multipart, boundary, auth, jar, connect, sign, target, compressed, user_agent, referer, range, cookie, same_site, site_for_cookies, navigation, top_level, follow, location_trusted, auto_referer, post301, post302, post303, auth_scheme, netrc, netrc_file, max_redirects, timeout, connect_timeout, insecure, cacert, proxy, proxy_auth, expect100_timeout, noproxy, proxytunnel, unix_socket, abstract_unix_socket, cert, cert_type, key, key_type, pass, hsts, http09, http, tr_encoding, ignore_content_length, raw_transfer, sink, max_body, ip_version, retry, rate, progress)"#)
        XCTAssertEqual(lua.eval(#"return pekit.http.get(base .. "/inflight/\#(k)/stats"):json().count"#), "0")
        XCTAssertEqual(lua.eval(#"pekit.http.all({ 42 })"#), #"error: stdin:1: pekit.http.all: item 1: invalid URL "42": expected scheme://host"#)
        XCTAssertEqual(lua.eval(#"pekit.http.all({}, { concurrency = 0 })"#),
                       #"error: stdin:1: pekit.http.all: bad argument #2 (field "concurrency": expected a whole number from 1 to 10000, got 0)"#)
    }

    /// In a batch, jars, redirects, signing, retries and sinks work as they do for one request.
    func testAllBehavesAsOneRequestDoes() throws {
        let dir = try makeTemporaryDirectory("batch")
        let file = dir.appendingPathComponent("body.bin").path
        let k = key()
        XCTAssertEqual(lua.eval(#"""
            local jar = pekit.cookies.jar()
            local aws = { "aws-sigv4", service = "execute-api", access_key = "AKIDEXAMPLE",
                          secret_key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region = "eu-west-1" }
            local rs = pekit.http.all({
                { url = base .. "/redirect/302?to=/cookies&cookie=s%3D1", jar = jar },
                { url = base .. "/redirect/302?to=/aws/moved%3Fx%3D1", sign = aws },
                { url = base .. "/bytes/100000", sink = "\#(file)" },
                { url = base .. "/flaky/\#(k)/2?after=0", retry = { attempts = 3 } },
            }, { concurrency = 4 })
            return rs[1]:json().cookie, #rs[1].redirects, jar:header(base .. "/"), rs[2].status, rs[2]:json().ok,
                   rs[3].bytes, rs[3].body, rs[4].status, rs[4].attempts
            """#), "\"s=1\"\t1\t\"s=1\"\t200\ttrue\t100000\t\"\"\t200\t3")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertEqual(Array(bytes), (0..<100_000).map { UInt8($0 % 251) })
    }

    /// pekit.spawn: inside a task pekit.http calls suspend it, so the tasks' requests are in
    /// flight together; pekit.wait gives each task's results, or an error value in its slot.
    func testSpawnedTasksRunTogether() {
        let k = key()
        XCTAssertEqual(lua.eval(#"""
            local tasks = {}
            for i = 1, 8 do
                tasks[i] = pekit.spawn(function(n)
                    pekit.http.get(base .. "/inflight/\#(k)?delay=0.3")
                    return pekit.http.get(base .. "/status/" .. (200 + n)).status, n
                end, i)
            end
            tasks[9] = pekit.spawn(function() pekit.time.sleep(0.05) error("boom") end)
            tasks[10] = pekit.spawn(function() return pekit.http.get("http://127.0.0.1:1/") end)
            local before = tasks[1].done
            local t0 = pekit.time.now()
            local rs = pekit.wait(tasks)
            local took = pekit.time.now() - t0
            local stats = pekit.http.get(base .. "/inflight/\#(k)/stats"):json()
            local firsts = {}
            for i = 1, 8 do firsts[i] = tostring(rs[i]) end   -- a failed task shows its message
            return before, table.concat(firsts, ","), stats.max, took < 1.0, rs[9].error, rs[9].traceback:match("^stack traceback:") ~= nil,
                   rs[10].error:match("^stdin:%d+: pekit.http.get: GET http://127.0.0.1:1/: Failed to connect") ~= nil,
                   tasks[9].failed, tasks[1].done, select("#", pekit.wait(tasks[3])), pekit.wait(tasks[3])
            """#), "false\t\"201,202,203,204,205,206,207,208\"\t8\ttrue\t\"stdin:8: boom\"\ttrue\ttrue\ttrue\ttrue\t2\t203\t3")
        // One task: its results, or its error raised as it was.
        XCTAssertEqual(lua.eval(#"return pcall(pekit.wait, pekit.spawn(function() error({ code = 7 }) end))"#), "false\t{ code = 7 }")
    }

    /// A task may wait for others (it is suspended meanwhile); pekit.time.sleep lets the others
    /// run; a plain coroutine.yield() in a task lets the others go first; a task cannot wait
    /// for itself; nothing to wait for is an error, not a hang.
    func testTasksWaitSleepAndYield() {
        XCTAssertEqual(lua.eval(#"""
            local order = {}
            local a = pekit.spawn(function() pekit.time.sleep(0.1) order[#order + 1] = "a" return "A" end)
            local b = pekit.spawn(function() local x = pekit.wait(a) order[#order + 1] = "b" return x .. "B" end)
            local c = pekit.spawn(function() order[#order + 1] = "c1" coroutine.yield() order[#order + 1] = "c2" end)
            local d = pekit.spawn(function() order[#order + 1] = "d" end)
            local result = pekit.wait(b)
            pekit.wait()
            return result, table.concat(order, ",")
            """#), "\"AB\"\t\"c1,d,c2,a,b\"")
        XCTAssertEqual(lua.eval(#"""
            local me
            me = pekit.spawn(function() return pcall(pekit.wait, me) end)
            return pekit.wait(me)
            """#), "false\t\"pekit.wait: a task cannot wait for itself\"")
        XCTAssertEqual(lua.eval(#"""
            local t1, t2
            t1 = pekit.spawn(function() pekit.wait(t2) end)
            t2 = pekit.spawn(function() pekit.wait(t1) end)
            return pcall(pekit.wait, { t1, t2 })
            """#), "false\t\"pekit.wait: every task left waits for another (nothing can go on)\"")
        XCTAssertEqual(lua.eval(#"pekit.wait(42)"#), "error: stdin:1: pekit.wait: bad argument #1 (a task (from pekit.spawn) expected, got number)")
        // A coroutine of the script's own inside a task: pekit.http blocks there (it cannot suspend the task).
        XCTAssertEqual(lua.eval(#"""
            local t = pekit.spawn(function()
                local co = coroutine.wrap(function() return pekit.http.get(base .. "/status/204").status end)
                return co()
            end)
            return pekit.wait(t)
            """#), "204")
    }

    /// A 204 has no content: the next request on the same kept-alive connection reads its own
    /// answer. (The test server once sent "status 204" after a 204's head; curl left it on the
    /// connection and the next response there read as HTTP/0.9 — testSpawnedTasksRunTogether
    /// failed now and then when its 206 request drew that connection.)
    func testTheRequestAfterA204ReadsItsOwnAnswer() {
        XCTAssertEqual(lua.eval(#"""
            local a = pekit.http.get(base .. "/status/204")
            local b = pekit.http.get(base .. "/status/206")
            local c = pekit.http.get(base .. "/status/304")
            local d = pekit.http.get(base .. "/status/200")
            return a.status, #a.body, b.status, b.body, c.status, d.status, d.body
            """#), "204\t0\t206\t\"status 206\\n\"\t304\t200\t\"status 200\\n\"")
    }

    /// Many tasks that yield, sleep, fail and wait for earlier ones, with their handles dropped
    /// and collected midway: every outcome arrives, nothing is lost or crashes.
    func testManyTasksUnderChurn() {
        // A task fails when it raises (n % 11 == 0) or when the task it waits for failed.
        var failed = Set<Int>()
        for n in 1...600 where n % 11 == 0 || (n > 10 && n % 5 == 0 && failed.contains(n - 10)) { failed.insert(n) }
        let sum: Int = (1...600).filter { !failed.contains($0) }.reduce(0, +)
        XCTAssertEqual(lua.eval(#"""
            local tasks = {}
            for i = 1, 600 do
                tasks[i] = pekit.spawn(function(n)
                    for _ = 1, n % 4 do coroutine.yield() end
                    if n % 7 == 0 then pekit.time.sleep(0) end
                    if n % 11 == 0 then error("task " .. n) end
                    if n > 10 and n % 5 == 0 then pekit.wait(tasks[n - 10]) end
                    return n
                end, i)
                if i % 50 == 0 then local drop = pekit.spawn(function() return 0 end) drop = nil collectgarbage() end
            end
            local results = pekit.wait(tasks)
            local sum, failures = 0, 0
            for i, r in ipairs(results) do
                if type(r) == "table" then failures = failures + 1 else sum = sum + r end
            end
            return #results, failures, sum
            """#), "600\t\(failed.count)\t\(sum)")
    }

    /// Plugins cannot spawn tasks (they would run after the plugin's call).
    func testPluginsCannotSpawn() throws {
        let dir = try makeTemporaryDirectory("spawnplugin")
        try #"pekit.spawn(function() end) return { allowed = "a" }"#.write(to: dir.appendingPathComponent("spawner.lua"), atomically: true, encoding: .utf8)
        lua = LuaREPL(runtime: try makeRuntime(plugins: [dir.path]))
        XCTAssertEqual(lua.eval(#"pekit.encode("x", "spawner")"#),
                       "error: stdin:1: pekit.encode: plugin \"spawner\" (\(dir.path)/spawner.lua): spawner.lua:1: pekit.spawn: not allowed in a plugin (its tasks would run after the plugin's call)")
    }
}
