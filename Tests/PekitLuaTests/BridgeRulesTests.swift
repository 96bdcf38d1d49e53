import Foundation
import XCTest

/// docs/BRIDGE.md's rules, held by the test suite over every Swift source: Swift never calls a
/// Lua API function that can raise (a longjmp through Swift frames leaks or corrupts memory;
/// raising is left to the C trampoline), nor one that can run a metamethod and raise (raw
/// variants or a protected C shim instead), nor reads a Lua string as a C string (it ends at NUL).
final class BridgeRulesTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The lines of code (comments left out) of every Swift file under Sources, with their places.
    func codeLines() throws -> [(place: String, line: String)] {
        var out: [(String, String)] = []
        let files = FileManager.default.enumerator(atPath: Self.sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        XCTAssertGreaterThan(files.count, 100)
        for file in files.sorted() {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                if !code.trimmingCharacters(in: .whitespaces).isEmpty { out.append(("Sources/\(file):\(n + 1)", code)) }
            }
        }
        return out
    }

    static let raisingPattern = #"\b(lua_error|luaL_error|luaL_argerror|luaL_check[a-z]*|luaL_typeerror|luaL_opt[a-z]*|lua_call|lua_callk|lua_getglobal|lua_setglobal|lua_gettable|lua_settable|lua_getfield|lua_setfield|lua_geti|lua_seti|lua_len|luaL_len|lua_compare|lua_concat|lua_arith|luaL_tolstring)\("#

    func testSwiftNeverCallsALuaFunctionThatCanRaise() throws {
        let raising = try NSRegularExpression(pattern: Self.raisingPattern)
        let cString = try NSRegularExpression(pattern: #"String\(cString:"#)
        var found: [String] = []
        for (place, line) in try codeLines() {
            let range = NSRange(line.startIndex..., in: line)
            if raising.firstMatch(in: line, range: range) != nil { found.append("\(place): \(line.trimmingCharacters(in: .whitespaces))") }
            if cString.firstMatch(in: line, range: range) != nil, !line.contains("errno"), !line.contains("strerror") {
                found.append("\(place): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        XCTAssertEqual(found, [], "Swift calls a Lua function that can raise, or reads a Lua string as a C string")
    }

    /// The test sees what it looks for: a line that breaks the rule is found.
    func testTheScanFindsABreach() throws {
        let raising = try NSRegularExpression(pattern: Self.raisingPattern)
        for line in ["_ = lua_getfield(L, -1, \"x\")", "let n = luaL_checkinteger(L, 1)"] {
            XCTAssertNotNil(raising.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
        }
    }

    /// The shape issue 31 set: `LuaRuntime` keeps the state, the dispatcher and the limits (its
    /// public API, running code, and the value bridge extend it), each module is a type of its
    /// own, and no Swift file grows past 500 lines.
    func testTheRuntimeStaysSmallAndFilesShort() throws {
        let files = FileManager.default.enumerator(atPath: Self.sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var extending: [String] = [], long: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            if text.contains("\nextension LuaRuntime ") || text.hasPrefix("extension LuaRuntime ") { extending.append(file) }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            if lines > 500 { long.append("\(file): \(lines) lines") }
        }
        XCTAssertEqual(extending, ["PekitLua/Bridge/LuaCopy.swift", "PekitLua/Bridge/LuaValues.swift",
                                   "PekitLua/Runtime/LuaRuntime+PublicAPI.swift", "PekitLua/Runtime/LuaRuntime+Run.swift"])
        XCTAssertEqual(long, [])
    }
}
