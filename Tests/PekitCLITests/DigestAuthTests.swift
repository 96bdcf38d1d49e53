import Foundation
import PekitTestSupport
import XCTest

/// Issue 73 (`--digest`, `--anyauth`): HTTP Digest answered as curl 7.88 answers it. curl's own
/// tests hold the deterministic cases byte for byte (CurlSuiteTests: 64, 88, 154, 174, 175, 1030,
/// 1095, 1204, 1229, 1284, 1285, 1412, 1418, 1437, 2061–2076…); here the cases with a client
/// nonce (qop=auth), which no two runs share: the test server checks each answer with hashlib
/// as RFC 7616 §3.4 computes it, and pekit's Authorization field is curl's, parameter for
/// parameter, the client nonce and the response it goes into aside.
final class DigestAuthTests: XCTestCase {
    private func fields(_ json: String) throws -> [String: String] {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], json)
        XCTAssertEqual(object["ok"] as? Bool, true, json)
        return try XCTUnwrap(object["fields"] as? [String: String])
    }

    func testEachAlgorithmIsAnsweredAsCurlAnswersIt() throws {
        let server = try TestServer.shared()
        for (algorithm, query) in [("MD5", "qop=auth"), ("MD5-sess", "qop=auth&opaque=o%22p"), ("SHA-256", "qop=auth"), ("SHA-256-sess", "qop=auth"),
                                   ("SHA-256", "userhash=1"), ("MD5", "opaque=x")] {
            let url = "\(server.base)/digest/\(algorithm)?\(query)"
            let ours = try PekitProcess.run(["request", "--send", "-u", "ada:pa:ss w0rd", "--digest", url])
            XCTAssertEqual(ours.status, 0, ours.stderr)
            let curl = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-u", "ada:pa:ss w0rd", "--digest", url])
            var a = try fields(ours.stdout), b = try fields(curl.stdout)
            XCTAssertEqual(a.keys.sorted(), b.keys.sorted(), url)
            if a["cnonce"] != nil { for random in ["cnonce", "response"] { a[random] = nil; b[random] = nil } }
            XCTAssertEqual(a, b, url)
        }
    }

    func testAWrongPasswordIsAnsweredOnceAndTheSecond401Returned() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-digest")
        let har = dir.appendingPathComponent("r.har")
        let r = try PekitProcess.run(["request", "--send", "-u", "ada:wrong", "--digest", "--har", har.path, "-o", "/dev/null", "-w", "%{http_code}", "\(server.base)/digest/MD5"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "401")
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: har)) as? [String: Any])
        let entries = try XCTUnwrap((log["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 2)
        let headers = entries.map { (($0["request"] as? [String: Any])?["headers"] as? [[String: String]] ?? []).map { $0["name"] ?? "" } }
        XCTAssertFalse(headers[0].contains("Authorization"))
        XCTAssertTrue(headers[1].contains("Authorization"))
    }

    func testAScriptAsksForDigestByItsSendOption() throws {
        let server = try TestServer.shared()
        let r = try PekitProcess.run(["run", "-e", """
            local r = pekit.http.get("\(server.base)/digest/SHA-256?qop=auth", { auth = { user = "ada", password = "pa:ss w0rd" }, auth_scheme = "digest" })
            print(r.status, r:json().fields.algorithm, r:json().fields.nc)
            print(pekit.http.get("\(server.base)/digest/MD5", { auth = { user = "ada", password = "pa:ss w0rd" } }).status)
            """])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "200\tSHA-256\t00000001\n401\n")
    }
}
