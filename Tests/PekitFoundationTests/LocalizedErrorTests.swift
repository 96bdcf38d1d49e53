import Foundation
import XCTest

/// Every public error type of PekitCore, PekitHTTP and PekitCrypto is made a LocalizedError by
/// the bridge of its own module (PekitFoundation, PekitHTTPFoundation, PekitCryptoFoundation): a
/// new error type that is not fails here, by name.
final class LocalizedErrorTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Outer.Inner` for each `public struct|enum Inner…: Error…` in a library's sources.
    func publicErrorTypes(of library: String) throws -> [String] {
        var names: [String] = []
        do {
            let directory = Self.root.appendingPathComponent("Sources/\(library)")
            let files = try XCTUnwrap(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            for file in files {
                let lines = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
                for (i, line) in lines.enumerated() {
                    let words = line.split(separator: " ")
                    guard words.first == "public", words.count >= 3, ["struct", "enum"].contains(words[1]),
                          line.contains(": Error") || line.contains(", Error") else { continue }
                    let name = String(words[2].prefix { $0.isLetter || $0.isNumber })
                    let indent = line.prefix { $0 == " " }.count
                    var qualified = name
                    if indent > 0, let outer = lines[..<i].last(where: { l in
                        l.prefix { $0 == " " }.count < indent && l.split(separator: " ").contains { ["extension", "struct", "enum", "class"].contains(String($0)) }
                    }) {
                        let w = outer.split(separator: " ").map(String.init)
                        if let k = w.firstIndex(where: { ["extension", "struct", "enum", "class"].contains($0) }), k + 1 < w.count {
                            qualified = String(w[k + 1].prefix { $0.isLetter || $0.isNumber || $0 == "." }) + "." + name
                        }
                    }
                    names.append(qualified)
                }
            }
        }
        return names.sorted()
    }

    func testEveryPublicErrorIsALocalizedError() throws {
        let bridges = [("PekitCore", "PekitFoundation/LocalizedErrors.swift", 20), ("PekitHTTP", "PekitHTTPFoundation/LocalizedErrors+HTTP.swift", 4),
                       ("PekitCrypto", "PekitCryptoFoundation/LocalizedErrors+Crypto.swift", 2)]
        for (library, file, least) in bridges {
            let listed = try String(contentsOf: Self.root.appendingPathComponent("Sources/" + file), encoding: .utf8)
            let types = try publicErrorTypes(of: library)
            XCTAssertGreaterThanOrEqual(types.count, least, library)
            for name in types {
                XCTAssertTrue(listed.contains("extension \(name): LocalizedError"), "\(library)'s \(name) is not a LocalizedError in \(file)")
            }
        }
    }
}
