import Foundation
import XCTest
@testable import PekitLua
@testable import PekitTools

/// Plugins and `run --sandbox` are code written by a stranger. Each file of Fixtures/hostile is
/// one attack; its first lines say what the host must answer: `-- expect: MESSAGE` (or `ok` when
/// the attack is contained without an error), and `-- sandbox: MESSAGE|ok|skip` where running it
/// as a sandboxed script differs from replacing "in a plugin" by "in a sandboxed script".
final class ContainmentTests: XCTestCase {
    struct Attack {
        let name: String
        let file: String
        let expect: String
        let sandbox: String?
    }

    static func corpus() throws -> (directory: String, attacks: [Attack]) {
        let directory = try XCTUnwrap(Bundle.module.path(forResource: "hostile", ofType: nil, inDirectory: "Fixtures"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".lua") }.sorted()
        let attacks = try files.map { file -> Attack in
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            let lines = text.split(separator: "\n").map(String.init)
            func header(_ key: String) -> String? {
                lines.first { $0.hasPrefix("-- \(key): ") }.map { String($0.dropFirst(key.count + 5)) }
            }
            return Attack(name: String(file.dropLast(4)), file: directory + "/" + file,
                          expect: try XCTUnwrap(header("expect"), file), sandbox: header("sandbox"))
        }
        return (directory, attacks)
    }

    /// What a script can see of the host: all of it must be the same after every attack.
    static let hostProbe = #"""
    local parts = { pekit.json.encode({ a = 1 }), tostring(pekit.encode ~= nil), tostring(pekit.query ~= nil),
      table.concat(pekit.plugins.path, ","), _host_jar:header("https://www.example.com/"),
      pekit.request{ url = "http://h/x", params = { a = 1 } }:raw(), tostring(("").dump), tostring(string.dump) }
    return table.concat(parts, "|")
    """#

    func testEveryAttackIsRefusedAsAPluginAndTheHostIsUnchanged() throws {
        let (directory, attacks) = try Self.corpus()
        XCTAssertGreaterThanOrEqual(attacks.count, 45)
        var options = LuaRuntime.Options()
        options.extraPluginDirectories = [directory, repoPlugins]
        options.environment = ["HOME": "/nonexistent"]
        options.pluginInstructionBudget = 5_000_000
        options.pluginMemoryLimit = 16 << 20
        // The instruction budget decides here, on any machine: the wall clock has its own test.
        options.pluginTimeLimit = 120
        let runtime = try LuaRuntime(options: options)
        let lua = LuaREPL(runtime: runtime)
        XCTAssertEqual(lua.eval(#"_host_jar = pekit.cookies.jar{ public_suffixes = false }; _host_jar:receive("https://www.example.com/", "sid=host; Secure")"#), "")
        let before = lua.eval("(function() \(Self.hostProbe) end)()")
        XCTAssertTrue(before.contains("sid=host"), before)
        for attack in attacks {
            let answer = lua.eval(#"select(2, pcall(pekit.encode, "x", "\#(attack.name)"))"#)
            let prefix = #""pekit.encode: plugin \"\#(attack.name)\" (\#(attack.file)): "#
            if attack.expect == "ok" {
                XCTAssertEqual(answer, #""x""#, attack.name)
            } else {
                XCTAssertEqual(answer, prefix + Self.luaEscaped(attack.expect) + "\"", attack.name)
            }
            XCTAssertEqual(lua.eval("(function() \(Self.hostProbe) end)()"), before, "host changed by \(attack.name)")
        }
        // The runtime goes on, with its own memory uncapped.
        XCTAssertEqual(lua.eval(#"#string.rep("x", 40 * 1024 * 1024)"#), "41943040")
    }

    func testEveryAttackIsRefusedInTheSandbox() throws {
        let (directory, attacks) = try Self.corpus()
        for attack in attacks where attack.sandbox != "skip" {
            let runtime = try makeRuntime(plugins: [repoPlugins], sandboxed: true)
            var answer = "ok"
            do { try runtime.runScript(path: attack.file, arguments: [String]()) } catch let error as LuaError {
                answer = error.message.replacingOccurrences(of: directory + "/", with: "")
            }
            let expected = attack.sandbox ?? attack.expect.replacingOccurrences(of: "in a plugin", with: "in a sandboxed script")
            if expected == "ok" {
                XCTAssertEqual(answer, "ok", attack.name)
            } else {
                XCTAssertTrue(answer.hasSuffix(expected), "\(attack.name): \(answer)")
            }
        }
    }

    /// Plugins share no table with the host or each other: the host gets a copy each time.
    func testPluginTablesAreCopies() throws {
        let directory = try pluginDirectory(["filter": #"""
            local calls = 0
            return { kind = "cookie-filter", description = "counts",
              match = function(cookie, url) calls = calls + 1; return calls end,
              new = function(options)
                return { options = options, nested = { list = { 1, 2, { deep = pekit.null } }, set = pekit.set{ "a" },
                         order = pekit.ordered{ { "z", 1 }, { "a", 2 } } } }
              end }
            """#])
        let lua = LuaREPL(runtime: try makeRuntime(plugins: [directory]))
        XCTAssertEqual(lua.eval(#"local p = pekit.plugins.load("filter"); p.kind = "changed"; p.description = nil; return pekit.plugins.load("filter").kind, pekit.plugins.load("filter").description"#),
                       "\"cookie-filter\"\t\"counts\"")
        XCTAssertEqual(lua.eval(#"pekit.plugins.load("filter").new({ x = { 1 } })"#),
                       """
                       {
                         nested = {
                           list = { 1, 2, { deep = pekit.null } },
                           order = pekit.ordered{ {"z", 1}, {"a", 2} },
                           set = pekit.set{ "a" }
                         },
                         options = { x = { 1 } }
                       }
                       """)
        // Its functions run in the plugin, with its own state, whichever copy calls them.
        XCTAssertEqual(lua.eval(#"pekit.plugins.load("filter").match({}, {})"#), "1")
        XCTAssertEqual(lua.eval(#"pekit.plugins.load("filter").match({}, {})"#), "2")
        XCTAssertEqual(lua.eval(#"pekit.plugins.load("filter").match(print, {})"#),
                       #"error: stdin:1: plugin "filter" (\#(directory)/filter.lua): plugin "filter".match: argument #1: a function cannot be passed to a plugin (it would run with the caller's rights)"#)
    }

    func testCookieFilterPluginsAreBoundedToo() throws {
        let directory = try pluginDirectory([
            "spin": #"return { kind = "cookie-filter", match = function() while true do end end }"#,
            "grow": #"return { kind = "cookie-filter", new = function(o) local t = {} return { match = function() for i = 1, 1e9 do t[i] = ("x"):rep(100) .. i end end } end }"#,
            "yield": #"return { kind = "cookie-filter", match = function() coroutine.yield() end }"#,
        ])
        let lua = LuaREPL(runtime: try makeLimitedRuntime(plugins: [directory], budget: 2_000_000, memory: 8 << 20))
        func header(_ filter: String) -> String {
            lua.eval(#"select(2, pcall(function() local j = pekit.cookies.jar{ public_suffixes = false, filter = "\#(filter)" }; j:receive("http://x.example/", "a=1"); return j:header("http://x.example/") end))"#)
                .replacingOccurrences(of: directory, with: "DIR")
        }
        XCTAssertEqual(header("spin"), #""stdin:1: jar.header: plugin \"spin\" (DIR/spin.lua): match: instruction budget exceeded (an endless loop?)""#)
        XCTAssertEqual(header("grow"), #""stdin:1: jar.header: plugin \"grow\" (DIR/grow.lua): match: not enough memory (the limit is 8 MB)""#)
        XCTAssertEqual(header("yield"), #""stdin:1: jar.header: plugin \"yield\" (DIR/yield.lua): match: attempt to yield from outside a coroutine""#)
    }

    func testAComparatorThatYieldsIsAnErrorNamingIt() throws {
        let (directory, _) = try Self.corpus()
        let lua = LuaREPL(runtime: try makeRuntime(plugins: [directory]))
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.query.encode, { b = 1, a = 2 }, "order_yields"))"#).replacingOccurrences(of: directory, with: "DIR"),
                       #""pekit.query.encode: plugin \"order_yields\" (DIR/order_yields.lua): order: attempt to yield from outside a coroutine""#)
        XCTAssertEqual(lua.eval(#"coroutine.wrap(function() return select(2, pcall(pekit.query.encode, { b = 1, a = 2 }, { order = function(a, b) coroutine.yield() end })) end)()"#),
                       #""pekit.query.encode: pekit.query.encode: order: attempt to yield across a C-call boundary""#)
    }

    /// `./plugins` in the current directory is code from whoever wrote the checkout.
    func testLocalPluginsAreSearchedOnlyWhenTrusted() throws {
        var options = LuaRuntime.Options()
        options.environment = ["HOME": "/nonexistent"]
        XCTAssertFalse(PluginLoader.defaultPath(options: options).contains("./plugins"))
        options.environment["PEKIT_TRUST_LOCAL_PLUGINS"] = "1"
        XCTAssertTrue(PluginLoader.defaultPath(options: options).contains("./plugins"))
        options.trustLocalPlugins = false
        XCTAssertFalse(PluginLoader.defaultPath(options: options).contains("./plugins"))
    }

    /// Devices and FIFOs are refused before a byte is read: /dev/zero never ends, a FIFO blocks.
    func testDevicesAndFIFOsAreNotRead() throws {
        let directory = try pluginDirectory([:])
        XCTAssertEqual(mkfifo(directory + "/fifo.lua", 0o600), 0)
        let lua = LuaREPL(runtime: try makeRuntime(plugins: [directory]))
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.encode, "x", "fifo"))"#),
                       #""pekit.encode: plugin \"fifo\" (\#(directory)/fifo.lua): not a regular file""#)
        XCTAssertEqual(lua.eval(#"pekit.cookies.jar{ public_suffixes = false }:load("/dev/zero")"#),
                       "error: stdin:1: jar.load: /dev/zero: not a regular file (a device, pipe or directory cannot be a cookie jar)")
        XCTAssertEqual(lua.eval(#"pekit.cookies.jar{ public_suffixes = false }:load("\#(directory)/fifo.lua")"#),
                       "error: stdin:1: jar.load: \(directory)/fifo.lua: not a regular file (a device, pipe or directory cannot be a cookie jar)")
    }

    static func luaEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
