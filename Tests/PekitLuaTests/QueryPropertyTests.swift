import Foundation
import XCTest
@testable import PekitLua
@testable import PekitTools

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

    /// Property: for every policy on the plugin path, decoding what it encodes gives back the
    /// bytes, for random byte strings (invalid UTF-8, NUL, '%', '+', spaces included).
    func testEveryPolicyRoundTripsBytes() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let result = lua.eval(#"""
            (function()
              math.randomseed(3986)
              local checked, policies = 0, 0
              for _, p in ipairs(pekit.policy.list()) do
                policies = policies + 1
                local plus = pekit.policy.get(p.name).space == "+"
                for i = 1, 300 do
                  local bytes = {}
                  for j = 1, math.random(0, 24) do bytes[j] = string.char(math.random(0, 255)) end
                  local x = table.concat(bytes) .. ({ "", " ", "+", "%", "%41", "a b+c" })[i % 6 + 1]
                  local back = pekit.decode(pekit.encode(x, p.name), { plus = plus })
                  if back ~= x then error(("%s: %q came back as %q"):format(p.name, x, back)) end
                  checked = checked + 1
                end
              end
              return policies, checked
            end)()
            """#)
        XCTAssertEqual(result, "20\t6000", "alamofire-form is the 20th policy")
    }
}
