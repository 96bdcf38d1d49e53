import Foundation
import PekitTestSupport
import XCTest

/// Issue 72 (the Hurl slice): Hurl's own integration cases (its `integration/hurl/tests_ok`,
/// generated into Fixtures/hurl-suite by scripts/hurl-suite-fixtures, which names the commit)
/// run under `pekit test FILE.hurl` and, translated, under `pekit test` of what `pekit import
/// hurl` prints, against Hurl's own Flask routes, which assert what each request must be. The
/// expectation is the suite's (every entry passes, or the exit status its .exit file gives);
/// the cases pekit does not take are listed with the reason in not-taken.json, and the list
/// only shrinks: a listed case that passes fails this test.
final class HurlSuiteTests: XCTestCase {
    static let folder = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCLITests/Fixtures/hurl-suite")

    private struct Results: Decodable {
        let passed: [String]
        let failed: [String: String]
        let not_taken: [String: String]
        let listed_but_passing: [String]
        let bytes: [String: String]
    }

    private func run(imported: Bool) throws -> Results {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hurl-suite-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = PekitProcess.packageRoot.appendingPathComponent("Tests/Server/hurl_suite.py").path
        // Debian's python3, which has Flask (scripts/lib/deps.sh); another may come first on PATH.
        let run = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/python3"),
                                       [script, "--pekit", PekitProcess.binary.path, "--jobs", "4", "--json", output.path] + (imported ? ["--import"] : ["--bytes"]))
        let results = try JSONDecoder().decode(Results.self, from: Data(contentsOf: output))
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        return results
    }

    func testHurlsOwnCasesPassAsHurlsSuiteExpects() throws {
        let cases = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: Self.folder.appendingPathComponent("cases.json"))) as? [[String: Any]])
        XCTAssertEqual(cases.count, 111)
        for imported in [false, true] {
            let results = try run(imported: imported)
            let mode = imported ? "as pekit import hurl prints it" : "as a .hurl file"
            for (name, why) in results.failed.sorted(by: { $0.key < $1.key }) { XCTFail("Hurl's case \(name), \(mode): \(why)") }
            for name in results.listed_but_passing { XCTFail("Hurl's case \(name) passes \(mode): take it off not-taken.json") }
            // Every case is run or said not to be (with its reason), and the passing ones are named.
            XCTAssertEqual(results.passed.count + results.failed.count + results.not_taken.count, cases.count)
            XCTAssertEqual(results.passed.count, 97, mode)
            if !imported { try checkBytes(results.bytes) }
            XCTAssertTrue(results.passed.contains("assert_json") && results.passed.contains("cookies") && results.passed.contains("post_json")
                          && results.passed.contains("multipart_form_data") && results.passed.contains("graphql")
                          && results.passed.contains("charset") && results.passed.contains("compressed_option")
                          && results.passed.contains("assert_xpath") && results.passed.contains("hello_gb2312"), mode)
        }
    }

    /// What pekit sends for each case whose `.curl` equivalents Hurl's suite ships is what curl
    /// sends for them, field for field (the User-Agent, curl's Expect and a multipart boundary
    /// aside; fields compared by name, as a .curl line writes with curl's flags what Hurl writes
    /// as fields), save the differences byte-differences.json lists, each where the .curl line
    /// is not what Hurl's client sends (its reason cites the client's code); that list only shrinks.
    private func checkBytes(_ bytes: [String: String]) throws {
        let known = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: Self.folder.appendingPathComponent("byte-differences.json")))
        XCTAssertGreaterThanOrEqual(bytes.count, 60, "cases compared with their .curl equivalents")
        XCTAssertGreaterThanOrEqual(bytes.values.filter { $0 == "same" }.count, 54)
        for (name, difference) in bytes.sorted(by: { $0.key < $1.key }) where difference != "same" && known[name] == nil {
            XCTFail("Hurl's case \(name) sends other bytes than its .curl equivalents: \(difference)")
        }
        for name in known.keys.sorted() where bytes[name] == "same" {
            XCTFail("Hurl's case \(name) now sends what its .curl equivalents send: take it off byte-differences.json")
        }
    }

    private struct ParseError: Decodable {
        let name: String
        let line: Int
        let column: Int
        let message: String
    }

    /// Every file of Hurl's tests_error_parser is refused at the line and column Hurl's own
    /// parser names (its .err file), in its words (where Hurl lists the valid values, pekit's
    /// list is its own: the words before the list).
    func testMalformedFilesAreRefusedWhereHurlsParserRefusesThem() throws {
        let errors = try JSONDecoder().decode([ParseError].self, from: Data(contentsOf: Self.folder.appendingPathComponent("parse-errors.json")))
        XCTAssertEqual(errors.count, 42)
        for expected in errors {
            let path = "tests_error_parser/\(expected.name).hurl"
            for command in [["import", "hurl", path], ["test", path]] {
                let run = try PekitProcess.run(command, directory: Self.folder)
                XCTAssertNotEqual(run.status, 0, "\(command): \(run.stdout)")
                let shown = command[0] == "import" ? run.stderr : run.stdout
                let place = "\(path):\(expected.line):\(expected.column): "
                guard let at = shown.range(of: place) else {
                    XCTFail("\(command.joined(separator: " ")): Hurl's parser stops at \(expected.line):\(expected.column) (\(expected.message)); pekit said: \(shown + run.stderr)")
                    continue
                }
                let words = expected.message.components(separatedBy: " Valid values are")[0].components(separatedBy: " must be")[0]
                XCTAssertTrue(shown[at.upperBound...].hasPrefix(words) || shown[at.upperBound...].contains(words), "\(path): Hurl says \"\(expected.message)\"; pekit: \(shown)")
            }
        }
    }
}
