import Foundation
import XCTest
@testable import PekitCore

/// PekitCore builds where Swift does (Apple platforms, musl, glibc) without Foundation: every
/// call into a C library sits in `Sources/PekitCore/Platform/`, behind `#if canImport`, and every
/// other file is plain Swift. Swift resolves a top-level name (memchr, getenv) by the imports of
/// the file that uses it, so a file with no platform import that compiles uses no platform call:
/// these rules and the build together are the proof.
final class PortableCoreTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let platformModules = ["Glibc", "Musl", "Darwin", "WinSDK", "ucrt", "WASILibc"]

    func sources() throws -> [(path: String, text: String)] {
        let core = Self.root.appendingPathComponent("Sources/PekitCore")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: core.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThan(files.count, 50)
        return try files.map { ($0, try String(contentsOf: core.appendingPathComponent($0), encoding: .utf8)) }
    }

    func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(of: "import"), i + 1 < words.count, words[..<i].allSatisfy({ ["@_exported", "public", "internal", "package", "@preconcurrency"].contains(String($0)) }) else { return nil }
            return String(words[i + 1])
        }
    }

    func testTheCoreImportsNeitherFoundationNorAPlatformOutsidePlatform() throws {
        for (path, text) in try sources() {
            let modules = imports(text)
            for module in modules {
                XCTAssertFalse(module.hasPrefix("Foundation") || module == "Dispatch", "\(path) imports \(module)")
                if Self.platformModules.contains(module) {
                    XCTAssertTrue(path.hasPrefix("Platform/"), "\(path) imports \(module) outside Platform/")
                } else {
                    // C of our own with no platform library in its interface: the percent
                    // kernels (plain C, with a scalar loop wherever SIMD is not).
                    XCTAssertEqual(module, "CPercentKernels", "\(path) imports \(module)")
                }
            }
        }
    }

    /// Each platform file imports the C library behind one `#if canImport` chain, so that it
    /// builds on glibc, musl and Darwin alike.
    func testEveryPlatformImportIsBehindCanImport() throws {
        let expected = "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Musl)\nimport Musl\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n"
        let platform = try sources().filter { $0.path.hasPrefix("Platform/") }
        XCTAssertFalse(platform.isEmpty)
        for (path, text) in platform where !imports(text).isEmpty {
            XCTAssertTrue(text.hasPrefix(expected), "\(path) does not start with the canImport chain")
            XCTAssertEqual(imports(text), ["Glibc", "Musl", "Darwin"], path)
        }
    }

    /// The environment read from `environ` (what a Lua runtime starts with, without Foundation's
    /// ProcessInfo at start-up) is Foundation's.
    func testTheEnvironmentIsFoundations() {
        XCTAssertEqual(CLibrary.processEnvironment(), ProcessInfo.processInfo.environment)
        XCTAssertEqual(CLibrary.processEnvironment()["PATH"], ProcessInfo.processInfo.environment["PATH"])
    }
}
