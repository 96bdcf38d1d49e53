import Foundation
import PekitTestSupport
import XCTest
@testable import PekitLua
@testable import PekitTools

/// Input meant to break pekit: each case checks the exact message and that the runtime is still
/// usable afterwards. Plugins that loop, allocate without bound or sort inconsistently are in
/// PluginTests (testBrokenPluginsFailWithTheirNameAndTheProcessGoesOn, testPluginComparatorLimits).
final class AbuseLimitTests: XCTestCase {
    var lua: LuaREPL!

    // XCTest keeps test case instances (and what they hold) to the end of the run: let go.
    override func tearDown() { lua = nil }

    override func setUpWithError() throws { lua = LuaREPL(runtime: try makeRuntime()) }

    func failure(_ expression: String) -> String { lua.eval("select(2, pcall(\(expression)))") }

    func assertUsable(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(lua.eval(#"pekit.query.encode({ a = "b c" })"#), #""a=b%20c""#, file: file, line: line)
    }

    func testHugeQueryStringsAndManyParameters() {
        XCTAssertEqual(lua.eval("#(function() big = string.rep('a=1&', 25 * 1024 * 1024) return big end)()"), "104857600")
        // Each model applies its server's own limits: qs reads the first 1000 pieces, Rack refuses
        // a query over 4 MB, PHP reads 1000 variables.
        XCTAssertEqual(lua.eval("#pekit.query.decode(big).a"), "1000")
        XCTAssertEqual(failure("pekit.query.decode, big, 'rack'"), #""pekit.query.decode: Rack QueryLimitError: total query size exceeds limit (4194304)""#)
        _ = lua.eval("big = nil; collectgarbage()")
        _ = lua.eval("many = {} for i = 1, 100000 do many[i] = 'k' .. i .. '=' .. i end many = table.concat(many, '&')")
        XCTAssertEqual(lua.eval("n = 0 for _ in pairs(pekit.query.decode(many)) do n = n + 1 end return n"), "1000")
        XCTAssertEqual(lua.eval("n = 0 for _ in pairs(pekit.query.decode(many, 'php')) do n = n + 1 end return n"), "1000")
        XCTAssertEqual(lua.eval("n = 0 for _ in pairs(pekit.query.decode(many, { parameterLimit = math.huge })) do n = n + 1 end return n"), "100000")
        XCTAssertEqual(failure("pekit.query.decode, many, { server = 'python', max_num_fields = 10 }"),
                       #""pekit.query.decode: Python ValueError: Max number of fields exceeded""#)
        assertUsable()
    }

    func testDeepNestingAndCycles() {
        _ = lua.eval("deep = {} cur = deep for i = 1, 10000 do cur.a = {} cur = cur.a end")
        let path = "params.a.a.a.a.a.a….a.a.a"
        XCTAssertEqual(failure("pekit.query.encode, deep"), "\"pekit.query.encode: \(path): nested deeper than 64 levels\"")
        XCTAssertEqual(failure("pekit.request, { url = 'http://h/', json = deep }").hasSuffix(": nested deeper than 64 levels\""), true)
        XCTAssertEqual(failure("pekit.json.decode, string.rep('[', 10000) .. string.rep(']', 10000)"),
                       #""pekit.json.decode: invalid JSON at byte 65: nested deeper than 64 levels""#)
        // A server reads brackets only so deep (qs: 5); the rest stays one literal key.
        XCTAssertEqual(lua.eval("#next(pekit.query.decode('a' .. string.rep('[b]', 10000) .. '=1').a.b.b.b.b.b)"), "29985")
        _ = lua.eval("cyc = {} cyc.self = cyc")
        XCTAssertEqual(failure("pekit.query.encode, { x = cyc }"), #""pekit.query.encode: params.x.self: cycle (the table contains itself)""#)
        XCTAssertEqual(failure("pekit.json.encode, cyc"), #""pekit.json.encode: value.self: cycle (the table contains itself)""#)
        assertUsable()
    }

    func testHugeAndManyCookies() {
        _ = lua.eval("jar = pekit.cookies.jar()")
        XCTAssertEqual(lua.eval(#"r = jar:receive("https://example.com/", "big=" .. string.rep("x", 1 << 20)); return #r.stored, r.rejected[1].reason"#),
                       #"0\#t"name and value are 1048579 bytes; the limit is 4096""#)
        _ = lua.eval(#"list = {} for i = 1, 10000 do list[i] = "c" .. i .. "=v; Path=/" end"#)
        XCTAssertEqual(lua.eval(#"r = jar:receive("https://example.com/", list); return #r.stored, r.evicted, #jar, jar:all()[1].name"#), "10000\t9950\t50\t\"c9951\"")
        // The 50 most recent: c9951=v … c10000=v, joined by "; ".
        XCTAssertEqual(lua.eval(#"#jar:header("https://example.com/")"#), "\(49 * 7 + 8 + 49 * 2)")
        assertUsable()
    }

    /// 10,000 Set-Cookie fields in one real response: all kept in the response, the jar capped.
    func testTenThousandSetCookieFieldsOverHTTP() throws {
        let server = try TestServer.shared()
        _ = lua.eval("jar = pekit.cookies.jar()")
        XCTAssertEqual(lua.eval(#"r = pekit.http.get("\#(server.base)/cookies/many/10000", { jar = jar }); return #r:header_all("set-cookie"), #jar"#), "10000\t50")
        assertUsable()
    }

    func testGarbageAndHugeCookieFiles() throws {
        let dir = try makeTemporaryDirectory("abuse")
        let huge = dir.appendingPathComponent("huge.txt").path
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: nil))
        XCTAssertEqual(truncate(huge, 1 << 30), 0)  // 1 GiB, sparse
        XCTAssertEqual(failure(#"function() return pekit.cookies.jar():load("\#(huge)") end"#),
                       "\"stdin:1: jar.load: \(huge): the file is 1073741824 bytes, more than a cookie jar file may be (67108864); is it a cookie file?\"")
        var generator = SystemRandomNumberGenerator()
        let garbage = dir.appendingPathComponent("garbage.txt").path
        var bytes = (0..<(2 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Line garbage: a first byte of '{' or '[' (or space before one) would make it a JSON jar,
        // refused whole, which is another test; one run in about a hundred drew that.
        bytes[0] = 0x80
        try Data(bytes).write(to: URL(fileURLWithPath: garbage))
        XCTAssertEqual(lua.eval(#"n, warnings = pekit.cookies.jar():load("\#(garbage)"); return n, #warnings"#), "0\t101")
        XCTAssertTrue(lua.eval("warnings[101]").hasSuffix(#" more lines or entries skipped""#))
        assertUsable()
    }

    func testHeaderInjectionIsRefused() {
        XCTAssertEqual(failure(#"pekit.request, { url = "http://h/", headers = { X = "a\r\nEvil: 1" } }"#),
                       #""pekit.request: header X: the value contains CR at byte 2 (header injection is refused)""#)
        XCTAssertEqual(failure(#"pekit.http.get, "http://127.0.0.1:1/", { headers = { ["X\nY"] = "1" } }"#),
                       #""pekit.http.get: header name \"X\\x0AY\" is not an HTTP token""#)
        assertUsable()
    }
}
