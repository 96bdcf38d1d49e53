import Foundation
import XCTest
@testable import PekitLua
@testable import PekitTools

/// pekit's pattern matcher (stoppable, so plugins cannot hang in C) gives exactly what Lua's
/// own gives: the same script, the same seed, in lua5.4 and in pekit.
final class PatternTests: XCTestCase {
    func testMatcherAgreesWithLua() throws {
        let script = try XCTUnwrap(Bundle.module.path(forResource: "pattern_differential", ofType: "lua", inDirectory: "Fixtures"))
        for seed in [1, 2, 3] {
            let arguments = [String(seed), "4000"]
            // Compared as bytes: subjects hold NULs and invalid UTF-8.
            let expected = try lua54(script, arguments).split(separator: 0x0A, omittingEmptySubsequences: false)
            XCTAssertEqual(expected.count, 4001)
            let runtime = try makeRuntime()
            let got = try captureStandardOutput { try runtime.runScript(path: script, arguments: arguments) }
                .split(separator: 0x0A, omittingEmptySubsequences: false)
            XCTAssertEqual(got.count, expected.count)
            for (a, b) in zip(got, expected) where a != b {
                XCTFail("seed \(seed):\npekit: \(String(decoding: a, as: UTF8.self))\nlua:   \(String(decoding: b, as: UTF8.self))")
                break
            }
        }
    }

    func testStepsAreChargedAndCoroutinesShareTheBudget() throws {
        var options = LuaRuntime.Options()
        options.environment = [:]
        options.pluginInstructionBudget = 1_000_000
        let directory = try pluginDirectory(["slow": #"""
            local s = ("a"):rep(3000)
            -- About 4.5 million steps of matching and no VM instruction to speak of.
            local found = s:find("a-a-b")
            return { kind = "policy" }
            """#, "fast": #"""
            local s = ("ab"):rep(3000)
            local n = select(2, s:gsub("(a)(b)", "%2%1"))
            return { kind = "policy", description = tostring(n) }
            """#])
        options.extraPluginDirectories = [directory]
        let lua = LuaREPL(runtime: try LuaRuntime(options: options))
        XCTAssertEqual(lua.eval(#"select(2, pcall(pekit.encode, "x", "slow"))"#).replacingOccurrences(of: directory, with: "DIR"),
                       #""pekit.encode: plugin \"slow\" (DIR/slow.lua): slow.lua:3: instruction budget exceeded (an endless loop?)""#)
        XCTAssertEqual(lua.eval(#"pekit.plugins.load("fast").description"#), #""3000""#)
    }

    private func lua54(_ script: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/lua5.4")
        process.arguments = [script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return [UInt8](data)
    }
}

/// Runs `body` with the process's standard output going to a temporary file; returns what it wrote.
func captureStandardOutput(_ body: () throws -> Void) throws -> [UInt8] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("pekit-stdout-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: file) }
    fflush(stdout)
    let saved = dup(STDOUT_FILENO)
    let fd = open(file.path, O_WRONLY)
    dup2(fd, STDOUT_FILENO)
    close(fd)
    defer {
        fflush(stdout)
        dup2(saved, STDOUT_FILENO)
        close(saved)
    }
    try body()
    fflush(stdout)
    return [UInt8](try Data(contentsOf: file))
}
