import CLua
import CLuaShim
import PekitCore
import PekitHTTP
import XCTest
@testable import PekitLua
@testable import PekitTools

/// A load script's tables read the quick way (`LoadRequestReader`: a table shaped as the one
/// before it made from that one's `RequestTemplate`) held to the general reading of an item
/// (`HTTPModule.batchItem`): on runs of random tables of one shape and then another (URLs with
/// credentials, a space, bytes that are not UTF-8 or no host; methods in lower case or not
/// tokens; fields alike but for case, `Host`, framing fields, `false`, values with CR LF, empty
/// or not UTF-8; `follow`; a field of another kind), the same request, head and send options,
/// or the same error.
final class LoadRequestReaderTests: XCTestCase {
    func testATableShapedAsTheOneBeforeIsMadeAsTheGeneralReadingMakesIt() throws {
        let runtime = try makeRuntime()
        let lua = LuaREPL(runtime: runtime)
        let script = #"""
        -- Mostly what a script sends; now and then what no build takes.
        local urls = { "http://127.0.0.1:8080/ok", "http://127.0.0.1:8080/ok", "http://h/p?q=1#f", "http://u:p@h/", "http://[::1]/x y",
                       "HTTP://H:80/a/../b", "http://h/\255", "nope" }
        local methods = { false, false, false, "GET", "post", "HEAD", "PUT", "BAD METHOD" }
        local names = { "X-Request", "X-Request", "x-request", "X-Id", "Host", "User-Agent", "Accept", "Authorization", "Cookie", "Expect",
                        "Content-Type", "Content-Length", "Transfer-Encoding", "X-\255", "bad name" }
        local values = { "1", "two words", "", "\255\254", "a\r\nb", ("v"):rep(70), " padded ", "chunked", "0" }
        local seed = 4242
        local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n + 1 end
        local list = {}
        for shape = 1, 120 do
          local url, method, follow = urls[rand(#urls)], methods[rand(#methods)], ({ nil, true, false })[rand(3)]
          local fields, removed = {}, {}
          for _ = 1, rand(4) - 1 do
            local name = names[rand(#names)]
            fields[#fields + 1] = name
            removed[name] = rand(8) == 1
          end
          local other = rand(10) == 1
          for _ = 1, 2 + rand(10) do
            local t = { url = url, follow = follow }
            if method then t.method = method end
            if other then t.timeout = 5 end
            local headers = {}
            for _, name in ipairs(fields) do
              if removed[name] then headers[name] = false
              elseif rand(20) == 1 then headers[name] = 7
              else headers[name] = (rand(4) == 1) and values[rand(#values)] or tostring(rand(100000)) end
            end
            if #fields > 0 or rand(2) == 1 then t.headers = headers end
            list[#list + 1] = t
          end
        end
        tables = list
        return #list
        """#
        let count = Int(lua.eval("(function() \(script) end)()")) ?? 0
        XCTAssertGreaterThan(count, 300)
        let tally = LoadReadingDifferential.run(runtime, global: "tables")
        XCTAssertEqual(tally.tables, count)
        XCTAssertEqual(tally.differences, [])
        // Most tables follow one of their shape: the quick reading was taken, not only the general.
        XCTAssertGreaterThan(tally.fromTemplate, count / 8, "tables made from a template")
        XCTAssertGreaterThan(tally.refused, count / 20, "tables both readings refuse")
    }

    /// A script's function as BENCHMARKS.md runs it: every table after the second from the
    /// template (the second makes it); a URL that differs each time never makes one.
    func testACounterInAFieldIsMadeFromTheTemplate() throws {
        let runtime = try makeRuntime()
        let stack = runtime.stack
        let call = LuaCall(stack: stack, name: "pekit.http.load", runtime: runtime, count: 0)
        let reader = LoadRequestReader()
        /// The table the Lua expression makes, as the reader reads it.
        func read(_ table: String) throws -> (PekitRequest, SendOptions) {
            XCTAssertEqual(LuaREPL(runtime: runtime).eval("t = \(table)"), "")
            pekit_pushglobaltable(runtime.L)
            _ = stack.rawGet(stack.top, "t")
            defer { stack.pop(2) }
            return try reader.item(at: stack.top, call)
        }
        var heads: [String] = []
        for n in 1...4 {
            let (request, options) = try read("{ url = 'http://127.0.0.1:9/ok', headers = { ['X-Request'] = tostring(\(n)) } }")
            XCTAssertEqual(request.madeHead != nil, n > 2)
            XCTAssertTrue(options.followRedirects)
            heads.append(String(decoding: request.head(), as: UTF8.self))
        }
        XCTAssertEqual(heads, (1...4).map { "GET /ok HTTP/1.1\r\nHost: 127.0.0.1:9\r\nUser-Agent: \(RequestBuilder.userAgent)\r\nAccept: */*\r\nX-Request: \($0)\r\n\r\n" })
        // Each URL its own: every table built, as without templates.
        for n in 1...3 {
            let (request, _) = try read("{ url = 'http://127.0.0.1:9/item/\(n)', headers = { ['X-Request'] = '1' } }")
            XCTAssertNil(request.madeHead)
            XCTAssertTrue(String(decoding: request.head(), as: UTF8.self).hasPrefix("GET /item/\(n) HTTP/1.1\r\n"))
        }
    }
}
