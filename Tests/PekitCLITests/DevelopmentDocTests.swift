import Foundation
import XCTest

/// docs/DEVELOPMENT.md is where a newcomer starts: its lists are held to what they describe
/// (issue 70: they had fallen behind), so adding a target, a core folder or a fuzz target
/// without saying so there fails here.
final class DevelopmentDocTests: XCTestCase {
    private let root = PekitProcess.packageRoot

    private func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The part of DEVELOPMENT.md under `heading`, up to the next heading of its level.
    private func section(_ heading: String) throws -> String {
        let doc = try text("docs/DEVELOPMENT.md")
        guard let start = doc.range(of: "\n## \(heading)\n") else { XCTFail("no section \(heading)"); return "" }
        let rest = doc[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    func testTheLayoutNamesEveryTargetAndCoreFolder() throws {
        let package = try text("Package.swift")
        let pattern = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|systemLibrary)\(\s*name: "([^"]+)""#)
        let names = pattern.matches(in: package, range: NSRange(package.startIndex..., in: package)).compactMap { match in
            Range(match.range(at: 1), in: package).map { String(package[$0]) }
        }.filter { $0 != "PekitTestSupport" }
        XCTAssertGreaterThan(names.count, 15)
        let layout = try section("Layout")
        for name in names { XCTAssertTrue(layout.contains("`\(name)`"), "DEVELOPMENT.md's layout does not name the target \(name)") }
        let core = root.appendingPathComponent("Sources/PekitCore")
        let folders = try FileManager.default.contentsOfDirectory(atPath: core.path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: core.appendingPathComponent(name).path, isDirectory: &isFolder) && isFolder.boolValue && !name.hasSuffix(".docc")
        }
        XCTAssertGreaterThan(folders.count, 10)
        for folder in folders { XCTAssertTrue(layout.contains("`\(folder)/`"), "DEVELOPMENT.md's layout does not name PekitCore's folder \(folder)/") }
    }

    func testTheScriptsNameEveryFuzzTarget() throws {
        let fuzz = try text("scripts/fuzz")
        guard let line = fuzz.split(separator: "\n").first(where: { $0.hasPrefix("targets=\"") }) else { return XCTFail("scripts/fuzz has no targets= line") }
        let targets = line.dropFirst("targets=\"".count).dropLast().split(separator: " ").map(String.init)
        XCTAssertGreaterThan(targets.count, 5)
        let scripts = try section("Scripts")
        for target in targets { XCTAssertTrue(scripts.contains("`\(target)`"), "DEVELOPMENT.md does not name the fuzz target \(target)") }
    }

    /// Test files are named for the concern they hold, not for the review that found the bug
    /// (issue 70: `HardeningThirdRoundTests`, `FrictionTests`, `SwiftSurfaceBugTests` were).
    func testTestFilesAreNamedForWhatTheyHold() throws {
        let tests = root.appendingPathComponent("Tests")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: tests.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix("Tests.swift") && !$0.contains("/Fixtures/") }
        XCTAssertGreaterThan(files.count, 50)
        for file in files {
            let name = (file as NSString).lastPathComponent
            for word in ["Hardening", "Round", "Friction", "Bug", "Review", "Issue"] {
                XCTAssertFalse(name.contains(word), "\(file) is named for a review (\(word)): name it for what it tests")
            }
        }
    }
}
