import XCTest
import PekitCore
@testable import PekitLua

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
                let fromTree = try read { took = parser.parse(ByteString(query), into: &sink); if !took { runtime.stack.pushNil() } }
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
