import Foundation
import XCTest
@testable import PekitLua
@testable import PekitTools
import PekitHTTP

/// Every options table is read by one reader: unknown fields listed, types and ranges checked,
/// NaN and infinities refused, the field named.
final class LuaFieldsTests: XCTestCase {
    func testTypesRangesAndNames() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let cases: [(String, String)] = [
            (#"pekit.http.get("http://127.0.0.1:9/", { timeout = 1e300 })"#,
             #"pekit.http.get: bad argument #2 (field "timeout": expected a number of seconds more than 0 and at most 1000000, got 1e+300)"#),
            (#"pekit.http.get("http://127.0.0.1:9/", { connect_timeout = 0/0 })"#,
             #"pekit.http.get: bad argument #2 (field "connect_timeout": expected a number of seconds more than 0 and at most 1000000, got "#),
            (#"pekit.http.get("http://127.0.0.1:9/", { timeout = 0 })"#,
             #"pekit.http.get: bad argument #2 (field "timeout": expected a number of seconds more than 0 and at most 1000000, got 0)"#),
            (#"pekit.http.send({ url = "http://h/" }, { max_redirects = 2.5 })"#,
             #"pekit.http.send: bad argument #2 (field "max_redirects": expected a whole number from 0 to 1000, got 2.5)"#),
            (#"pekit.http.send({ url = "http://h/" }, { http = "3" })"#,
             #"pekit.http.send: bad argument #2 (field "http": expected "1.0", "1.1", "2" or "auto", got "3")"#),
            (#"pekit.query.decode("a=1", { depth = "5" })"#,
             #"pekit.query.decode: bad argument #2 (field "depth": expected a whole number or false (at most 1000: pekit reads no deeper), got "5")"#),
            (#"pekit.query.decode("a=1", { server = "python", errors = "all" })"#,
             #"pekit.query.decode: bad argument #2 (field "errors": expected "replace", "strict", "ignore", "backslashreplace" or "surrogateescape", got "all")"#),
            (#"pekit.query.decode("a=1", { server = "pyramid" })"#,
             #"pekit.query.decode: bad argument #2 (field "server": expected "qs", "php", "rack", "python", "go", "whatwg" or "node-querystring" or a framework (rails, sinatra, laravel, symfony, express, django, flask, fastapi), got "pyramid")"#),
            (#"pekit.query.decode("a=1", { server = "php", depth = 2 })"#,
             #"pekit.query.decode: bad argument #2 (unknown field "depth"; known: server, policy, ordered, max_input_vars, max_input_nesting_level, arg_separator.input)"#),
            (#"pekit.query.decode("a=1", { [1] = true })"#,
             #"pekit.query.decode: bad argument #2 (unknown field [1]; known: server, policy, ordered, allowDots, allowPrototypes, allowSparse, arrayLimit, charset, charsetSentinel, comma, decoder, delimiter, depth, ignoreQueryPrefix, interpretNumericEntities, parameterLimit, parseArrays, plainObjects, strictNullHandling)"#),
            (#"pekit.decode("a", { plus = 1 })"#, #"pekit.decode: bad argument #2 (field "plus": expected true or false, got 1)"#),
            (#"pekit.cookies.jar{ now = 0/0 }"#, #"pekit.cookies.jar: bad argument #1 (field "now": expected a time in seconds since 1970, got "#),
            (#"pekit.cookies.jar{ public_suffixes = false }:header("http://h/", { same_site = "lax" })"#,
             #"jar.header: bad argument #3 (field "same_site": expected "same-site", "cross-site-navigation" or "cross-site", got "lax")"#),
            (#"pekit.cookies.jar{ public_suffixes = false }:clock(1/0)"#, #"jar.clock: bad argument #2 (time in seconds since 1970 or false expected, got number)"#),
            (#"pekit.request{ url = "http://h/", params_in = "header" }"#,
             #"pekit.request: bad argument #1 (field "params_in": expected "query", "body" or "auto", got "header")"#),
            (#"pekit.request{ url = "http://h/", auth = { user = "u" } }"#,
             #"pekit.request: bad argument #1 (field "auth": expected {user = …, password = …} or {bearer = …})"#),
            (#"pekit.request{ url = "http://h/", method = "POST", multipart = { { name = "a", value = "1", fielname = "x" } } }"#,
             #"pekit.request: bad argument #1 (multipart[1]: unknown field "fielname"; known: name, value, data, path, filename, type)"#),
            (#"pekit.request{ url = "http://h/", headers = { ["X-A"] = {} } }"#,
             #"pekit.request: bad argument #1 (field "headers": header "X-A" must be a string, or false to remove it)"#),
            (#"pekit.request{ url = "http://h/", params = { f = print } }"#, #"pekit.request: params.f: cannot use a function as a value"#),
        ]
        for (code, expected) in cases {
            let got = lua.eval("select(2, pcall(function() return \(code) end))")
            XCTAssertTrue(got.hasPrefix("\"stdin:1: " + expected.replacingOccurrences(of: "\"", with: "\\\"")), "\(code)\n\(got)")
        }
    }

    /// The send options are one row each (SendOptions.fields): a script's table, pekit request's
    /// flags and the send options table of docs/requests-and-sending.md all have every row; the rows only a script gives have a reader.
    func testSendOptionRowsAreReadEverywhere() throws {
        let names = SendOptions.fields.map(\.name)
        XCTAssertEqual(names, HTTPModule.sendFields)
        let scriptOnly = SendOptions.fields.filter { if case .script = $0.kind { return true }; return false }.map(\.name)
        XCTAssertEqual(Set(scriptOnly), Set(HTTPModule.scriptReaders.keys))
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/requests-and-sending.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let table = text.range(of: "| option | default | meaning |") else { return XCTFail("docs/requests-and-sending.md has no send options table") }
        let rows = text[table.upperBound...].split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }.map { $0.split(separator: "|").first ?? "" }
        for name in names {
            XCTAssertTrue(rows.contains { $0.contains("`\(name)`") }, "docs/requests-and-sending.md's send options table lacks `\(name)`")
        }
        // Every non-script kind is read from a script's table by the row alone.
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"pekit.http.send({ url = "http://h/" }, { max_body = -1 })"#),
                       #"error: stdin:1: pekit.http.send: bad argument #2 (field "max_body": expected a whole number from 0, got -1)"#)
        XCTAssertEqual(lua.eval(#"pekit.http.send({ url = "http://h/" }, { cacert = {} })"#),
                       #"error: stdin:1: pekit.http.send: bad argument #2 (field "cacert": expected a string, got a table)"#)
    }

    /// The rows are found by name (`HTTPModule.sendFieldRows`): each name once.
    func testSendOptionNamesAreDistinct() {
        let names = SendOptions.fields.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertEqual(HTTPModule.sendFieldRows.count, names.count)
    }

    /// A plain table of header names to strings is read straight (`plainHeaderMap`, a load
    /// script's requests); held to the general reading, which a table with a metatable takes, on
    /// random tables: names alike but for case, bytes that are not UTF-8, long values, values that
    /// are not strings (which the general reading takes in both).
    func testAPlainHeaderTableReadsAsTheGeneralReadingDoes() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let script = #"""
        local names = { "X-A", "x-a", "X-a", "Accept", "accept", "User-Agent", "Host", "X-\255", "Zed", "a", "B", "x_a" }
        local values = { "1", "", "two words", "\255\254", ("v"):rep(70), " padded ", 7, false }
        local seed = 12345
        local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n + 1 end
        local differ = {}
        for round = 1, 300 do
          local plain, general = {}, setmetatable({}, {})
          for _ = 1, rand(6) - 1 do
            local name, value = names[rand(#names)], values[rand(#values)]
            plain[name] = value; general[name] = value
          end
          local a = select(2, pcall(function() return pekit.request{ url = "http://h/", headers = plain }:raw() end))
          local b = select(2, pcall(function() return pekit.request{ url = "http://h/", headers = general }:raw() end))
          -- An error names its line: the two calls are on two lines.
          a, b = tostring(a):gsub("^stdin:%d+: ", ""), tostring(b):gsub("^stdin:%d+: ", "")
          if a ~= b then differ[#differ + 1] = round .. ": " .. tostring(a) .. " | " .. tostring(b) end
        end
        return #differ == 0 and "same" or table.concat(differ, "\n")
        """#
        XCTAssertEqual(lua.eval("(function() \(script) end)()"), "\"same\"")
    }
}
