import Foundation
import PekitTestSupport
import XCTest
@testable import PekitLua
@testable import PekitTools

/// pekit's modules are installed the first time a script reads one of their fields
/// (`PekitModule`): a state starts with the top level only, each module works when it is the
/// first one touched, and what a module makes for another is there when that one needs it.
final class LazyModuleTests: XCTestCase {
    /// Every field of `pekit`, as a script sees them all (`pairs`).
    static let everyField = "array charset cookies crypto decode encode har histogram http inspect json jwt null ordered plugins policy query regex request set sign spawn text time url version wait xml"

    func fresh(sandboxed: Bool = false) throws -> LuaREPL { LuaREPL(runtime: try makeRuntime(sandboxed: sandboxed)) }

    func testAStateStartsWithTheTopLevelOnly() throws {
        let lua = try fresh()
        let moduleFields = PekitModule.modules.flatMap { $0.fields }
        let list = moduleFields.map { "\"\($0)\"" }.joined(separator: ", ")
        XCTAssertEqual(lua.eval("(function() local t = {} for _, f in ipairs{\(list)} do if rawget(pekit, f) ~= nil then t[#t + 1] = f end end return table.concat(t, \" \") end)()"), #""""#)
        XCTAssertEqual(lua.eval(#"(function() local t = {} for k in next, pekit do t[#t + 1] = k end table.sort(t) return table.concat(t, " ") end)()"#),
                       #""array decode encode inspect null ordered set version""#)
        XCTAssertEqual(lua.eval("pekit.nope == nil and pekit[1] == nil and pekit[pekit] == nil"), "true")
    }

    func testEveryModuleWorksWhenItIsTheFirstOneRead() throws {
        for module in PekitModule.modules {
            for field in module.fields {
                let lua = try fresh()
                let expected = ["spawn", "wait", "histogram"].contains(field) ? "function" : "table"
                XCTAssertEqual(lua.eval("type(pekit.\(field))"), "\"\(expected)\"", field)
                XCTAssertEqual(lua.eval("rawget(pekit, \"\(field)\") == pekit.\(field)"), "true", field)
                // Its requirements are installed with it, nothing else.
                let kept = [module] + module.requires
                let others = PekitModule.modules.filter { other in !kept.contains { ObjectIdentifier($0) == ObjectIdentifier(other) } }
                let list = others.flatMap { $0.fields }.map { "\"\($0)\"" }.joined(separator: ", ")
                XCTAssertEqual(lua.eval("(function() local t = {} for _, f in ipairs{\(list)} do if rawget(pekit, f) ~= nil then t[#t + 1] = f end end return table.concat(t, \" \") end)()"), #""""#, field)
            }
        }
    }

    func testPairsInstallsEveryModuleFirst() throws {
        let lua = try fresh()
        XCTAssertEqual(lua.eval(#"(function() local t = {} for k in pairs(pekit) do t[#t + 1] = k end table.sort(t) return table.concat(t, " ") end)()"#),
                       "\"\(Self.everyField)\"")
        // Every field is now there without the loader.
        XCTAssertEqual(lua.eval(#"(function() local n = 0 for k in next, pekit do n = n + 1 end return n end)()"#), "28")
    }

    /// `pairs(pekit)` walks with cookie_list.c's `next` (pekit_push_next): held to Lua's own `next`
    /// on the same tables, every step, in order.
    func testPairsWalksAsNextDoes() throws {
        let lua = try fresh()
        XCTAssertEqual(lua.eval("""
            (function()
              local a = {} for k, v in pairs(pekit) do a[#a + 1] = { k, v } end
              local i = 0
              for k, v in next, pekit do
                i = i + 1
                if a[i] == nil or a[i][1] ~= k or not rawequal(a[i][2], v) then return "differs at " .. i end
              end
              return i == #a and i or "lengths differ"
            end)()
            """), "28")
        // The walker itself, on tables of every shape: integer keys with holes, strings, floats,
        // booleans, tables as keys, keys removed while walking.
        XCTAssertEqual(lua.eval("""
            (function()
              local walk = pairs(pekit)
              local seed = 47
              local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n end
              for round = 1, 300 do
                local t = {}
                for j = 1, rand(40) do
                  local kind = rand(5)
                  local key = kind == 0 and rand(64) + 1 or kind == 1 and ("k" .. rand(50)) or kind == 2 and rand(100) / 4
                    or kind == 3 and (rand(2) == 0) or {}
                  t[key] = j
                end
                local k1, k2 = nil, nil
                repeat
                  local a1, v1 = walk(t, k1)
                  local a2, v2 = next(t, k2)
                  if not rawequal(a1, a2) or v1 ~= v2 then return "round " .. round .. " differs" end
                  if a1 ~= nil and rand(4) == 0 then t[a1] = nil end
                  k1, k2 = a1, a2
                until a1 == nil
              end
              local ok1, e1 = pcall(walk, 1)
              local ok2, e2 = pcall(next, 1)
              -- Both refuse a non-table (the global next is the prelude's, which names its line).
              return tostring(ok1 == ok2) .. " " .. e1 .. " | " .. e2
            end)()
            """), #""true bad argument #1 to '?' (table expected, got number) | pekit.prelude:143: bad argument #1 to 'next' (table expected, got number)""#)
    }

    func testTheLoaderCannotBeTakenAway() throws {
        let lua = try fresh()
        XCTAssertEqual(lua.eval("getmetatable(pekit)"), #""pekit""#)
        XCTAssertEqual(lua.eval("select(2, pcall(setmetatable, pekit, nil))"), #""cannot change a protected metatable""#)
        XCTAssertEqual(lua.eval(#"pekit.query.encode({ a = "b c" })"#), #""a=b%20c""#)
    }

    func testWhatAModuleMakesForAnotherIsThere() throws {
        // pekit.har.load makes request handles: the request module comes with it.
        let har = try makeTemporaryDirectory("har").appendingPathComponent("one.har")
        try #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[{"startedDateTime":"2024-01-01T00:00:00Z","time":0,"request":{"method":"POST","url":"https://example.com/a?b=1","httpVersion":"HTTP/1.1","headers":[{"name":"Content-Type","value":"text/plain"}],"queryString":[],"cookies":[],"postData":{"mimeType":"text/plain","text":"hi"},"headersSize":-1,"bodySize":2},"response":{"status":201,"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":0,"mimeType":"text/plain"},"redirectURL":"","headersSize":-1,"bodySize":0},"cache":{},"timings":{"send":0,"wait":0,"receive":0}}]}}"#
            .write(to: har, atomically: true, encoding: .utf8)
        var lua = try fresh()
        XCTAssertEqual(lua.eval(#"(function() local r, s = pekit.har.load("\#(har.path)") return r[1].method .. " " .. r[1].url .. " " .. s[1] end)()"#),
                       #""POST https://example.com/a?b=1 201""#)
        // A policy's allowed set is a charset before pekit.charset was read.
        lua = try fresh()
        XCTAssertEqual(lua.eval(#"tostring(pekit.policy.get("rfc3986").allowed)"#),
                       #""charset(\"-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~\")""#)
        XCTAssertEqual(lua.eval(#"pekit.policy.get("rfc3986").allowed + "/""#).contains("charset(\"-./0123"), true)
        // A plugin's policy named to pekit.encode: the plugin path is there before pekit.plugins was read.
        lua = try fresh()
        XCTAssertEqual(lua.eval(#"pekit.encode("a b&c", "afnetworking")"#), #""a%20b%26c""#)
        XCTAssertEqual(lua.eval(#"rawget(pekit, "plugins") ~= nil"#), "true")
    }

    func testSandboxedStatesInstallOnFirstUseToo() throws {
        let lua = try fresh(sandboxed: true)
        XCTAssertEqual(lua.eval(#"rawget(pekit, "query")"#), "nil")
        XCTAssertEqual(lua.eval(#"pekit.query.encode({ a = { 1, 2 } }, "qs")"#), #""a%5B0%5D=1&a%5B1%5D=2""#)
        XCTAssertEqual(lua.eval(#"pekit.url.parse("HTTP://EXAMPLE.com/a/../b").href"#), #""http://example.com/b""#)
    }
}
