import Foundation
import PekitTestSupport
import XCTest
@testable import PekitLua
@testable import PekitTools

/// Every pekit function works on the stack of the coroutine that called it.
final class CoroutineTests: XCTestCase {
    static let fixture = Bundle.module.path(forResource: "coroutine_entry_points", ofType: "lua", inDirectory: "Fixtures")

    func testEveryEntryPointGivesTheSameResultInCoroutines() throws {
        let server = try TestServer.shared()
        let source = try String(contentsOfFile: try XCTUnwrap(Self.fixture), encoding: .utf8)
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval("PEKIT_TEST_BASE = '\(server.base)'"), "")
        let result = lua.eval("(function() local problems, n = (function() \(source)\n end)() return table.concat(problems, '\\n'), n end)()")
        XCTAssertEqual(result, "\"\"\t60", result.replacingOccurrences(of: "\\n", with: "\n"))
        // The calls really ran: a result from the fixture's cases, read again on the main thread.
        XCTAssertEqual(lua.eval(#"pekit.encode("[x y]", "co-test")"#), #""[x%20y]""#)
    }

    func testEveryEntryPointGivesTheSameResultInCoroutinesInsideAPlugin() throws {
        let source = try String(contentsOfFile: try XCTUnwrap(Self.fixture), encoding: .utf8)
        let directory = try pluginDirectory(["coroutines": """
            local problems, n = (function() \(source)
            end)()
            return { kind = "policy", description = n .. "|" .. table.concat(problems, "\\n") }
            """])
        let lua = LuaREPL(runtime: try makeRuntime(plugins: [directory, repoPlugins]))
        XCTAssertEqual(lua.eval(#"pekit.plugins.load("coroutines").description"#), #""60|""#)
    }
}
