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

/// README's "A short tour" runs as shown: each `$ command` gives the lines under it, byte for
/// byte (CR LF shown as LF, a line ending in " …" cut there), under LANG=C as README says.
final class ReadmeTourTests: XCTestCase {
    func testTheTourMatchesByteForByte() throws {
        try checkShellBlock(after: "## A short tour\n\n", minimumSteps: 12)
    }

    /// README's worked cookie filter: its code is the example plugin's file, and its commands
    /// print what README shows (run beside a link to the checkout's scripts/).
    func testTheWorkedCookieFilter() throws {
        let readme = try String(contentsOf: PekitProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.range(of: "### A worked cookie filter\n"))
        let code = try XCTUnwrap(readme[section.upperBound...].range(of: "```lua\n"))
        let codeEnd = try XCTUnwrap(readme[code.upperBound...].range(of: "```\n"))
        let file = try String(contentsOf: PekitProcess.packageRoot.appendingPathComponent("scripts/examples/plugins/local-api.lua"), encoding: .utf8)
        XCTAssertEqual(String(readme[code.upperBound..<codeEnd.lowerBound]), file)
        try checkShellBlock(after: "`scripts/examples/plugins/local-api.lua`:", minimumSteps: 3, linkScripts: true)
    }

    /// Runs each `$ command` of the first ```sh block after `heading` and compares the lines under it.
    func checkShellBlock(after heading: String, minimumSteps: Int, linkScripts: Bool = false) throws {
        let readme = try String(contentsOf: PekitProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.range(of: heading))
        let start = try XCTUnwrap(readme[section.upperBound...].range(of: "```sh\n"))
        let end = try XCTUnwrap(readme[start.upperBound...].range(of: "\n```"))
        let block = readme[start.upperBound..<end.lowerBound]
        var steps: [(command: String, expected: [String])] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("$ ") { steps.append((String(line.dropFirst(2)), [])) } else if !steps.isEmpty { steps[steps.count - 1].expected.append(String(line)) }
        }
        XCTAssertGreaterThanOrEqual(steps.count, minimumSteps)
        let dir = try makeTemporaryDirectory("tour")
        if linkScripts {
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("scripts"), withDestinationURL: PekitProcess.packageRoot.appendingPathComponent("scripts"))
        }
        let bin = PekitProcess.binary.deletingLastPathComponent().path
        for step in steps {
            let out = try PekitProcess.output(of: "/bin/sh", ["-c", "exec 2>&1; export PATH='\(bin)':$PATH LANG=C LANGUAGE= LC_ALL=\n\(step.command)\n"], directory: dir)
            let got = String(decoding: out, as: UTF8.self).replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var expected = step.expected
            while expected.last == "" && got.count < expected.count + 1 { expected.removeLast() }
            for (i, want) in expected.enumerated() {
                let have = i < got.count ? got[i] : "<missing>"
                if want.hasSuffix(" …") { XCTAssertTrue(have.hasPrefix(String(want.dropLast(2))), "\(step.command)\n  got  \(have)\n  want \(want)") }
                else { XCTAssertEqual(have, want, "\(step.command)") }
            }
        }
    }
}
