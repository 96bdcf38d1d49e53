import Foundation
import XCTest

/// Issue 69: curl's own test suite as the peer. `Fixtures/curl-suite` holds the HTTP cases of
/// curl's `tests/data` that curl 7.88 runs (scripts/curl-suite-fixtures wrote them, naming the
/// commit, and recorded what the installed curl sent to `Tests/Server/curl_replay.py`, a replay
/// of curl's test server). Each case's command goes through `pekit import curl --send` against
/// the same replay, and every request of the conversation must be curl's, byte for byte, with
/// curl's exit status. Where curl wrote the same on its three recorded runs, what pekit writes
/// (standard output, the `--output` file) is compared too: a case whose requests are curl's but
/// whose output is not is listed in `known-output-differences.json` (that list only shrinks).
///
/// A case pekit refuses (it names a curl feature it does not take, and sends nothing) is
/// counted apart, never as the same, and each refused feature must be listed with its reason
/// in docs/requests-and-sending.md. A case that differs must be in `known-differences.json`
/// with the reason (the issue's list of what is left), and a case listed there must still
/// differ: the list only shrinks.
final class CurlSuiteTests: XCTestCase {
    private static let folder = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCLITests/Fixtures/curl-suite")

    private struct Verdict: Decodable {
        let test: Int
        let verdict: String
        let detail: String
    }

    func testCurlsOwnHTTPCasesSendCurlsBytes() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("curl-suite-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = PekitProcess.packageRoot.appendingPathComponent("Tests/Server/curl_replay.py").path
        let run = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/env"),
                                       ["python3", script, "compare", "--fixtures", Self.folder.path,
                                        "--pekit", PekitProcess.binary.path, "--jobs", "4", "--json", output.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let verdicts = try JSONDecoder().decode([Verdict].self, from: Data(contentsOf: output))
        let cases = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasPrefix("test") }
        XCTAssertEqual(verdicts.count, cases.count, "every fixture ran")
        XCTAssertGreaterThan(verdicts.count, 600)

        let known = try JSONDecoder().decode([String: String].self,
                                             from: Data(contentsOf: Self.folder.appendingPathComponent("known-differences.json")))
        for verdict in verdicts where verdict.verdict == "differs" && known[String(verdict.test)] == nil {
            XCTFail("curl's test \(verdict.test) differs: \(verdict.detail)")
        }
        let byNumber = Dictionary(uniqueKeysWithValues: verdicts.map { ($0.test, $0) })
        for (number, reason) in known.sorted(by: { $0.key < $1.key }) {
            let now = byNumber[Int(number) ?? -1]
            XCTAssertEqual(now?.verdict, "differs",
                           "curl's test \(number) is listed as differing (\(reason)) but is now \(now?.verdict ?? "not a fixture"): take it off the list")
        }
        // What pekit writes (standard output, the -o file) where it sends curl's requests: the
        // cases whose output still differs are listed by what differs, and the list only shrinks.
        let knownOutput = try JSONDecoder().decode([String: String].self,
                                                   from: Data(contentsOf: Self.folder.appendingPathComponent("known-output-differences.json")))
        for verdict in verdicts where verdict.verdict == "output" && knownOutput[String(verdict.test)] == nil {
            XCTFail("curl's test \(verdict.test) sends curl's requests but writes other output: \(verdict.detail)")
        }
        for (number, reason) in knownOutput.sorted(by: { $0.key < $1.key }) {
            let now = byNumber[Int(number) ?? -1]
            XCTAssertEqual(now?.verdict, "output",
                           "curl's test \(number) is listed as writing other output (\(reason)) but is now \(now?.verdict ?? "not a fixture"): take it off the list")
        }

        let docs = try String(contentsOf: PekitProcess.packageRoot.appendingPathComponent("docs/requests-and-sending.md"), encoding: .utf8)
        let section = docs.components(separatedBy: "### What curl's test suite finds").dropFirst().first ?? ""
        XCTAssertFalse(section.isEmpty, "docs/requests-and-sending.md has the section on curl's test suite")
        for feature in Set(verdicts.filter { $0.verdict == "refused" }.map(\.detail)).sorted() {
            XCTAssertTrue(section.contains("`\(feature)`"), "the refused curl feature \(feature) is listed, with why, in docs/requests-and-sending.md")
        }
        let count = { (kind: String) in verdicts.filter { $0.verdict == kind }.count }
        print("curl's test suite: \(count("same")) the same as curl 7.88 (requests, status and output), \(count("output")) the same requests and status but other output, \(count("newer")) as a newer curl, \(count("refused")) refused, \(count("differs")) differ, of \(verdicts.count)")
    }
}
