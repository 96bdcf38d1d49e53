import Foundation
import XCTest

/// What the tests of `pekit test` share: test files written into a directory, and each test's
/// `name: message` read back from a run's JSON report.
enum TestRunFiles {
    static func write(_ files: [String: String], in dir: URL) throws {
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    static func messages(_ json: URL) throws -> [String] {
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        return (document["files"] as? [[String: Any]] ?? []).flatMap { ($0["tests"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? ""): \($0["message"] ?? "passed")" } }
    }
}
