import CLua
import CLuaShim
import PekitCore
import XCTest
@testable import PekitLua
@testable import PekitTools

/// The state's allocator (small blocks from size classes, the rest from malloc): Lua data of
/// every size keeps its contents through growing, shrinking and collection, and the memory the
/// cap is checked against is exactly what Lua itself counts.
final class AllocatorTests: XCTestCase {
    /// Lua's own count of the bytes it holds (`collectgarbage("count")` without the rounding).
    private func luaCount(_ L: OpaquePointer) -> Int { Int(pekit_gc_bytes(L)) }

    func testDataOfEverySizeSurvivesGrowingShrinkingAndCollecting() throws {
        let runtime = try makeRuntime()
        let lua = LuaREPL(runtime: runtime)
        // Strings of 1 to 700 bytes (across every size class and past the largest), tables grown
        // an element at a time (their parts move from class to class, then to malloc) and
        // emptied again, all checked after two full collections freed what was dropped between.
        let script = #"""
        local strings, tables = {}, {}
        for n = 1, 700 do
          strings[n] = string.rep(string.char(65 + n % 26), n - #tostring(n)) .. n
          local t = {}
          for i = 1, n % 300 do t[i] = i * n; t["k" .. i] = n end
          tables[n] = t
          local garbage = { string.rep("g", n), {} }
        end
        for n = 1, 700, 3 do
          local t = tables[n]
          for i = 1, n % 300 do t["k" .. i] = nil end
          t.after = "shrunk " .. n
        end
        collectgarbage() collectgarbage()
        local bad = {}
        for n = 1, 700 do
          local s = strings[n]
          if #s ~= n or s:sub(-#tostring(n)) ~= tostring(n) or s:sub(1, 1) ~= (n - #tostring(n) > 0 and string.char(65 + n % 26) or tostring(n):sub(1, 1)) then bad[#bad + 1] = "string " .. n end
          local t = tables[n]
          for i = 1, n % 300 do
            if t[i] ~= i * n then bad[#bad + 1] = "table " .. n .. "[" .. i .. "]" break end
            if n % 3 ~= 1 and t["k" .. i] ~= n then bad[#bad + 1] = "table " .. n .. ".k" .. i break end
          end
          if n % 3 == 1 and t.after ~= "shrunk " .. n then bad[#bad + 1] = "table " .. n .. ".after" end
        end
        return table.concat(bad, ", "), #strings
        """#
        XCTAssertEqual(lua.eval(script), "\"\"\t700")
        // The allocator's count (what the cap is checked against) is Lua's, to the byte.
        XCTAssertEqual(Int(pekit_memory_used(runtime.mainState)), luaCount(runtime.mainState))
        _ = lua.eval("collectgarbage() collectgarbage()")
        XCTAssertEqual(Int(pekit_memory_used(runtime.mainState)), luaCount(runtime.mainState))
    }

    func testMemoryGivenBackIsUsedAgain() throws {
        let runtime = try makeRuntime()
        let lua = LuaREPL(runtime: runtime)
        // The same churn again and again must not keep growing the heap: freed blocks come back.
        let churn = #"for round = 1, 20000 do local t = { ("x"):rep(round % 200), {}, round } end collectgarbage() collectgarbage() return true"#
        XCTAssertEqual(lua.eval(churn), "true")
        let after = luaCount(runtime.mainState)
        for _ in 0..<5 { XCTAssertEqual(lua.eval(churn), "true") }
        XCTAssertLessThan(luaCount(runtime.mainState), after + 64 * 1024)
        XCTAssertEqual(Int(pekit_memory_used(runtime.mainState)), luaCount(runtime.mainState))
    }
}

/// Strings the host writes where Lua keeps them (`pekit_room_begin`/`pekit_room_push`): Lua's
/// string object is measured, a large string takes the block it was written in, a small one
/// or one written elsewhere is copied, and the count the cap is checked against stays Lua's.
final class WrittenStringTests: XCTestCase {
    private func luaCount(_ L: OpaquePointer) -> Int { Int(pekit_gc_bytes(L)) }

    func testLuaStringLayoutIsMeasured() throws {
        let runtime = try makeRuntime()
        // Lua 5.4 on a 64-bit machine: CommonHeader, extra, shrlen, hash and the length come first.
        XCTAssertEqual(pekit_string_header(runtime.mainState), 24)
    }

    func testLargeStringsTakeTheirBlockAndSmallOnesAreCopied() throws {
        let runtime = try makeRuntime()
        let L = runtime.mainState
        for length in [0, 1, 40, 41, 255, 256, 257, 300, 4096, 100_000] {
            let capacity = max(length, 1) * 3
            let room = pekit_room_begin(L, capacity)
            XCTAssertEqual(room == nil, capacity <= 256, "capacity \(capacity)")
            let written = room ?? UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
            for i in 0..<length { written[i] = CChar(UInt8(ascii: "a") + UInt8(i % 26)) }
            pekit_room_push(L, written, length)
            if room == nil { written.deallocate() }
            var count = 0
            let text = lua_tolstring(L, -1, &count)
            XCTAssertEqual(count, length)
            // The block is the string's when it is over the pool's largest size.
            XCTAssertEqual(UnsafeRawPointer(text) == UnsafeRawPointer(written), room != nil && length > 256, "length \(length)")
            let bytes = (0..<count).map { UInt8(bitPattern: text![$0]) }
            XCTAssertEqual(bytes, (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) })
            lua_settop(L, 0)
            XCTAssertEqual(Int(pekit_memory_used(L)), luaCount(L), "length \(length)")
        }
        // Room given up without a push is freed by the next one (and by closing the state).
        XCTAssertNotNil(pekit_room_begin(L, 10_000))
        let room = try XCTUnwrap(pekit_room_begin(L, 20_000))
        pekit_room_push(L, room, 5_000)
        lua_settop(L, 0)
        _ = LuaREPL(runtime: runtime).eval("collectgarbage() collectgarbage()")
        XCTAssertEqual(Int(pekit_memory_used(L)), luaCount(L))
    }

    func testEncodedStringsOfEverySizeMatchTheSwiftEncoder() throws {
        let runtime = try makeRuntime()
        let lua = LuaREPL(runtime: runtime)
        // Lengths around the pool's largest block and the short-string limit, and a large one,
        // of text whose encoding grows it (spaces, CJK) and of text that is copied as it is.
        let script = #"""
        local out = {}
        for _, n in ipairs({ 0, 1, 13, 14, 40, 80, 85, 86, 90, 255, 256, 257, 1000, 300000 }) do
          local mixed = ("a b/汉"):rep(n // 8 + 1):sub(1, n)
          local plain = ("abc-_.~"):rep(n // 7 + 1):sub(1, n)
          out[#out + 1] = pekit.encode(mixed) .. "|" .. pekit.encode(plain)
        end
        collectgarbage() collectgarbage()
        local got = table.concat(out, "\n")
        if got == expected then return true end
        for i = 1, #got do if got:byte(i) ~= expected:byte(i) then return #got, #expected, i end end
        return #got, #expected
        """#
        let encoder = PercentEncoder(allowed: .unreserved)
        let expected = [0, 1, 13, 14, 40, 80, 85, 86, 90, 255, 256, 257, 1000, 300_000].map { n -> String in
            let mixed = Array(Array(String(repeating: "a b/汉", count: n / 8 + 1).utf8).prefix(n))
            let plain = Array(Array(String(repeating: "abc-_.~", count: n / 7 + 1).utf8).prefix(n))
            return String(decoding: encoder.encode(bytes: mixed) + Array("|".utf8) + encoder.encode(bytes: plain), as: UTF8.self)
        }.joined(separator: "\n")
        runtime.stack.push(expected)
        lua_setglobal(runtime.mainState, "expected")
        XCTAssertEqual(lua.eval(script), "true")
        XCTAssertEqual(Int(pekit_memory_used(runtime.mainState)), luaCount(runtime.mainState))
    }
}
