import Foundation
import PekitTestSupport
import XCTest
@testable import PekitLua
@testable import PekitTools

/// The repository's plugins/ directory.
let repoPlugins = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("plugins").path

/// A runtime that sees only `directories` (default: the repository's plugins).
func makeRuntime(plugins directories: [String] = [repoPlugins], sandboxed: Bool = false) throws -> LuaRuntime {
    var options = LuaRuntime.Options()
    options.extraPluginDirectories = directories
    options.environment = ["HOME": "/nonexistent"]
    options.sandboxed = sandboxed
    return try LuaRuntime(options: options)
}

/// A runtime with only `directories` on the plugin path, no environment, and small plugin limits
/// (so that a runaway plugin is stopped quickly). The time limit is long by default, so that the
/// budget decides on a slow machine too.
func makeLimitedRuntime(plugins directories: [String], budget: Int, memory: Int = 8 << 20, seconds: Double = 120) throws -> LuaRuntime {
    var options = LuaRuntime.Options()
    options.extraPluginDirectories = directories
    options.environment = [:]
    options.pluginInstructionBudget = budget
    options.pluginMemoryLimit = memory
    options.pluginTimeLimit = seconds
    return try LuaRuntime(options: options)
}

extension LuaREPL {
    /// Evaluates one line; the printed value, or "error: message".
    func eval(_ line: String) -> String {
        switch feed(line) {
        case .output(let text): return text
        case .error(let text): return "error: " + (text.components(separatedBy: "\nstack traceback:").first ?? text)
        case .needMore: return "<more>"
        case .quit: return "<quit>"
        }
    }
}

/// A temporary directory with the given plugin files.
func pluginDirectory(_ files: [String: String]) throws -> String {
    let directory = try makeTemporaryDirectory("plugins")
    for (name, text) in files {
        try text.write(to: directory.appendingPathComponent(name + ".lua"), atomically: true, encoding: .utf8)
    }
    return directory.path
}

/// Lua tests against the shared local test server: a fresh runtime per test, with the globals
/// `base` (its HTTP URL), `tls_port` and `cacert` set.
class LocalServerLuaTestCase: XCTestCase {
    var server: TestServer!
    var lua: LuaREPL!

    override func setUpWithError() throws {
        server = try TestServer.shared()
        lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"base = "\#(server.base)"; tls_port = \#(server.httpsPort); cacert = "\#(server.cacert)""#), "")
    }

    // XCTest keeps test case instances (and what they hold) to the end of the run: let go.
    override func tearDown() { lua = nil }

    /// A fresh key for the server's per-key counters (/flaky/KEY, /inflight/KEY).
    func key() -> String { UUID().uuidString }
}
