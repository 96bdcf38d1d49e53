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

    /// The libraries on top of the core hold to it too (issue 70): PekitHTTP and PekitCrypto
    /// import no Foundation, and every platform import of theirs sits behind `#if canImport`.
    func testHTTPAndCryptoImportNoFoundation() throws {
        for module in ["PekitHTTP", "PekitCrypto"] {
            let folder = Self.root.appendingPathComponent("Sources/\(module)")
            let files = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            XCTAssertGreaterThan(files.count, 5, module)
            for path in files {
                let lines = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                for (i, line) in lines.enumerated() {
                    guard let module = imports(String(line)).first else { continue }
                    XCTAssertFalse(module.hasPrefix("Foundation") || module == "Dispatch", "\(path) imports \(module)")
                    if Self.platformModules.contains(module) {
                        let before = i > 0 ? lines[i - 1] : ""
                        XCTAssertTrue(before.hasPrefix("#if canImport(\(module))") || before.hasPrefix("#elseif canImport(\(module))"),
                                      "\(path):\(i + 1) imports \(module) outside #if canImport")
                    }
                }
            }
        }
    }

    /// Generated files (first line `// Generated by scripts/…`) live in a data folder of their own
    /// (`Tables/`, `Data/`), and a data folder holds nothing else: the folder picture shows the
    /// code (issue 70).
    func testGeneratedFilesLiveInDataFolders() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") || $0.hasSuffix(".h") }
        var generated = 0
        for path in files {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            let isGenerated = text.hasPrefix("// Generated by scripts/")
            let inDataFolder = path.split(separator: "/").dropLast().contains { $0 == "Tables" || $0 == "Data" }
            XCTAssertEqual(isGenerated, inDataFolder, isGenerated ? "\(path) is generated: put it in a Tables/ or Data/ folder" : "\(path) is in a data folder but not generated")
            if isGenerated { generated += 1 }
        }
        XCTAssertGreaterThanOrEqual(generated, 6)
    }

    /// PekitFoundation, the bridge of PekitCore's types to Foundation (URLRequest, HTTPCookie,
    /// URL, Date, LocalizedError), needs PekitCore alone (issue 76), so that an iOS app can hand
    /// pekit's request to URLSession: its manifest entry names PekitCore only, its files import
    /// nothing else of pekit's, and its sources type-check against PekitCore's module alone, with
    /// PekitHTTP, PekitCrypto and the C libraries they load not on the search path.
    func testTheFoundationBridgeNeedsTheCoreAlone() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertTrue(manifest.contains(#".target(name: "PekitFoundation", dependencies: ["PekitCore"])"#), "PekitFoundation depends on more than PekitCore")
        let folder = Self.root.appendingPathComponent("Sources/PekitFoundation")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 4)
        for file in files {
            let modules = imports(try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
            XCTAssertEqual(Set(modules).subtracting(["Foundation", "FoundationNetworking", "PekitCore"]), [], file)
        }
        // The module the tests' own build made, alone in a directory of its own.
        let modules = Self.root.appendingPathComponent(".build/debug/Modules/PekitCore.swiftmodule")
        XCTAssertTrue(FileManager.default.fileExists(atPath: modules.path), "no debug build of PekitCore at \(modules.path)")
        let alone = FileManager.default.temporaryDirectory.appendingPathComponent("pekit-core-alone-\(getpid())")
        try? FileManager.default.removeItem(at: alone)
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: alone) }
        try FileManager.default.copyItem(at: modules, to: alone.appendingPathComponent("PekitCore.swiftmodule"))
        func typecheck(_ sources: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["swiftc", "-typecheck", "-suppress-warnings", "-swift-version", "6", "-I", alone.path,
                                 "-I", Self.root.appendingPathComponent("Sources/CPercentKernels/include").path] + sources
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self))
        }
        let sources = files.map { folder.appendingPathComponent($0).path }
        let bridge = try typecheck(sources)
        XCTAssertEqual(bridge.status, 0, bridge.output)
        // The same check refuses a file that needs PekitHTTP: the proof is not vacuous.
        let needsHTTP = alone.appendingPathComponent("NeedsHTTP.swift")
        try "import PekitHTTP\n".write(to: needsHTTP, atomically: true, encoding: .utf8)
        let refused = try typecheck(sources + [needsHTTP.path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.output.contains("no such module 'PekitHTTP'"), refused.output)
    }
}
