import Foundation
import XCTest

/// `jar:save` writes a temporary file and renames it into place: a process killed with SIGKILL
/// at any moment leaves either the old jar or the new one, complete, never a mix.
final class CrashSafetyTests: XCTestCase {
    func testKillDuringSaveLeavesACompleteJar() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pekit-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let jarPath = dir.appendingPathComponent("jar.txt").path
        let script = dir.appendingPathComponent("saver.lua")
        // Saves, over and over, a jar of 2,000 cookies whose values all carry the same generation.
        try """
            local jar = pekit.cookies.jar{ now = 1700000000 }
            local generation = 0
            while true do
              generation = generation + 1
              jar:clear()
              for i = 1, 2000 do
                jar:set{ name = "c" .. i, value = "gen" .. generation, domain = "site" .. (i % 40) .. ".example", expires = 2000000000 }
              end
              jar:save(arg[1])
            end
            """.write(to: script, atomically: true, encoding: .utf8)
        var checked = 0
        for round in 0..<12 {
            let process = Process()
            process.executableURL = PekitProcess.binary
            process.arguments = ["run", script.path, jarPath]
            try process.run()
            Thread.sleep(forTimeInterval: 0.15 + Double(round % 5) * 0.07)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            guard let text = try? String(contentsOfFile: jarPath, encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            XCTAssertEqual(lines.count, 2000, "round \(round): a complete jar")
            let generations = Set(lines.map { $0.split(separator: "\t").last.map(String.init) ?? "" })
            XCTAssertEqual(generations.count, 1, "round \(round): one generation, not a mix: \(generations.prefix(3))")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 8, "the saver got to write the file in most rounds")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp") }
        XCTAssertLessThanOrEqual(leftovers.count, 1, "at most the one temporary file a killed writer can leave: \(leftovers)")
    }
}
