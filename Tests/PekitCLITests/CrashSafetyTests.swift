import Foundation
import PekitTestSupport
import XCTest

/// `jar:save` writes a temporary file and renames it into place: a process killed with SIGKILL
/// at any moment leaves either the old jar or the new one, complete, never a mix.
final class CrashSafetyTests: XCTestCase {
    func testKillDuringSaveLeavesACompleteJar() throws {
        let dir = try makeTemporaryDirectory("crash")
        let jarPath = dir.appendingPathComponent("jar.txt").path
        let script = dir.appendingPathComponent("saver.lua")
        // Saves, over and over, a jar of 2,000 cookies whose values all carry the same generation.
        try """
            local jar = pekit.cookies.jar{ now = 1700000000 }
            local generation, tag = 0, arg[2] or "gen"
            while true do
              generation = generation + 1
              jar:clear()
              for i = 1, 2000 do
                jar:set{ name = "c" .. i, value = tag .. generation, domain = "site" .. (i % 40) .. ".example", expires = 2000000000 }
              end
              jar:save(arg[1])
            end
            """.write(to: script, atomically: true, encoding: .utf8)
        var checked = 0
        for round in 0..<12 {
            let process = Process()
            process.executableURL = PekitProcess.binary
            process.arguments = ["run", script.path, jarPath]
            let before = modified(jarPath)
            try process.run()
            // Kill at a different moment of a save each round: after the saver has finished one
            // (so it is running at full speed, whatever the build), then 0–80 ms later.
            let deadline = Date().addingTimeInterval(10)
            while modified(jarPath) == before && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            Thread.sleep(forTimeInterval: Double(round % 5) * 0.02)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            guard let text = try? String(contentsOfFile: jarPath, encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            XCTAssertEqual(lines.count, 2000, "round \(round): a complete jar")
            let generations = Set(lines.map { $0.split(separator: "\t").last.map(String.init) ?? "" })
            XCTAssertEqual(generations.count, 1, "round \(round): one generation, not a mix: \(generations.prefix(3))")
            checked += 1
        }
        XCTAssertEqual(checked, 12, "the saver wrote the file before every kill")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp") }
        XCTAssertLessThanOrEqual(leftovers.count, 1, "at most the one temporary file a killed writer can leave: \(leftovers)")

        // Two processes saving the same jar at once: a reader only ever sees one whole jar of
        // one writer's one generation.
        let writers = try ["A", "B"].map { tag -> Process in
            let process = Process()
            process.executableURL = PekitProcess.binary
            process.arguments = ["run", script.path, jarPath, tag]
            try process.run()
            return process
        }
        defer { writers.forEach { kill($0.processIdentifier, SIGKILL); $0.waitUntilExit() } }
        var seen = Set<String>()
        // Until both writers were seen (a sanitizer build starts slowly), at most 20 s.
        let end = Date().addingTimeInterval(20)
        while Date() < end && !seen.isSuperset(of: ["A", "B"]) {
            guard let text = try? String(contentsOfFile: jarPath, encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            let values = Set(lines.map { $0.split(separator: "\t").last.map(String.init) ?? "" })
            XCTAssertEqual(lines.count, 2000)
            XCTAssertEqual(values.count, 1, "one writer's one generation: \(values.prefix(3))")
            if let value = values.first { seen.insert(String(value.prefix(1))) }
        }
        XCTAssertTrue(seen.isSuperset(of: ["A", "B"]), "both writers saved while the reader watched: \(seen)")
    }

    func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    /// SIGTERM and SIGHUP while a jar file is held (`request --send --jar` keeps its lock from
    /// loading to saving; a script's `jar:save` takes it to write) leave no `FILE.lock` (and no
    /// temporary file) beside the jar: removed as SIGINT's unwinding removes it.
    func testTerminateWhileAJarIsHeldLeavesNoLockFile() throws {
        let dir = try makeTemporaryDirectory("term")
        let jarPath = dir.appendingPathComponent("jar.txt").path
        let lockPath = jarPath + ".lock"
        // A server that takes the connection and never answers: the request waits, the lock held.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-c", """
            import socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(50)
            print(s.getsockname()[1], flush=True)
            held = []
            while True:
                c, _ = s.accept(); held.append(c)
            """]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        defer { server.terminate() }
        let port = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let script = dir.appendingPathComponent("saver.lua")
        try """
            local jar = pekit.cookies.jar{ now = 1700000000 }
            for i = 1, 3000 do jar:set{ name = "c" .. i, value = "v", domain = "site" .. (i % 40) .. ".example", expires = 2000000000 } end
            while true do jar:save(arg[1]) end
            """.write(to: script, atomically: true, encoding: .utf8)
        for round in 0..<8 {
            try? FileManager.default.removeItem(atPath: jarPath)
            let process = Process()
            process.executableURL = PekitProcess.binary
            process.arguments = round < 4 ? ["request", "--send", "--jar", jarPath, "http://127.0.0.1:\(port)/"] : ["run", script.path, jarPath]
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            let waitFor = round < 4 ? lockPath : jarPath
            while !FileManager.default.fileExists(atPath: waitFor) && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            Thread.sleep(forTimeInterval: Double(round % 4) * 0.013)
            let signal = round % 2 == 0 ? SIGTERM : SIGHUP
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "round \(round)")
            XCTAssertEqual(process.terminationStatus, signal, "round \(round): ends as the signal says")
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "jar.txt" && $0 != "saver.lua" }
            XCTAssertEqual(left, [], "round \(round): nothing left beside the jar")
        }
    }
}
