import XCTest
import PekitCore
@testable import PekitLua
@testable import PekitTools

final class BridgeTests: XCTestCase {
    func testStringsCrossAsBytes() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"pekit.encode("a\0b\255")"#), #""a%00b%FF""#)
        XCTAssertEqual(lua.eval(#"pekit.decode("a%00b%FF") == "a\0b\255""#), "true")
        XCTAssertEqual(lua.eval(#"#pekit.decode("%00%00")"#), "2")
        XCTAssertEqual(lua.eval("pekit.encode(12.5)"), #""12.5""#)
    }

    func testValueConversion() throws {
        let runtime = try makeRuntime()
        let lua = LuaREPL(runtime: runtime)
        func convert(_ code: String) throws -> PekitValue {
            _ = lua.eval("_v = " + code)
            lua_getglobal_for_test(runtime, "_v")
            defer { runtime.stack.pop() }
            return try runtime.value(at: -1, path: "params")
        }
        XCTAssertEqual(try convert(#"{1, "x", true, 2.5}"#), .array([.integer(1), .text("x"), .boolean(true), .number(2.5)]))
        XCTAssertEqual(try convert(#"{b = 1, a = pekit.null}"#),
                       .map(PekitMap(unordered: [.init(key: "a", value: .null), .init(key: "b", value: .integer(1))])))
        XCTAssertEqual(try convert(#"pekit.ordered{ {"b", 1}, {"a", 2} }"#),
                       .map(PekitMap(ordered: [.init(key: "b", value: .integer(1)), .init(key: "a", value: .integer(2))])))
        XCTAssertEqual(try convert(#"pekit.set{"2", "1"}"#), .set([.text("2"), .text("1")]))
        XCTAssertEqual(try convert("{}"), .map(PekitMap(unordered: [])))
        XCTAssertEqual(try convert("pekit.array{}"), .array([]))
        XCTAssertEqual(try convert("{[1] = 'a', [3] = 'c'}"),
                       .map(PekitMap(unordered: [.init(key: "1", value: .text("a")), .init(key: "3", value: .text("c"))])))
        XCTAssertEqual(try convert(#""\0\255""#), .string(ByteString([0, 255])))
    }

    func testConversionErrorsNameTheKeyPath() throws {
        let runtime = try makeRuntime()
        let lua = LuaREPL(runtime: runtime)
        func error(_ code: String) -> String {
            _ = lua.eval(code)
            lua_getglobal_for_test(runtime, "_v")
            defer { runtime.stack.pop() }
            do { _ = try runtime.value(at: -1, path: "params"); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(error("_v = {a = {b = {}}}; _v.a.b.a = _v.a"), "params.a.b.a: cycle (the table contains itself)")
        XCTAssertEqual(error("_v = {}; local t = _v; for i = 1, 100 do t.x = {}; t = t.x end"),
                       "params.x.x.x.x.x.x….x.x.x: nested deeper than 64 levels")
        XCTAssertEqual(error("_v = {f = print}"), "params.f: cannot use a function as a value")
        XCTAssertEqual(error("_v = {list = {1, {['a b'] = io.stdout}}}"), #"params.list[2]["a b"]: cannot use a userdata as a value"#)
        XCTAssertEqual(error("_v = {[true] = 1}"), "params: a key must be a string or a number, not a boolean")
        // Keys Lua keeps apart that are written alike (a fuzzer's finding: JSON wrote "0" twice).
        let alike = #"two keys are both written "0" (a number key and a string key, or two numbers Lua writes alike); a map holds each name once"#
        XCTAssertEqual(error(#"_v = {x = {[0] = 1, ["0"] = 2, a = 3}}"#), "params.x: " + alike)
        XCTAssertEqual(error(#"_v = {[0.1] = 1, [0.1 + 1e-17] = 2}"#), "params: " + alike.replacingOccurrences(of: #""0""#, with: #""0.1""#))
        XCTAssertEqual(error(#"_v = {[1] = "a", b = 2}"#), "no error")
        // A shared (not cyclic) table is fine.
        XCTAssertEqual(error("local s = {1}; _v = {a = s, b = s}"), "no error")
    }

    func testPushRoundTrip() throws {
        let runtime = try makeRuntime()
        let value = PekitValue.map(PekitMap(ordered: [
            .init(key: "z", value: .array([])), .init(key: "a", value: .set([.text("x")])),
            .init(key: "n", value: .null), .init(key: "m", value: .map(PekitMap(unordered: [.init(key: "k", value: .number(1.5))]))),
        ]))
        runtime.push(value)
        XCTAssertEqual(try runtime.value(at: -1, path: "v"), value)
        XCTAssertEqual(runtime.inspect(at: -1), """
            pekit.ordered{
              {"z", pekit.array{}},
              {"a", pekit.set{ "x" }},
              {"n", pekit.null},
              {"m", { k = 1.5 }}
            }
            """)
        runtime.stack.pop()
    }

    func testErrorsCarryPlaceAndCause() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"select(2, pcall(function() return pekit.decode("ab%zz", {strict = true}) end))"#),
                       #""stdin:1: pekit.decode: invalid escape \"%zz\" at byte 3 (a % needs two hex digits; write %25 for a literal %)""#)
        XCTAssertEqual(lua.eval(#"pekit.encode()"#), "error: stdin:1: pekit.encode: bad argument #1 (string expected, got no value)")
        XCTAssertEqual(lua.eval(#"pekit.encode("x", true)"#), "error: stdin:1: pekit.encode: bad argument #2 (policy name, charset or options table expected, got boolean)")
        XCTAssertEqual(lua.eval(#"pekit.decode("x", {plux = true})"#), #"error: stdin:1: pekit.decode: bad argument #2 (unknown field "plux" (did you mean "plus"?); known: plus, strict, utf8, unicode_escapes)"#)
        XCTAssertEqual(lua.eval(#"pekit.decode("%FF", {utf8 = true})"#), #"error: stdin:1: pekit.decode: decoded bytes are not valid UTF-8: "%FF" at byte 1"#)
        XCTAssertEqual(lua.eval(#"local o = pekit.ordered{ {nil, 1} }"#), "error: stdin:1: pekit.ordered: entry 1: the key must be a string or an integer, not nil")
    }

    func testREPLContinuationAndErrors() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval("1 + 1"), "2")
        XCTAssertEqual(lua.eval("=3"), "3")
        XCTAssertEqual(lua.eval("1, 'two', nil"), "1\t\"two\"\tnil")
        XCTAssertEqual(lua.eval("function f(x)"), "<more>")
        XCTAssertEqual(lua.eval("  return x * 2"), "<more>")
        XCTAssertEqual(lua.eval("end"), "")
        XCTAssertEqual(lua.eval("f(21)"), "42")
        XCTAssertEqual(lua.eval("x = = 1"), "error: stdin:1: unexpected symbol near '='")
        XCTAssertEqual(lua.eval("error('boom')"), "error: stdin:1: boom")
        XCTAssertEqual(lua.eval("t = {b = {1, 2}, a = 'x'}; t.self = t; return t"), #"{ a = "x", b = { 1, 2 }, self = <cycle> }"#)
        XCTAssertEqual(lua.eval(":nope"), "error: unknown command :nope (try :help)")
        XCTAssertEqual(lua.eval(":quit"), "<quit>")
        XCTAssertEqual(lua.eval(#""漢字\n\1""#), #""漢字\n\1""#)
        XCTAssertEqual(lua.eval(#""\255""#), #""\xFF""#)
    }

    /// A script's state runs with no debug hook (a count hook hands every instruction to it: loops
    /// ran 2 to 2.6 times slower), in coroutines and tasks too; a plugin's keeps the hook its
    /// budget needs. Ctrl-C gives the running thread one (testInterruptStopsRunningCode).
    func testScriptsRunWithoutAHookAndPluginsWithOne() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval("debug.gethook()"), "nil")
        XCTAssertEqual(lua.eval("coroutine.wrap(function() return debug.gethook() end)()"), "nil")
        XCTAssertEqual(lua.eval("select(2, coroutine.resume(coroutine.create(function() return debug.gethook() end)))"), "nil")
        XCTAssertEqual(lua.eval("pekit.wait{pekit.spawn(function() return debug.gethook() == nil end)}[1]"), "true")
        // A plugin has no debug library to ask: its endless loop is stopped by the budget, which the hook charges.
        let directory = try pluginDirectory(["hooked": "local n = 0 while true do n = n + 1 end"])
        let plugins = LuaREPL(runtime: try makeRuntime(plugins: [directory, repoPlugins]))
        let loaded = plugins.eval(#"pekit.plugins.load("hooked")"#)
        XCTAssertTrue(loaded.contains("instruction budget exceeded"), loaded)
    }

    func testInterruptStopsRunningCode() throws {
        // ThreadSanitizer delivers a signal only when the thread next makes a system call, which
        // a Lua loop never does: the handler (and so the hook) would never run.
        if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil { throw XCTSkip("signals are deferred under ThreadSanitizer") }
        // The interrupt hook raises at the next instruction and cannot be swallowed by pcall.
        let runtime = try makeRuntime()
        let lua = LuaREPL(runtime: runtime)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { kill(getpid(), SIGINT) }
        XCTAssertEqual(lua.eval("while true do pcall(function() while true do end end) end"), "error: interrupted")
        XCTAssertEqual(lua.eval("1"), "1", "the runtime goes on after an interrupt")
        // Inside coroutines (their own threads, each catching errors), and in pattern matching (C).
        for code in ["while true do coroutine.resume(coroutine.create(function() while true do pcall(function() while true do end end) end end)) end",
                     "coroutine.wrap(function() while true do end end)()",
                     "coroutine.wrap(function() while true do coroutine.resume(coroutine.create(function() while true do end end)) end end)()",
                     "pekit.wait{pekit.spawn(function() while true do end end)}",
                     "local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end",
                     #"local s = ("a"):rep(100000); return s:find(("a*"):rep(20) .. "b")"#,
                     #"return coroutine.wrap(function() return ("a"):rep(100000):gsub("(a-)(a-)(a-)b", "x") end)()"#] {
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { kill(getpid(), SIGINT) }
            XCTAssertTrue(lua.eval(code).hasSuffix("interrupted"), code)
            XCTAssertEqual(lua.eval("1"), "1")
            XCTAssertEqual(lua.eval("debug.gethook()"), "nil", "the hook Ctrl-C gave is gone once it has stopped the code")
        }
        // A script's own error that merely says so is not an interruption.
        XCTAssertThrowsError(try runtime.runChunk(Array(#"error("transfer was interrupted")"#.utf8))) { error in
            XCTAssertEqual((error as? LuaError)?.isInterrupt, false)
        }
    }
}

/// Pushes a global (test helper).
func lua_getglobal_for_test(_ runtime: LuaRuntime, _ name: String) {
    runtime.stack.pushGlobal(name)
}
