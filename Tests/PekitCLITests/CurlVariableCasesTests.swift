import Foundation
import XCTest

/// Issue 73: curl 8.3's `--variable` and `--expand-OPTION` (with 8.12's byte ranges and 8.13's
/// `64dec`), held to curl's own tests: curl 7.88 here cannot run them, so
/// `Fixtures/curl8-variables` (scripts/curl-suite-fixtures --variables, naming curl's commit)
/// holds what each test expects instead of a recording: its exit status and, where it has one,
/// its `<protocol>`, byte for byte. Each case goes through `pekit import curl --send` against
/// curl's replayed test server, as CurlSuiteTests' cases do.
final class CurlVariableCasesTests: XCTestCase {
    private struct Verdict: Decodable { let test: Int; let verdict: String; let detail: String }

    func testCurlsVariableCasesDoWhatItsTestsExpect() throws {
        let folder = PekitProcess.packageRoot.appendingPathComponent("Tests/PekitCLITests/Fixtures/curl8-variables")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("curl8-variables-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = PekitProcess.packageRoot.appendingPathComponent("Tests/Server/curl_replay.py").path
        let run = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/env"),
                                       ["python3", script, "expect", "--fixtures", folder.path, "--pekit", PekitProcess.binary.path,
                                        "--jobs", "4", "--json", output.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let verdicts = try JSONDecoder().decode([Verdict].self, from: Data(contentsOf: output))
        XCTAssertEqual(verdicts.count, 22)
        for verdict in verdicts where verdict.verdict != "same" {
            XCTFail("curl's test \(verdict.test): \(verdict.detail)")
        }
    }

    /// `pekit request` takes them too, and says where a name or a function is wrong.
    func testRequestTakesTheVariablesAndNamesWhatIsWrong() throws {
        let ok = try PekitProcess.run(["request", "--variable", "who= a b ", "--expand-data", "n={{who:trim:url}}&j={{who:json}}&b={{who:b64}}",
                                       "--expand-url", "http://h/{{who:trim:url}}"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        // trim: the spaces around it; url: each byte but A-Z a-z 0-9 - . _ ~ escaped; json: as
        // a JSON string's inside; b64: RFC 4648 (" a b " is IGEgYiA=).
        XCTAssertTrue(ok.stdout.hasPrefix("POST /a%20b HTTP/1.1\r\nHost: h\r\n"), ok.stdout)
        XCTAssertTrue(ok.stdout.hasSuffix("\r\n\r\nn=a%20b&j= a b &b=IGEgYiA="), ok.stdout)
        let unset = try PekitProcess.run(["request", "--variable", "%PEKIT_SURELY_UNSET_VARIABLE", "http://h/"])
        XCTAssertEqual(unset.status, 2)
        XCTAssertTrue(unset.stderr.contains("PEKIT_SURELY_UNSET_VARIABLE is not set"), unset.stderr)
        let function = try PekitProcess.run(["request", "--variable", "a=1", "--expand-data", "{{a:upper}}", "http://h/"])
        XCTAssertEqual(function.status, 2)
        XCTAssertTrue(function.stderr.contains("unknown variable function in '{{a:upper}}'"), function.stderr)
    }
}
