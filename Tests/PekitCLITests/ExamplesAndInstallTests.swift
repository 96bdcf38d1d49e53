import Foundation
import XCTest
import PekitTestSupport

final class ExamplesAndInstallTests: XCTestCase {
    /// The tour needs no server: it must keep working.
    func testTourExampleRuns() throws {
        let r = try PekitProcess.run([PekitProcess.packageRoot.appendingPathComponent("scripts/examples/tour.lua").path])
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.status, 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(Array(lines.prefix(8)), [
            "pekit 0.1.0 on Lua 5.4",
            "%E6%B1%89%E5%AD%97%26ss",
            "input              a b/?&=+~[]",
            "rfc3986            a%20b%2F%3F%26%3D%2B~%5B%5D",
            "afnetworking       a%20b/?%26%3D%2B~%5B%5D",
            "foundation-query   a%20b/?%26%3D+~%5B%5D",
            "form               a+b%2F%3F%26%3D%2B%7E%5B%5D",
            "aws-sigv4          a%20b%2F%3F%26%3D%2B~%5B%5D",
        ])
        XCTAssertTrue(r.stdout.contains("\ntags[]+%3D+x+y\n"))
    }

    /// The layout scripts/install makes: PREFIX/bin/pekit finds PREFIX/share/pekit/plugins.
    func testInstalledBinaryFindsItsPlugins() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("pekit-prefix-\(UUID().uuidString)")
        let bin = prefix.appendingPathComponent("bin"), share = prefix.appendingPathComponent("share/pekit/plugins")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: PekitProcess.binary, to: bin.appendingPathComponent("pekit"))
        try #"return { kind = "policy", description = "installed", allowed = "/" }"#
            .write(to: share.appendingPathComponent("installed-only.lua"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = bin.appendingPathComponent("pekit")
        process.arguments = ["encode", "--policy", "installed-only", "a/b c"]
        process.currentDirectoryURL = prefix
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "a/b%20c\n")
        XCTAssertEqual(process.terminationStatus, 0)
    }
}
