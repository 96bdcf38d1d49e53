import Foundation
import PekitTestSupport
import XCTest

/// Issue 71: `expect` means what it says. A string is contained, not a Lua pattern; a JSON value
/// is compared as JSON (false is a value, [] is not {}); a singular JSONPath compares its node
/// and any other query its node list; Hurl's predicates (`is.*`) and functions test values.
/// Each case below failed, or passed where it should not, before.
final class TestAssertionTests: XCTestCase {
    /// The canned response a case reads: the test server sends these bytes back as they are.
    static let prelude = #"""
        local base = pekit.vars.BASE
        local function canned(body, ctype, extra)
          local head = "HTTP/1.1 200 OK\r\nContent-Type: " .. (ctype or "application/json") .. "\r\n" .. (extra or "")
            .. "Content-Length: " .. #body .. "\r\n\r\n"
          return pekit.http.get(base .. "/canned?b=" .. pekit.encode(pekit.crypto.base64.encode(head .. body)))
        end
        local doc = '{"date":"2024-01-02","id":"3f2a-9c","ok":false,"t":true,"z":0,"s":"","n":null,"e":[],"o":{},'
          .. '"a":[1,2],"aa":[[1,2]],"price":9.5,"name":"Ada (admin)"}'

        """#

    func run(_ tests: String) throws -> (status: Int32, messages: [String], details: [String: String]) {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-test-assert")
        let file = dir.appendingPathComponent("tests/a_test.lua")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (Self.prelude + tests).write(to: file, atomically: true, encoding: .utf8)
        let report = dir.appendingPathComponent("r.json")
        let r = try PekitProcess.run(["test", "--var", "BASE=\(server.base)", "--report", "json:" + report.path], directory: dir)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any], r.stdout + r.stderr)
        let tests = (document["files"] as? [[String: Any]] ?? []).flatMap { $0["tests"] as? [[String: Any]] ?? [] }
        var details: [String: String] = [:]
        for t in tests { if let name = t["name"] as? String, let detail = t["detail"] as? String { details[name] = detail } }
        return (r.status, tests.map { "\($0["name"] ?? ""): \($0["message"] ?? "passed")" }, details)
    }

    /// Literal text with `-`, `.`, `(` and `%` is contained; a pattern and equality are asked
    /// for, and the failure says which of the three it was.
    func testTextIsContainedUnlessAPatternOrEqualityIsAskedFor() throws {
        let r = try run(#"""
            test("literals", function()
              local r = canned(doc, "application/json; charset=utf-8", "Cache-Control: no-cache, no-store\r\n")
              expect(r):body("2024-01-02"):body("3f2a-9c"):body("Ada (admin)"):body('"price":9.5')
                :header("Content-Type", "charset=utf-8"):header("Cache-Control", "no-cache")
                :header("Content-Type", is.eq("application/json; charset=utf-8")):header("Content-Type", is.matches("^application/%a+;"))
                :header("X-Nope", is.missing)
            end)
            test("contains", function() expect(canned("50% off", "text/plain")):body("50%% off") end)
            test("equals", function() expect(canned("abc", "text/plain")):body(is.eq("ab")) end)
            test("pattern", function() expect(canned("abc", "text/plain")):body(is.matches("^%d")) end)
            test("header", function() expect(canned("{}", "application/json; charset=utf-8")):header("Content-Type", "charset=latin1") end)
            test("header missing", function() expect(canned("{}")):header("X-Nope", is.eq("1")) end)
            test("bad pattern", function() expect(canned("{}")):body(is.matches("(")) end)
            test("bad want", function() expect(canned("{}")):body(42) end)
            """#)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.messages, [
            "literals: passed",
            #"contains: tests/a_test.lua:16: expected the body to contain "50%% off", got "50% off""#,
            #"equals: tests/a_test.lua:17: expected the body to be "ab", got "abc""#,
            #"pattern: tests/a_test.lua:18: expected the body to match the Lua pattern "^%d", got "abc""#,
            #"header: tests/a_test.lua:19: expected header Content-Type to contain "charset=latin1", got "application/json; charset=utf-8""#,
            #"header missing: tests/a_test.lua:20: expected header X-Nope to be "1", the response has none"#,
            "bad pattern: tests/a_test.lua:21: is.matches: unfinished capture",
            "bad want: tests/a_test.lua:22: expect(response):body: expected a string (contained), a predicate (is.eq, is.matches, …) or a function, got number",
        ])
    }

    /// Every JSON kind as the expected value (false, true, 0, "", null, [], {}); [] and {} differ;
    /// a singular query compares its node, any other its node list, and the failure says which.
    func testJSONValuesAreComparedAsJSON() throws {
        let r = try run(#"""
            test("every kind", function()
              expect(canned(doc)):json("$.ok", false):json("$.t", true):json("$.z", 0):json("$.s", ""):json("$.n", pekit.null)
                :json("$.e", pekit.array{}):json("$.o", {}):json("$.o", pekit.ordered{}):json("$.a", {1, 2})
                :json("$.a[*]", {1, 2}):json("$.aa[*]", {{1, 2}}):json("$.aa[0]", {1, 2}):json("$.price", 9.5)
            end)
            test("false", function() expect(canned('{"ok":true}')):json("$.ok", false) end)
            test("zero", function() expect(canned('{"z":false}')):json("$.z", 0) end)
            test("null", function() expect(canned('{"n":0}')):json("$.n", pekit.null) end)
            test("empty array is not an object", function() expect(canned('{"items":[]}')):json("$.items", pekit.ordered{}) end)
            test("empty object is not an array", function() expect(canned('{"items":{}}')):json("$.items", pekit.array{}) end)
            test("node list", function() expect(canned('{"a":[[1,2]]}')):json("$.a[*]", {1, 2}) end)
            test("one node", function() expect(canned('{"a":[1,2]}')):json("$.a[0]", {1}) end)
            test("nothing", function() expect(canned('{"a":[]}')):json("$.a[0]", 1) end)
            test("object", function() expect(canned('{"a":{"x":1,"y":2}}')):json("$.a", {x = 1, y = 3}) end)
            """#)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.messages, [
            "every kind: passed",
            "false: tests/a_test.lua:14: expected $.ok to be false, got true",
            "zero: tests/a_test.lua:15: expected $.z to be 0, got false",
            "null: tests/a_test.lua:16: expected $.n to be null, got 0",
            "empty array is not an object: tests/a_test.lua:17: expected $.items to be {}, got []",
            "empty object is not an array: tests/a_test.lua:18: expected $.items to be [], got {}",
            "node list: tests/a_test.lua:19: expected $.a[*] (a node list) to be [1,2], got [[1,2]]",
            "one node: tests/a_test.lua:20: expected $.a[0] to be [1], got 1",
            "nothing: tests/a_test.lua:21: expected $.a[0] to be 1, it matches nothing",
            #"object: tests/a_test.lua:22: expected $.a to be {"x":1,"y":3}, got {"x":1,"y":2}"#,
        ])
        // A unified diff's order: what was expected and is not there first.
        XCTAssertEqual(r.details["object"], """
              --- expected
              +++ got
                {
                  "x": 1,
              -   "y": 3
              +   "y": 2
                }
            """)
    }

    /// Hurl's predicates as `is.*`, and a Lua function as a predicate (with its reason).
    func testPredicatesAndFunctions() throws {
        let r = try run(#"""
            test("all hold", function()
              expect(canned(doc)):json("$.a", is.count(2)):json("$.a[*]", is.count(2)):json("$.a[0]", is.lt(2)):json("$.a[1]", is.le(2))
                :json("$.price", is.gt(9)):json("$.price", is.ge(9.5)):json("$.price", is.ne(10)):json("$.date", is.starts_with("2024-"))
                :json("$.date", is.ends_with("-02")):json("$.name", is.contains("(admin)")):json("$.id", is.matches("^%x+%-%x+$"))
                :json("$.a", is.includes(2)):json("$.e", is.empty):json("$.s", is.empty):json("$.nope", is.missing):json("$.a", is.exists)
                :json("$.name", is.string):json("$.price", is.number):json("$.price", is.float):json("$.z", is.integer):json("$.ok", is.boolean)
                :json("$.n", is.null):json("$.a", is.list):json("$.o", is.object):json("$.o", is.collection):json("$.a", is["not"](is.empty))
                :json("$.a", is.count(is.ge(2))):json("$.z", function(v) return v == 0 end)
            end)
            test("gt", function() expect(canned('{"n":2}')):json("$.n", is.gt(3)) end)
            test("type", function() expect(canned('{"n":"2"}')):json("$.n", is.number) end)
            test("count", function() expect(canned('{"a":[1]}')):json("$.a", is.count(is.ge(2))) end)
            test("includes", function() expect(canned('{"a":[1]}')):json("$.a", is.includes(2)) end)
            test("exists", function() expect(canned('{}')):json("$.a", is.exists) end)
            test("missing", function() expect(canned('{"a":1}')):json("$.a", is.missing) end)
            test("not", function() expect(canned('{"a":[]}')):json("$.a", is["not"](is.empty)) end)
            test("function", function() expect(canned('{"n":2}')):json("$.n", function(v) return v > 3, "too small" end) end)
            test("bad count", function() is.count("2") end)
            """#)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.messages, [
            "all hold: passed",
            "gt: tests/a_test.lua:18: expected $.n to be greater than 3, got 2",
            #"type: tests/a_test.lua:19: expected $.n to be a number, got "2""#,
            "count: tests/a_test.lua:20: expected $.a to have a count that would be at least 2, got [1] (a count of 1)",
            "includes: tests/a_test.lua:21: expected $.a to include 2, got [1]",
            "exists: tests/a_test.lua:22: expected $.a to exist, it matches nothing",
            "missing: tests/a_test.lua:23: expected $.a to be missing, got 1",
            "not: tests/a_test.lua:24: expected $.a to not be empty, got []",
            "function: tests/a_test.lua:25: expected $.n to satisfy the function at tests/a_test.lua:25 (too small), got 2",
            #"bad count: tests/a_test.lua:26: is.count: expected a whole number or a predicate, got "2""#,
        ])
    }
}
