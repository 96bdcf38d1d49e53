import Foundation
import XCTest

/// Issue 73: docs/requests-and-sending.md lists every flag of curl 7.88's `--help all`, each
/// taken, refused (with why) or not applicable. The list is the installed curl's, the docs
/// are `pekit help --curl-flags`' table, and each row is what `pekit import curl` does with the
/// flag: a taken one is read, a refused one refused with the row's reason.
final class CurlFlagTableTests: XCTestCase {
    private struct Row { let long: String; let short: String?; let takesValue: Bool; let verdict: String }

    private func rows() throws -> (text: String, rows: [Row]) {
        let table = try PekitProcess.run(["help", "--curl-flags"])
        XCTAssertEqual(table.status, 0, table.stderr)
        var rows: [Row] = []
        let pattern = try NSRegularExpression(pattern: #"^\| (?:`-(\S)`, )?`--([^`]+)`( `[^`]+`)? \| (.+) \|$"#)
        for line in table.stdout.split(separator: "\n").map(String.init) where line.hasPrefix("| `") {
            let range = NSRange(line.startIndex..., in: line)
            guard let match = pattern.firstMatch(in: line, range: range) else { XCTFail("a row not read: \(line)"); continue }
            func group(_ n: Int) -> String? { Range(match.range(at: n), in: line).map { String(line[$0]) } }
            rows.append(Row(long: group(2)!, short: group(1), takesValue: group(3) != nil, verdict: group(4)!))
        }
        return (table.stdout, rows)
    }

    func testEveryFlagOfCurlIsListedAndTheDocsHaveTheTable() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let (text, rows) = try rows()
        let help = String(decoding: try PekitProcess.output(of: "/usr/bin/curl", ["--help", "all"]), as: UTF8.self)
        let theirs = Set(help.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #"--[a-z0-9][a-z0-9.-]*"#, options: .regularExpression) else { return nil }
            return String(line[range].dropFirst(2))
        })
        XCTAssertEqual(theirs.count, 250)
        XCTAssertEqual(Set(rows.map(\.long)), theirs)
        XCTAssertEqual(rows.count, theirs.count)
        let page = try String(contentsOf: PekitProcess.packageRoot.appendingPathComponent("docs/requests-and-sending.md"), encoding: .utf8)
        XCTAssertTrue(page.contains("<!-- curl flags: pekit help --curl-flags -->\n" + text + "<!-- end of curl flags -->"),
                      "docs/requests-and-sending.md's table of curl's flags is not pekit help --curl-flags' (run scripts/docs-generate)")
    }

    func testEachRowIsWhatImportDoesWithTheFlag() throws {
        let (_, rows) = try rows()
        XCTAssertGreaterThan(rows.filter { $0.verdict == "taken" }.count, 100)
        // Each flag's import, two at a time (each a process of its own).
        let cases = rows.flatMap { row in (["--" + row.long] + (row.short.map { ["-" + $0] } ?? [])).map { (row, $0) } }
        let results = UnsafeMutableBufferPointer<PekitResult?>.allocate(capacity: cases.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: cases.count) { i in
            let (row, flag) = cases[i]
            results[i] = try? PekitProcess.run(["import", "curl", "curl \(flag)\(row.takesValue ? " x" : "") http://127.0.0.1:1/"])
        }
        for (i, (row, flag)) in cases.enumerated() {
            guard let r = results[i] else { XCTFail("\(flag): pekit did not run"); continue }
            let command = "curl \(flag)\(row.takesValue ? " x" : "")"
            let refusal = "pekit import: curl's \(flag) is not something pekit takes"
            switch row.verdict {
            case "taken":
                XCTAssertFalse(r.stderr.contains(refusal), "\(command): \(r.stderr)")
            case let verdict where verdict.hasPrefix("refused: "):
                XCTAssertTrue(r.stderr.contains(refusal + " (\(verdict.dropFirst(9)))"), "\(command): \(r.stderr)")
            case let verdict where verdict.hasPrefix("not applicable: "):
                XCTAssertTrue(r.stderr.contains(refusal + " (a flag \(verdict.dropFirst(16)))"), "\(command): \(r.stderr)")
            default:
                XCTFail("\(row.long): \(row.verdict)")
            }
        }
    }
}
