import Foundation
import PekitTestSupport
import XCTest

final class RunCommandTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pekit-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("lib"), withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    func run(_ args: [String], stdin: String = "", environment: [String: String] = [:]) throws -> PekitResult {
        try PekitProcess.run(args, stdin: Array(stdin.utf8), directory: directory, environment: environment)
    }

    /// A script's plugins/ directory, beside it, is searched wherever pekit runs from.
    func testAScriptFindsItsOwnPlugins() throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("lib/plugins"), withIntermediateDirectories: true)
        try write("lib/plugins/shipped.lua", #"return { kind = "policy", extends = "rfc3986", space = "plus" }"#)
        try write("lib/tool.lua", #"print(pekit.encode("a b", "shipped"))"#)
        let r = try PekitProcess.run(["run", directory.appendingPathComponent("lib/tool.lua").path], directory: FileManager.default.temporaryDirectory)
        XCTAssertEqual(r.stdout, "a+b\n", r.stderr)
        // Not for other commands, or for a script elsewhere.
        try write("other.lua", #"print(pcall(pekit.encode, "a b", "shipped"))"#)
        XCTAssertTrue(try run(["run", "other.lua"]).stdout.hasPrefix("false\t"))
    }

    func testScriptArgumentsRequireAndModule() throws {
        try write("lib/helper.lua", "return { twice = function(s) return s .. s end }")
        try write("lib/main.lua", """
            #!/usr/bin/env pekit
            local helper = require "helper"
            local p = require "pekit"
            print(arg[0], arg[1], arg[2], arg[-1], arg[-2], select("#", ...), ...)
            print(helper.twice(pekit.encode("a b")), p == pekit, pekit.version)
            """)
        let r = try run(["run", "lib/main.lua", "one", "two"])
        XCTAssertEqual(r.stdout, "lib/main.lua\tone\ttwo\trun\tpekit\t2\tone\ttwo\na%20ba%20b\ttrue\t0.1.0\n")
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(try run(["lib/main.lua", "x"]).stdout.components(separatedBy: "\n").first, "lib/main.lua\tx\tnil\trun\tpekit\t1\tx")
    }

    func testRuntimeErrorPrintsPlaceAndTraceback() throws {
        try write("err.lua", "local function f() error(\"boom\") end\nlocal function g() f() end\ng()\n")
        let r = try run(["run", "err.lua"])
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, """
            pekit: err.lua:1: boom
            stack traceback:
            \t[C]: in function 'error'
            \terr.lua:1: in upvalue 'f'
            \terr.lua:2: in local 'g'
            \terr.lua:3: in main chunk

            """)
        XCTAssertEqual(r.status, 1)
    }

    func testSyntaxErrorMissingFileAndUsage() throws {
        try write("syn.lua", "print('ok')\nx = = 1\n")
        let syntax = try run(["run", "syn.lua"])
        XCTAssertEqual(syntax.stderr, "pekit: syn.lua:2: unexpected symbol near '='\n")
        XCTAssertEqual(syntax.status, 1)
        let missing = try run(["run", "nothere.lua"])
        XCTAssertEqual(missing.stderr, "pekit: cannot open nothere.lua (no such file)\n")
        XCTAssertEqual(missing.status, 1)
        let usage = try run(["run"])
        XCTAssertEqual(usage.stderr, "pekit run: no script given (see 'pekit run --help')\n")
        XCTAssertEqual(usage.status, 2)
        let flag = try run(["run", "--frob", "x.lua"])
        XCTAssertEqual(flag.stderr, "pekit run: unknown option '--frob' (see 'pekit run --help')\n")
        XCTAssertEqual(flag.status, 2)
    }

    func testChunksModulesStdinAndSandbox() throws {
        XCTAssertEqual(try run(["run", "-e", "print(1 + 1)", "-l", "string", "-e", "print(string.upper('x'))"]).stdout, "2\nX\n")
        XCTAssertEqual(try run(["run", "-", "a", "b"], stdin: "print('stdin', ...)\n").stdout, "stdin\ta\tb\n")
        let sandboxed = try run(["run", "--sandbox", "-e", "print(io, os.execute, require, pekit.encode('a b'))"])
        XCTAssertEqual(sandboxed.stdout, "nil\tnil\tnil\ta%20b\n")
        let error = try run(["run", "-e", "pekit.decode('%zz', {strict = true})"])
        XCTAssertTrue(error.stderr.hasPrefix("pekit: (command line):1: pekit.decode: invalid escape \"%zz\" at byte 1"), error.stderr)
        XCTAssertEqual(error.status, 1)
    }

    func testLuaPathIsHonoured() throws {
        try write("lib/extra.lua", "return 'from LUA_PATH'")
        let r = try run(["run", "-e", "print((require 'extra'))"], environment: ["LUA_PATH": directory.path + "/lib/?.lua;;"])
        XCTAssertEqual(r.stdout, "from LUA_PATH\n")
    }

    /// A Lua 5.4 C module, built here with cc, loads through LUA_CPATH.
    func testLuaCModulesLoad() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/cc") else { throw XCTSkip("no C compiler") }
        try write("tiny.c", """
            #include <lua.h>
            #include <lauxlib.h>
            static int hello(lua_State *L) { lua_pushstring(L, "hello from C"); return 1; }
            int luaopen_tiny(lua_State *L) {
              lua_newtable(L); lua_pushcfunction(L, hello); lua_setfield(L, -2, "hello"); return 1;
            }
            """)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        cc.arguments = ["-shared", "-fPIC", "-I/usr/include/lua5.4", "-o", directory.appendingPathComponent("lib/tiny.so").path,
                        directory.appendingPathComponent("tiny.c").path]
        try cc.run()
        cc.waitUntilExit()
        XCTAssertEqual(cc.terminationStatus, 0)
        let r = try run(["run", "-e", "print(require('tiny').hello())"], environment: ["LUA_CPATH": directory.path + "/lib/?.so"])
        XCTAssertEqual(r.stdout, "hello from C\n")
        XCTAssertEqual(r.stderr, "")
    }

    /// pekit's coroutine.resume and coroutine.wrap (which tell Ctrl-C what runs) give what plain
    /// Lua's give: results, errors and where they say they come from, bad arguments.
    func testCoroutinesBehaveAsInPlainLua() throws {
        try write("co.lua", #"""
            print(pcall(coroutine.wrap(function() error("boom") end)))
            print(pcall(coroutine.wrap(function() error({}) end)) and "no error" or "a table error")
            local f = coroutine.wrap(function() return 1 end); f()
            print(pcall(f))
            print(pcall(coroutine.wrap(function() local x = nil; return x.y end)))
            print(coroutine.resume(coroutine.create(function() error("r") end)))
            print(pcall(coroutine.resume, 1))
            print(pcall(coroutine.wrap, 1))
            print(select('#', coroutine.wrap(function(...) return ... end)(1, nil, 3, nil)))
            local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
            print(co(1), co(10))
            local t = coroutine.create(function() coroutine.yield(coroutine.isyieldable(), coroutine.running()) end)
            print(select(2, coroutine.resume(t)), coroutine.status(t), coroutine.close(t), coroutine.status(t))
            """#)
        let lua = try PekitProcess.output(of: "/usr/bin/lua5.4", ["co.lua"], directory: directory)
        let r = try run(["run", "co.lua"])
        XCTAssertEqual(r.stdout, String(decoding: lua, as: UTF8.self), r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("false\tco.lua:1: boom\n"), r.stdout)
    }

    /// rawget, rawset, rawlen, getmetatable and setmetatable (pekit's, which first make a
    /// jar:receive list not read yet) give what plain Lua's give: results and errors alike.
    func testRawAndMetatableFunctionsBehaveAsInPlainLua() throws {
        try write("raw.lua", #"""
            local t = setmetatable({}, { __metatable = "locked", __index = function() return 1 end })
            local function e(...) return select(2, pcall(...)) end
            print(e(rawget), e(rawget, 1), e(rawget, {}))
            print(e(rawset), e(rawset, {}, 1), e(rawset, {}, nil, 1), e(rawset, {}, 0/0, 1))
            local u = {}
            print(rawset(u, "k", "v") == u, rawget(u, "k"), rawget(t, "x"), t.x)
            print(e(rawlen), e(rawlen, 5), rawlen("abc"), rawlen({ 1, 2, nil, 4 }) >= 2)
            print(getmetatable(t), getmetatable(u), e(getmetatable), getmetatable("").__index == string)
            print(e(setmetatable, t, {}), e(setmetatable, 1, {}), e(setmetatable, {}, 5), e(setmetatable, {}))
            local m = {}
            print(setmetatable(u, m) == u, getmetatable(u) == m, setmetatable(u, nil) == u, getmetatable(u))
            print(select("#", rawget({}, 1)), select("#", getmetatable({})), select("#", rawlen({})))
            """#)
        let lua = try PekitProcess.output(of: "/usr/bin/lua5.4", ["raw.lua"], directory: directory)
        let r = try run(["run", "raw.lua"])
        XCTAssertEqual(r.stdout, String(decoding: lua, as: UTF8.self), r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("bad argument #1 to 'rawget' (table expected, got no value)\tbad argument #1 to 'rawget' (table expected, got number)\t"), r.stdout)
    }

    func testInterruptStopsTheScriptCleanly() throws {
        for code in ["while true do pcall(function() while true do end end) end",
                     "coroutine.wrap(function() while true do pcall(function() while true do end end) end end)()",
                     "coroutine.wrap(function() while true do coroutine.resume(coroutine.create(function() while true do end end)) end end)()",
                     "pekit.wait{pekit.spawn(function() while true do pcall(coroutine.wrap(function() while true do end end)) end end)}",
                     #"print(("a"):rep(100000):find(("a*"):rep(20) .. "b"))"#] {
            let process = Process()
            process.executableURL = PekitProcess.binary
            process.arguments = ["run", "-e", code]
            let errPipe = Pipe()
            process.standardError = errPipe
            try process.run()
            Thread.sleep(forTimeInterval: 0.5)
            process.interrupt()  // one press
            process.waitUntilExit()
            XCTAssertEqual(String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "pekit: interrupted\n", code)
            XCTAssertEqual(process.terminationStatus, 130, code)
        }
        // A script's own error that says "interrupted" is an ordinary failure.
        let own = try run(["run", "-e", #"error("transfer was interrupted")"#])
        XCTAssertEqual(own.status, 1)
        XCTAssertTrue(own.stderr.hasPrefix("pekit: (command line):1: transfer was interrupted\nstack traceback:"), own.stderr)
    }

    /// `setmetatable(_G, …)` with a failing __newindex must not abort the host when it sets `arg`.
    func testHostileGlobalsMetatable() throws {
        try write("s.lua", "print(arg[0], pekit.encode('a b'))")
        let r = try run(["run", "-e", #"setmetatable(_G, { __newindex = function() error("x") end, __index = function() error("y") end })"#, "s.lua"])
        XCTAssertEqual(r.stdout, "s.lua\ta%20b\n", r.stderr)
        XCTAssertEqual(r.status, 0)
        let l = try run(["run", "-e", #"setmetatable(_G, { __newindex = function() error("x") end })"#, "-l", "string"])
        XCTAssertEqual(l.status, 0, l.stderr)
    }

    func testPluginPathAndPolicyOnTheCommandLine() throws {
        let plugins = directory.appendingPathComponent("myplugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let plugin = plugins.appendingPathComponent("mine.lua")
        try #"return { kind = "policy", description = "mine", allowed = "unreserved" }"#.write(to: plugin, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["encode", "--plugins", plugins.path, "--policy", "mine", "a/b"]).stdout, "a%2Fb\n")
        // Edited: the next run sees the new rule, no rebuild.
        try #"return { kind = "policy", description = "mine", allowed = "/" }"#.write(to: plugin, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["encode", "--policy", "mine", "a/b"], environment: ["PEKIT_PLUGIN_PATH": plugins.path]).stdout, "a/b\n")
        XCTAssertEqual(try run(["run", "--plugins", plugins.path, "-e", "print(pekit.encode('a/b c', 'mine'))"]).stdout, "a/b%20c\n")
        let listed = try run(["plugins", "--plugins", plugins.path])
        let mine = listed.stdout.split(separator: "\n").first { $0.hasPrefix("mine ") }.map(String.init) ?? ""
        XCTAssertTrue(mine.hasSuffix(" policy         mine  [\(plugins.path)/mine.lua]"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("afnetworking"), "the repository's plugins are found beside the binary")
        XCTAssertEqual(listed.status, 0)
        let path = try run(["plugins", "--path", "--plugins", "/x"])
        XCTAssertTrue(path.stdout.hasPrefix("/x\n/"), path.stdout)
        XCTAssertFalse(path.stdout.contains("./plugins"), "a checkout's ./plugins is not trusted by default")
        let unknown = try run(["encode", "--policy", "nope", "a"])
        XCTAssertTrue(unknown.stderr.hasPrefix("pekit encode: unknown policy \"nope\" (no nope.lua on the plugin path: /"), unknown.stderr)
        XCTAssertEqual(unknown.status, 1)
    }

    /// ./plugins comes with whatever directory pekit runs in: used only when the user trusts it.
    func testLocalPluginsNeedTrust() throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("plugins"), withIntermediateDirectories: true)
        try write("plugins/afnetworking.lua", #"return { kind = "policy", description = "shadow", allowed = "unreserved" }"#)
        try write("plugins/local.lua", #"return { kind = "policy", allowed = "/" }"#)
        XCTAssertEqual(try run(["encode", "--policy", "afnetworking", "a/b?"]).stdout, "a/b?\n", "the shipped afnetworking, not the checkout's")
        let refused = try run(["encode", "--policy", "local", "a/b"])
        XCTAssertTrue(refused.stderr.hasSuffix("; ./plugins/local.lua exists but ./plugins is searched only when trusted: use --plugins ./plugins or PEKIT_TRUST_LOCAL_PLUGINS=1 if you trust this directory)\n"), refused.stderr)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(try run(["encode", "--policy", "local", "a/b c"], environment: ["PEKIT_TRUST_LOCAL_PLUGINS": "1"]).stdout, "a/b%20c\n")
        XCTAssertEqual(try run(["encode", "--plugins", "./plugins", "--policy", "afnetworking", "a/b?"]).stdout, "a%2Fb%3F\n")
        let path = try run(["plugins", "--path"], environment: ["PEKIT_TRUST_LOCAL_PLUGINS": "1"])
        XCTAssertTrue(path.stdout.hasPrefix("./plugins\n"), path.stdout)
    }

    func testShippedPoliciesFromTheCommandLine() throws {
        XCTAssertEqual(try run(["encode", "--policy", "afnetworking", "~!@#$%^&*(){}", "/?"]).stdout, "~%21%40%23%24%25%5E%26%2A%28%29%7B%7D\n/?\n")
        XCTAssertEqual(try run(["encode", "--policy", "form", "a b+c"]).stdout, "a+b%2Bc\n")
        XCTAssertEqual(try run(["encode", "--policy", "foundation-query", "a+b&c"]).stdout, "a+b%26c\n")
    }

    /// Tasks a script spawned and never waited for run to their end after it (as an event
    /// loop's would); one that failed with nothing to see it fails the run, with its traceback.
    func testUnwaitedTasksRunAtTheEnd() throws {
        let ran = try PekitProcess.run(["run", "-e", "pekit.spawn(function() pekit.time.sleep(0.05) print('task') end) print('main')"])
        XCTAssertEqual(ran.stdout, "main\ntask\n")
        XCTAssertEqual(ran.status, 0, ran.stderr)
        let failed = try PekitProcess.run(["run", "-e", "pekit.spawn(function() error('late') end) print('main')"])
        XCTAssertEqual(failed.stdout, "main\n")
        XCTAssertTrue(failed.stderr.hasPrefix("pekit: task 1 failed (nothing waited for it): (command line):1: late\nstack traceback:\n"), failed.stderr)
        XCTAssertEqual(failed.status, 1)
        let seen = try PekitProcess.run(["run", "-e", "print(pcall(pekit.wait, pekit.spawn(function() error('seen') end)))"])
        XCTAssertEqual(seen.stdout, "false\t(command line):1: seen\n")
        XCTAssertEqual(seen.status, 0, seen.stderr)
        let stuck = try PekitProcess.run(["run", "-e", "local a, b a = pekit.spawn(function() pekit.wait(b) end) b = pekit.spawn(function() pekit.wait(a) end)"])
        XCTAssertEqual(stuck.stderr, "pekit: the script's tasks cannot finish: every task left waits for another (nothing can go on)\n")
        XCTAssertEqual(stuck.status, 1)
    }
}
