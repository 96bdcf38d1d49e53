import Foundation
import PekitTestSupport
import XCTest

/// The bytes curl 7.88 and `pekit request` send for the same flags (issue 73's list), both
/// received by `pekit serve --echo`, which answers with the request exactly as it came: the
/// same bytes but for a multipart boundary, which each makes at random.
final class CurlFlagBytesTests: XCTestCase {
    func testTheSameBytesAsCurlForTheFlagsPeoplePaste() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let served = try ServeCommandTests.Served(["--echo"])
        let url = "http://127.0.0.1:\(served.port)/p"
        let dir = try makeTemporaryDirectory("pekit-flag-bytes")
        let file = dir.appendingPathComponent("up.txt").path
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: file))
        let cases: [[String]] = [
            ["--url-query", "a=b%20c", "--url-query", "+x=%20", "--url-query", "name@\(file)", url],
            ["-r", "0-3", url], ["--range", "5-", url], ["--oauth2-bearer", "tok", url],
            ["-T", file, url + "/"], ["-T", file, url], ["--form-string", "a=@x", "-F", "b=<\(file)", url],
            ["-u", "ada:pw", "--basic", url], ["--data-urlencode", "a b=c d", "--data-urlencode", "=e&f", url],
            ["-G", "-d", "x=1", "-d", "y=2", url], ["--json", #"{"a":1}"#, url], ["-e", "http://ref/", "-A", "agent", url],
            ["-H", "X-Empty;", "-H", "Accept:", url], ["--compressed", url], ["-X", "PATCH", "--data-binary", "@\(file)", url],
            ["-I", url], ["--no-buffer", "--tr-encoding", url], ["-0", "-d", "x", url],
        ]
        func normalized(_ bytes: [UInt8]) -> String {
            // The boundary is the only part either makes at random.
            String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #"-{2,}[0-9A-Za-z]{8,}"#, with: "--BOUNDARY", options: .regularExpression)
        }
        for flags in cases {
            let theirs = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-A", "UA"] + flags)
            let ours = try PekitProcess.run(["request", "-s", "-A", "UA"] + flags)
            XCTAssertEqual(ours.status, theirs.status, "\(flags): \(ours.stderr)")
            XCTAssertEqual(normalized(ours.stdoutBytes), normalized(theirs.stdoutBytes), "\(flags)")
            XCTAssertFalse(theirs.stdout.isEmpty, "\(flags)")
        }
    }
}
