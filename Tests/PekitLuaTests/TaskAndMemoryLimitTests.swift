import Foundation
import PekitCore
import XCTest
@testable import PekitLua
@testable import PekitTools

/// The fourth hardening round's Lua items (issue 41): a task's result read after its handle was
/// collected, every pekit function at a nearly full stack, and work in Swift that a short input
/// makes huge, charged to the state's memory cap while it grows.
final class TaskAndMemoryLimitTests: XCTestCase {
    /// `pekit.wait(pekit.spawn(f, k - 1))` nested: each waiting coroutine drops its handle, so
    /// the collector could release a finished task's result before its waiter read it (a
    /// SIGSEGV from 40 deep). Every depth gives the result, sandboxed or not, with a full
    /// collection at every level.
    func testNestedWaitsAtAnyDepth() throws {
        for sandboxed in [false, true] {
            let lua = LuaREPL(runtime: try makeRuntime(sandboxed: sandboxed))
            XCTAssertEqual(lua.eval(#"""
                -- A sandbox has no collectgarbage: garbage enough makes the collector run.
                local gc = collectgarbage or function() for i = 1, 3000 do local _ = {i} end end
                local function f(k)
                  if k == 0 then return "leaf", k end
                  local t = pekit.spawn(f, k - 1)
                  gc()
                  local a, b = pekit.wait(t)
                  gc()
                  return a, b + 1
                end
                local list = {}
                for i = 1, 3 do list[i] = pekit.spawn(f, 200) end
                local firsts = pekit.wait(list)
                gc()
                local a, b = pekit.wait(pekit.spawn(f, 300))
                return a, b, firsts[1], firsts[3]
                """#), "\"leaf\"\t300\t\"leaf\"\t\"leaf\"", "sandboxed: \(sandboxed)")
        }
    }

    /// A task whose handle is gone and that nobody waits for still lets its result go (20,000
    /// of them leave no entries behind), and one that failed unseen is still reported.
    func testOrphanedTasksAreReleased() throws {
        let runtime = try makeRuntime()
        let lua = LuaREPL(runtime: runtime)
        XCTAssertEqual(lua.eval(#"""
            for i = 1, 20000 do pekit.spawn(function() return i end) end
            pekit.wait()
            collectgarbage(); collectgarbage()
            """#), "")
        XCTAssertEqual(runtime.tasks.tasks.count, 0)
        XCTAssertEqual(runtime.tasks.unfinished, 0)
        XCTAssertEqual(lua.eval(#"""
            local t = {}
            for i = 1, 80000 do t[i] = pekit.spawn(function() return i * 2 end) end
            local r = pekit.wait(t)
            return #r, r[1], r[80000]
            """#), "80000\t2\t160000")
        // A wait asks about each task a bounded number of times: linear, not tasks × steps
        // (it asked every task after every step before: 80,000 tasks took over 5 s).
        XCTAssertLessThan(runtime.tasks.inspections, 3 * 80_000)
    }

    /// Every pekit function called with the stack nearly full (Lua's limit of a million slots,
    /// a few short): a result or a Lua error ("stack overflow" when the trampoline cannot make
    /// the room every Swift function may use), never a crash.
    func testEveryFunctionAtANearlyFullStack() throws {
        for sandboxed in [false, true] {
            let lua = LuaREPL(runtime: try makeRuntime(sandboxed: sandboxed))
            let result = lua.eval(#"""
                local names = {}
                local function collect(t, prefix, depth)
                  for k, v in pairs(t) do
                    if type(v) == "function" then names[#names + 1] = prefix .. k
                    elseif type(v) == "table" and depth < 2 and type(k) == "string" then collect(v, prefix .. k .. ".", depth + 1) end
                  end
                end
                collect(pekit, "pekit.", 0)
                table.sort(names)
                local functions = {}
                for _, name in ipairs(names) do
                  if name ~= "pekit.exit" then
                    local f = pekit
                    for part in name:gmatch("[^.]+", 7) do f = f[part] end
                    functions[#functions + 1] = f
                  end
                end
                local args = {}
                for i = 1, 1000000 do args[i] = "x" end
                -- Each call is made from a frame whose varargs fill the stack to `n` slots.
                local overflow, called = 0, 0
                local function at(n, ...)
                  for _, f in ipairs(functions) do
                    for _, a in ipairs({{}, {"x"}, {"x", {}}, {{}, "x", 1}}) do
                      local ok, err = pcall(f, table.unpack(a))
                      called = called + 1
                      if not ok and tostring(err):find("stack overflow (calling a pekit function)", 1, true) then overflow = overflow + 1 end
                    end
                  end
                  return true
                end
                local lo, hi = 1, 1000000
                while lo < hi do
                  local mid = (lo + hi + 1) // 2
                  if pcall(function() return (function(...) return true end)(table.unpack(args, 1, mid)) end) then lo = mid else hi = mid - 1 end
                end
                for d = 20, 140, 8 do pcall(function() return at(0, table.unpack(args, 1, lo - d)) end) end
                return #names > 50, called >= #functions * 4 * 8, overflow > 0
                """#)
            XCTAssertEqual(result, "true\ttrue\ttrue", "sandboxed: \(sandboxed)")
        }
    }

    /// A plugin capped at 8 MB: inputs of a few kilobytes that would make gigabytes in Swift or
    /// in tables built from Swift (qs sparse lists a million long, on the direct path and on
    /// qs's own algorithm; one long string or key written once per item; a string whose encoding is three times its size) stop at the cap with
    /// the memory error, and the process stays small.
    func testSwiftWorkIsChargedToThePluginsCap() throws {
        let directory = try pluginDirectory([
            "greedy": #"""
                local parts = {}
                for i = 1, 300 do parts[#parts + 1] = "k" .. i .. "[1048575]=x" end
                local q = table.concat(parts, "&")
                local s = string.rep("x", 100000)
                local shared = {}
                for i = 1, 2000 do shared[i] = s end
                local many = {}
                for i = 1, 20000 do many[i] = 1 end
                local attacks = {
                  function() return pekit.query.decode(q, {server = "qs", arrayLimit = 1048576, allowSparse = true}) end,
                  function() return pekit.query.decode(q, {server = "qs", arrayLimit = 1048576, allowSparse = true, comma = true}) end,
                  function() return pekit.query.decode(q, {server = "qs", arrayLimit = 1048576, allowSparse = true, ordered = true}) end,
                  function() return pekit.query.encode({a = shared}) end,
                  function() return pekit.json.encode(shared) end,
                  function() return pekit.query.encode({[string.rep("k", 10000)] = many}, {arrays = "indices"}) end,
                  function() return pekit.query.pairs({[string.rep("k", 10000)] = many}) end,
                  function() return pekit.encode(string.rep("\230", 3000000)) end,
                }
                return {
                  name = "greedy", kind = "policy",
                  order = function(a, b)
                    local out = {}
                    for i, attack in ipairs(attacks) do
                      local ok, err = pcall(attack)
                      out[i] = ok and "ok" or tostring(err):match("(pekit%.[%w.]+: not enough memory)") or tostring(err)
                    end
                    error(table.concat(out, "|"))
                  end,
                }
                """#,
        ])
        let lua = LuaREPL(runtime: try makeLimitedRuntime(plugins: [directory], budget: 1_000_000_000, memory: 8 << 20))
        let result = lua.eval(#"return (select(2, pcall(pekit.query.encode, {b = 1, a = 2}, "greedy"))):sub(-300)"#)
        let expected = ["pekit.query.decode", "pekit.query.decode", "pekit.query.decode", "pekit.query.encode", "pekit.json.encode",
                        "pekit.query.encode", "pekit.query.pairs", "pekit.encode"].map { "\($0): not enough memory" }.joined(separator: "|")
        XCTAssertTrue(result.hasSuffix(expected + "\""), result)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        XCTAssertLessThan(usage.ru_maxrss, 2 << 20, "peak resident set in KiB")
    }

    /// The same calls from Swift's own API, with no budget set, are not stopped (the budget is
    /// the Lua host's, not PekitCore's).
    func testNoBudgetOutsideLua() throws {
        XCTAssertTrue(MemoryBudget.allows(Int.max))
    }
}
