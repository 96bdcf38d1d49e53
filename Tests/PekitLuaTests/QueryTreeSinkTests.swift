import XCTest
import PekitCore
@testable import PekitLua
@testable import PekitTools

/// `pekit.query.decode` builds qs's result as Lua tables straight from the parser's tree; the
/// tables must be exactly those pushing the parsed `PekitValue` makes.
final class QueryTreeSinkTests: XCTestCase {
    func testTablesFromTheTreeEqualTablesFromTheValue() throws {
        let runtime = try makeRuntime()
        func read(_ push: () throws -> Void) throws -> PekitValue {
            try push()
            defer { runtime.stack.pop() }
            return try runtime.value(at: -1, path: "result")
        }
        var queries = ["", "a=1", "a[]=1&a[]=2", "a[1]=x&a[5]=y", "a[0][b]=1&a[0][c]=2&a[1][b]=3", "a=1&a=2&a=3",
                       "a[b]=1&a[2]=x&a[0]=y", "a&b=&c=%FF&d=%E6%B1%89+x", "x[y][z][w][v][u][t]=deep", "a[]=1&a[]=2&a[]=3&b[c][]=4"]
        var rng = SystemRandomNumberGenerator()
        let names = ["a", "b", "c"], steps = ["[x]", "[y]", "[0]", "[1]", "[]", "[4]"]
        for _ in 0..<2_000 {
            queries.append((0..<Int.random(in: 1...10, using: &rng)).map { _ in
                names.randomElement(using: &rng)! + (0..<Int.random(in: 0...3, using: &rng)).map { _ in steps.randomElement(using: &rng)! }.joined()
                    + (Bool.random(using: &rng) ? "=v" : "")
            }.joined(separator: "&"))
        }
        var variants = [QSParser()]
        variants.append({ var p = QSParser(); p.allowSparse = true; p.strictNullHandling = true; return p }())
        var fast = 0
        for query in queries {
            for parser in variants {
                var sink = LuaTreeSink(runtime)
                var took = false
                let fromTree = try read { took = try parser.parse(ByteString(query), into: &sink) == nil; if !took { runtime.stack.pushNil() } }
                guard took else { continue }
                fast += 1
                let fromValue = try read { runtime.push(try parser.parse(ByteString(query)), keepOrder: false) }
                XCTAssertEqual(fromTree, fromValue, query)
            }
        }
        XCTAssertGreaterThan(fast, queries.count / 5, "the tree should be used for a good share of these")
        XCTAssertEqual(runtime.stack.top, 0)
    }
}

/// No setting lets a query nest so deep that building, converting or freeing it exhausts the
/// stack (a 100,000-level key crashed every nested model before the cap; 20,000 levels here, to be quick).
final class QueryNestingCapTests: XCTestCase {
    func testDeepKeysDoNotExhaustTheStack() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let key = "'a' .. string.rep('[b]', 20000) .. '=1'"
        // At the cap every model reads 1000 levels: qs keeps the rest as one literal key, PHP
        // drops the variable, Rack raises its QueryLimitError.
        XCTAssertEqual(lua.eval("""
            local t, n = pekit.query.decode(\(key), { depth = 1000 }).a, 0
            while type(t) == 'table' and t.b do t = t.b; n = n + 1 end
            local rest = next(t)
            return n, #rest
            """), "1000\t57000")
        XCTAssertEqual(lua.eval("next(pekit.query.decode(\(key), { server = 'php', max_input_nesting_level = 1000 }))"), "nil")
        // The error quotes a long parameter by its start and length.
        let rack = lua.eval("select(2, pcall(pekit.query.decode, \(key), { server = 'rack', param_depth_limit = 1000 }))")
        XCTAssertTrue(rack.contains("QueryLimitError"), rack)
        XCTAssertTrue(rack.hasSuffix(#" (parameter \"a"# + String(repeating: "[b]", count: 19) + #"[b…\" of 60003 bytes at byte 0)""#), rack)
        XCTAssertEqual(lua.eval("select(2, pcall(pekit.query.decode, 'a=1', { depth = 1000000 }))"),
                       #""pekit.query.decode: bad argument #2 (field \"depth\": expected a whole number or false (at most 1000: pekit reads no deeper), got 1000000)""#)
        XCTAssertEqual(lua.eval("select(2, pcall(pekit.query.decode, 'a=1', { server = 'rack', param_depth_limit = 1001 }))"),
                       #""pekit.query.decode: bad argument #2 (field \"param_depth_limit\": expected a whole number from 0 to 1000, got 1001)""#)
        // From Swift a larger setting counts as the cap.
        var parser = QSParser()
        parser.depth = 1_000_000
        let deep = ByteString("a" + String(repeating: "[b]", count: 20_000) + "=1")
        guard case .map(let top) = try parser.parse(deep), var value = top["a"] else { return XCTFail("no a") }
        var levels = 0
        while case .map(let map) = value, let next = map["b"] { value = next; levels += 1 }
        XCTAssertEqual(levels, 1000)
    }
}
