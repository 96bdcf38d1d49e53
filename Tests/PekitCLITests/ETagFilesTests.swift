import Foundation
import PekitTestSupport
import XCTest

/// Issue 73 (`--etag-save`, `--etag-compare`): the files as curl 7.88 writes and reads them, the
/// installed curl the peer (curl's own tests hold the requests: 339–347, 473, 1566, 1619, 3204).
final class ETagFilesTests: XCTestCase {
    func testETagFilesAreCurls() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-etag")
        func canned(_ response: String) -> String {
            server.base + "/canned?b=" + Data(response.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        let curl = URL(fileURLWithPath: "/usr/bin/curl")
        for (name, response) in [("weak", "HTTP/1.1 200 OK\r\nETag:   W/\"hey hey\"  \r\nContent-Length: 2\r\n\r\nok"),
                                 ("none", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")] {
            let ours = dir.appendingPathComponent("ours-" + name), theirs = dir.appendingPathComponent("theirs-" + name)
            let r = try PekitProcess.run(["request", "--send", "-o", "/dev/null", "--etag-save", ours.path, canned(response)])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try PekitProcess.run(program: curl, ["-s", "-o", "/dev/null", "--etag-save", theirs.path, canned(response)]).status, 0)
            XCTAssertEqual(try Data(contentsOf: ours), try Data(contentsOf: theirs), name)
        }
        // A file with CR LF line ends and two lines: what each sends as If-None-Match.
        let tags = dir.appendingPathComponent("tags")
        try Data("\"a\"\r\n\"b\"\n".utf8).write(to: tags)
        let ours = try PekitProcess.run(["request", "--send", "--etag-compare", tags.path, server.base + "/echo"])
        let theirs = try PekitProcess.run(program: curl, ["-s", "--etag-compare", tags.path, server.base + "/echo"])
        func field(_ json: String) -> String? {
            let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
            return (object?["headers"] as? [[String]])?.first { $0[0] == "If-None-Match" }?[1]
        }
        XCTAssertEqual(field(ours.stdout), field(theirs.stdout))
        XCTAssertEqual(field(ours.stdout), "\"a\"\"b\"")
    }
}
