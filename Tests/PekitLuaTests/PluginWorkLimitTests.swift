import XCTest
@testable import PekitLua
@testable import PekitTools

/// Issue 68: a plugin's call ends within its budget whatever it calls. The instruction budget
/// counts Lua code; a host function's own work (a JSONPath query's nodes, the bytes a library
/// function makes) is charged to it too, and a wall-clock limit bounds the rest. Each class of
/// work has an attack in Fixtures/hostile (work_*.lua); these hold the clock and the messages.
final class PluginWorkLimitTests: XCTestCase {
    func header(_ lua: LuaREPL, policy: String) -> String {
        lua.eval(#"select(2, pcall(pekit.query.encode, {a = 1, b = 2}, "\#(policy)"))"#)
    }

    func testTheWallClockStopsACallWhateverItsBudget() throws {
        let directory = try pluginDirectory([
            "spin": #"return { kind = "policy", order = function() while true do end end }"#,
            // A host function's work, not Lua's: 300 items, filters three deep.
            "nested": #"""
            local list = {} for i = 1, 300 do list[i] = i end
            return { kind = "policy", order = function() pekit.json.query(list, "$[?count($[?count($[?@ > 0]) > 0]) > 0]") end }
            """#,
            "caught": #"return { kind = "policy", order = function() while true do pcall(function() while true do end end) end end }"#,
        ])
        let lua = LuaREPL(runtime: try makeLimitedRuntime(plugins: [directory], budget: Int.max / 4, seconds: 0.3))
        func answer(_ name: String) -> String { header(lua, policy: name).replacingOccurrences(of: directory, with: "DIR") }
        XCTAssertEqual(answer("spin"), #""pekit.query.encode: plugin \"spin\" (DIR/spin.lua): order: time limit exceeded (a plugin's call may run 300 ms)""#)
        XCTAssertEqual(answer("nested"), #""pekit.query.encode: plugin \"nested\" (DIR/nested.lua): order: nested.lua:2: time limit exceeded (a plugin's call may run 300 ms)""#)
        XCTAssertEqual(answer("caught"), #""pekit.query.encode: plugin \"caught\" (DIR/caught.lua): order: time limit exceeded (a plugin's call may run 300 ms)""#)
        // Each call has its own time: the runtime goes on.
        XCTAssertEqual(lua.eval(#"pekit.query.encode({b = 1, a = 2})"#), #""a=2&b=1""#)
    }

    func testAHostFunctionsWorkIsChargedToTheBudget() throws {
        let directory = try pluginDirectory([
            "nested": #"""
            local list = {} for i = 1, 300 do list[i] = i end
            return { kind = "policy", order = function()
              -- A pcall cannot keep the plugin running past its budget.
              local ok = pcall(pekit.json.query, list, "$[?count($[?count($[?@ > 0]) > 0]) > 0]")
              return ok
            end }
            """#,
        ])
        let lua = LuaREPL(runtime: try makeLimitedRuntime(plugins: [directory], budget: 1_000_000))
        XCTAssertEqual(header(lua, policy: "nested").replacingOccurrences(of: directory, with: "DIR"),
                       #""pekit.query.encode: plugin \"nested\" (DIR/nested.lua): order: instruction budget exceeded (an endless loop?)""#)
    }

    /// A budget large enough for the work lets it finish with the answer it always had.
    func testWorkWithinTheBudgetIsUnchanged() throws {
        let directory = try pluginDirectory([
            "fine": #"""
            return { kind = "policy", order = function(a, b)
              local found = pekit.json.query({ "aab", "x" }, '$[?match(@, "(a+)+b")]')
              local s = string.rep("ab", 1000, ",")
              local t = { 3, 1, 2 }
              table.sort(t)
              table.insert(t, 1, 0)
              assert(#found == 1 and #s == 2999 and table.concat(t, ",") == "0,1,2,3")
              return a > b
            end }
            """#,
        ])
        let lua = LuaREPL(runtime: try makeLimitedRuntime(plugins: [directory], budget: 1_000_000))
        XCTAssertEqual(header(lua, policy: "fine"), #""b=2&a=1""#)
    }
}

/// Issue 68: a plugin file another user could have written (a mode-0666 file, a world-writable
/// directory even with the sticky bit, a file owned by someone else) replaced a shipped filter
/// silently. It is refused with the reason, as OpenSSH refuses such configuration files, unless
/// PEKIT_UNSAFE_PLUGINS=1 says to load it anyway.
final class PluginTrustTests: XCTestCase {
    func answer(_ directory: String, unsafe: Bool = false) throws -> String {
        var options = LuaRuntime.Options()
        options.extraPluginDirectories = [directory]
        options.environment = unsafe ? ["PEKIT_UNSAFE_PLUGINS": "1"] : [:]
        let lua = LuaREPL(runtime: try LuaRuntime(options: options))
        return lua.eval(#"select(2, pcall(pekit.encode, "a b", "mine"))"#).replacingOccurrences(of: directory, with: "DIR")
    }

    func testPluginsOthersCanWriteAreRefused() throws {
        let directory = try pluginDirectory(["mine": #"return { kind = "policy", space = "+" }"#])
        let file = directory + "/mine.lua"
        XCTAssertEqual(try answer(directory), #""a+b""#)
        chmod(file, 0o666)
        XCTAssertEqual(try answer(directory), #""pekit.encode: plugin \"mine\" (DIR/mine.lua): refused: the file is writable by every user (mode 666), so another user could have written it (fix its permissions, or PEKIT_UNSAFE_PLUGINS=1 to load it anyway)""#)
        XCTAssertEqual(try answer(directory, unsafe: true), #""a+b""#)
        chmod(file, 0o644)
        // A directory anyone may add a file to, /tmp's mode: a new mine.lua could appear there.
        chmod(directory, 0o1777)
        let real = FileManager.default.fileExists(atPath: directory) ? (URL(fileURLWithPath: directory).resolvingSymlinksInPath().path) : directory
        XCTAssertEqual(try answer(directory), #""pekit.encode: plugin \"mine\" (DIR/mine.lua): refused: its directory \#(real) is writable by every user (mode 1777), so another user could have written it (fix its permissions, or PEKIT_UNSAFE_PLUGINS=1 to load it anyway)""#.replacingOccurrences(of: directory, with: "DIR"))
        chmod(directory, 0o755)
        XCTAssertEqual(try answer(directory), #""a+b""#)
        // Owned by another user (root can make it so; another user cannot give a file away).
        if geteuid() == 0 {
            chown(file, 4242, 4242)
            XCTAssertEqual(try answer(directory), #""pekit.encode: plugin \"mine\" (DIR/mine.lua): refused: the file is owned by another user (uid 4242), so another user could have written it (fix its permissions, or PEKIT_UNSAFE_PLUGINS=1 to load it anyway)""#)
            chown(file, 0, 0)
        }
    }
}
