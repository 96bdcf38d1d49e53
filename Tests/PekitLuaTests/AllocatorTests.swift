import CLua
import CLuaShim
import XCTest
@testable import PekitLua

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
