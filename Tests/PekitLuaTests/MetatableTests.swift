import Foundation
import XCTest
@testable import PekitLua
@testable import PekitTools

/// Metatables that error, yield or loop, wherever a script can put them: on the tables it passes
/// to pekit, on `_G`, on the string metatable, in callbacks. No abort, no hang, and an error that
/// names the place where one is due.
final class MetatableTests: XCTestCase {
    func testTablesPassedToPekitAreReadRaw() throws {
        let path = try XCTUnwrap(Bundle.module.path(forResource: "metatable_torture", ofType: "lua", inDirectory: "Fixtures"))
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let lua = LuaREPL(runtime: try makeRuntime())
        let result = lua.eval("(function() local problems, n = (function() \(source)\n end)() return table.concat(problems, '\\n'), n end)()")
        XCTAssertEqual(result, "\"\"\t108", result.replacingOccurrences(of: "\\n", with: "\n"))
    }

    func testHostileGlobalsAndStringMetatable() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        // _G that errors on every read and write of a missing global, and a string metatable
        // whose methods are gone: pekit's own code (inspect, headers, responses) does not care.
        _ = lua.eval(#"local sm = getmetatable(""); sm.__index = function(s, k) error("string method " .. k .. " ran") end"#)
        _ = lua.eval(#"setmetatable(_G, { __index = function(_, k) error("global " .. k .. " read") end, __newindex = function(_, k) error("global " .. k .. " set") end, __gc = function() error("gc") end })"#)
        XCTAssertEqual(lua.eval(#"pekit.encode("a b")"#), #""a%20b""#)
        XCTAssertEqual(lua.eval(#"pekit.query.decode("b=1&a=2", { ordered = true })"#), #"pekit.ordered{ {"b", "1"}, {"a", "2"} }"#)
        XCTAssertEqual(lua.eval(#"pekit.request{ url = "http://h/", headers = { ["X-Long-Name"] = "v\1" } }"#),
                       #"error: stdin:1: pekit.request: header X-Long-Name: the value contains control byte \x01 at byte 2 (header injection is refused)"#)
        XCTAssertEqual(lua.eval(#"pekit.request{ url = "http://h/" }.headers["HOST"]"#), #""h""#)
        XCTAssertEqual(lua.eval(#"pekit.inspect({ ["not a name"] = "x\255", ok = 1 })"#), #""{ [\"not a name\"] = \"x\\xFF\", ok = 1 }""#)
        XCTAssertEqual(lua.eval("undefined_name"), "error: stdin:1: global undefined_name read")
        XCTAssertEqual(lua.eval(#"("x"):upper()"#), "error: stdin:1: string method upper ran")
    }

    func testCallbacksThatErrorOrYieldNameTheirPlace() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.query.encode, { b = 1, a = 2 }, { order = function() error("no order") end }))"#),
                       #""pekit.query.encode: pekit.query.encode: order: stdin:1: no order""#)
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.query.encode, { a = { 1 } }, { arrays = function() error({ code = 7, why = "no" }) end }))"#),
                       #""pekit.query.encode: pekit.query.encode: arrays: error object: { code = 7, why = \"no\" }""#)
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.query.encode, { a = { b = 1 } }, { objects = function() return {} end }))"#),
                       #""pekit.query.encode: pekit.query.encode: objects: the function must return a string, not table""#)
        XCTAssertEqual(lua.eval(#"coroutine.wrap(function() return select(2, pcall(function() local j = pekit.cookies.jar{ public_suffixes = false, filter = { match = function() coroutine.yield() end } }; j:receive("http://x.example/", "a=1"); return j:header("http://x.example/") end)) end)()"#),
                       #""stdin:1: jar.header: filter \"inline\": match: attempt to yield across a C-call boundary""#)
        XCTAssertEqual(lua.eval(#"select(2, pcall(function() local j = pekit.cookies.jar{ public_suffixes = false, filter = { accept = function() error(setmetatable({}, { __tostring = function() return "refused by policy" end })) end } }; return j:receive("http://x.example/", "a=1") end))"#),
                       #""stdin:1: jar.receive: filter \"inline\": accept: refused by policy""#)
        XCTAssertEqual(lua.eval("1 + 1"), "2", "the runtime goes on")
    }
}
