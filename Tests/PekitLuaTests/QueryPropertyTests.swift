import Foundation
import XCTest
@testable import PekitLua

final class QueryPropertyTests: XCTestCase {
    /// The round trip through qs, PHP and Rack is exact exactly where check says so, on random
    /// nested parameters (strings with &, =, brackets, %, +, dots, commas, UTF-8).
    func testCheckIsExactAboutRoundTrips() throws {
        let script = try XCTUnwrap(Bundle.module.path(forResource: "query_roundtrip_property", ofType: "lua", inDirectory: "Fixtures"))
        for seed in 1...3 {
            let lua = LuaREPL(runtime: try makeRuntime())
            let result = lua.eval("loadfile('\(script)')(\(seed), 200)")
            let fields = result.split(separator: "\t").compactMap { Int($0) }
            XCTAssertEqual(fields.count, 3, result)
            guard fields.count == 3 else { continue }
            XCTAssertEqual(fields[0], 0, "check disagrees with the round trip (details printed above)")
            XCTAssertGreaterThan(fields[1], 50, "some round trips lose something")
            XCTAssertGreaterThan(fields[2], 50, "some round trips are exact")
        }
    }
}
