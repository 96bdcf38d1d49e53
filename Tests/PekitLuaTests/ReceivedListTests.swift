import XCTest
@testable import PekitLua
@testable import PekitTools

/// jar:receive's `stored` list makes its cookie tables on its first read (cookie_list.c): every
/// way a script or the host can read a table sees the same list as one already read.
final class ReceivedListTests: XCTestCase {
    /// Ways of reading a list, each as a Lua function of the list giving one line of what it saw.
    static let readers: [String] = [
        "function(s) return pekit.inspect(s) end",
        "function(s) return pekit.json.encode(s) end",
        "function(s) return #s .. ' ' .. s[1].name .. ' ' .. s[2].same_site end",
        "function(s) local out = {} for i, c in ipairs(s) do out[i] = c.name end return table.concat(out, ',') end",
        "function(s) local n = 0 for _, c in pairs(s) do n = n + #c.value end return n end",
        "function(s) local k, c = next(s) return tostring(k) .. ' ' .. c.name end",
        "function(s) local n = 0 for k in next, s do n = n + k end return n end",
        "function(s) return rawlen(s) .. ' ' .. rawget(s, 2).name end",
        "function(s) rawset(s, 3, 'x') return #s .. ' ' .. s[1].name end",
        "function(s) return tostring(getmetatable(s)) .. ' ' .. #s end",
        "function(s) setmetatable(s, { __index = function() return 'dflt' end }) return s[1].name .. ' ' .. s[7] end",
        "function(s) s[3] = 'mine' return #s .. ' ' .. s[1].name .. ' ' .. s[3] end",
        "function(s) return tostring(s.missing) .. ' ' .. #s end",
        "function(s) table.insert(s, 1, 'first') return #s .. ' ' .. s[2].name end",
        "function(s) return select('#', table.unpack(s)) end",
        "function(s) return #table.move(s, 1, 2, 1, {}) end",
        "function(s) return pekit.json.encode(pekit.array(s)) end",
        "function(s) return pekit.inspect(pekit.plugins.load('echo').match(s)) end",
        "function(s) return pekit.query.encode({ c = s }) end",
    ]

    func testEveryReaderSeesTheStoredCookies() throws {
        let plugins = try pluginDirectory(["echo": #"return { kind = "cookie-filter", match = function(x) return x end }"#])
        for sandboxed in [false, true] {
            let lua = LuaREPL(runtime: try makeRuntime(plugins: [plugins], sandboxed: sandboxed))
            XCTAssertEqual(lua.eval(#"""
                function fresh()
                  local jar = pekit.cookies.jar{ public_suffixes = false }
                  jar:clock(1700000000)
                  return jar:receive("https://www.example.com/a/", { "sid=abc; Path=/; Secure; SameSite=Lax", "t=12; Max-Age=60; SameSite=Strict", "=" }).stored
                end
                function read() local s = fresh(); local _ = #s; return s end
                """#.replacingOccurrences(of: "\n", with: " ")), "")
            for (i, reader) in Self.readers.enumerated() {
                let unread = lua.eval("(\(reader))(fresh())"), read = lua.eval("(\(reader))(read())")
                XCTAssertEqual(unread, read, "reader \(i) (sandboxed: \(sandboxed)): \(reader)")
                XCTAssertFalse(unread.hasPrefix("error"), "reader \(i): \(unread)")
            }
            // What they saw, in bytes: the two cookies and their fields.
            XCTAssertEqual(lua.eval("(\(Self.readers[2]))(fresh())"), #""2 sid Strict""#)
            XCTAssertEqual(lua.eval("pekit.json.encode(fresh()[1])"),
                           #""{\"creation\":1700000000.0,\"domain\":\"www.example.com\",\"host_only\":true,\"http_only\":false,\"last_access\":1700000000.0,\"name\":\"sid\",\"partitioned\":false,\"path\":\"/\",\"same_site\":\"Lax\",\"secure\":true,\"value\":\"abc\"}""#)
            // The jar keeps its times apart (the second store a step later), as it always has.
            XCTAssertEqual(lua.eval("pekit.json.encode(fresh()[2])"),
                           #""{\"creation\":1700000000.0000002,\"domain\":\"www.example.com\",\"expires\":1700000060.0000002,\"host_only\":true,\"http_only\":false,\"last_access\":1700000000.0000002,\"name\":\"t\",\"partitioned\":false,\"path\":\"/a\",\"same_site\":\"Strict\",\"secure\":false,\"value\":\"12\"}""#)
            XCTAssertEqual(lua.eval("(\(Self.readers[10]))(fresh())"), #""sid dflt""#)
            // Nothing stored: an empty plain table.
            XCTAssertEqual(lua.eval(#"local s = pekit.cookies.jar{ public_suffixes = false }:receive("https://www.example.com/", "=").stored return #s, next(s), getmetatable(s)"#), "0\tnil\tnil")
        }
    }

    /// A list never read holds nothing once it is garbage: 20,000 results dropped leave the
    /// state's memory as it was.
    func testUnreadListsAreCollected() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"""
            jar = pekit.cookies.jar{ public_suffixes = false }
            collectgarbage() collectgarbage()
            local before = collectgarbage("count")
            for i = 1, 20000 do jar:receive("https://www.example.com/", { "c" .. (i % 40) .. "=" .. i, "d=1" }) end
            collectgarbage() collectgarbage()
            return collectgarbage("count") - before < 64, #jar
            """#.replacingOccurrences(of: "\n", with: " ")), "true\t41")
    }

    /// A filter that receives into another jar while a receive runs (its own list, its own
    /// records): each list holds its own cookies.
    func testAReceiveInsideAFilterKeepsItsOwnList() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"""
            other = pekit.cookies.jar{ public_suffixes = false }
            jar = pekit.cookies.jar{ public_suffixes = false, filter = { accept = function(c)
              inner = other:receive("https://x.example/", { "in1=1", "in2=2", "in3=3" }).stored
              return true end } }
            local s = jar:receive("https://www.example.com/", { "a=1", "b=2" }).stored
            return #s, s[1].name, s[2].name, s[2].domain, #inner, inner[3].name
            """#.replacingOccurrences(of: "\n", with: " ")), #"2\#t"a"\#t"b"\#t"www.example.com"\#t3\#t"in3""#)
    }

    /// A list keeps what the jar stored then, whatever the jar does later.
    func testAListIsWhatWasStoredThen() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"jar = pekit.cookies.jar{ public_suffixes = false } jar:clock(1700000000) s = jar:receive("https://www.example.com/", { "a=1", "a=2" }).stored"#), "")
        XCTAssertEqual(lua.eval(#"jar:receive("https://www.example.com/", "a=3") jar:delete("https://www.example.com/")"#), "")
        XCTAssertEqual(lua.eval("#jar, #s, s[1].value, s[2].value"), #"0\#t2\#t"1"\#t"2""#)
    }
}
