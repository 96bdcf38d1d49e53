import Foundation
import XCTest

/// docs/ERRORS.md lists every error with its exact text; it must be what the binary prints.
final class ErrorTableTests: XCTestCase {
    func testErrorTableMatchesTheBinary() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", PekitProcess.packageRoot.appendingPathComponent("scripts/error-table").path, "--check"]
        var environment = ProcessInfo.processInfo.environment
        environment["PEKIT_BIN"] = PekitProcess.binary.path
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let diff = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "docs/ERRORS.md differs from the binary (run scripts/error-table):\n\(diff)")
    }
}
