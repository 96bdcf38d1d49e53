import Foundation
import PekitTestSupport
import XCTest

/// Issue 72 ("byte-identical"): import, export back, import again: the same bytes. Postman's own
/// collections are sent (pekit test, recorded to a HAR), exported as curl commands, a .http file,
/// a Hurl file and a Postman collection, and each is sent again: by curl itself for the commands,
/// by pekit test for the files and for what pekit import prints for them. Every request must
/// reach the recorder byte for byte as the first time (Tests/Server/export_roundtrip.py); a
/// format that cannot hold a request refuses it, with the reason the format's own rules give.
final class ExportTests: XCTestCase {
    func testEveryFormatSendsWhatWasSentOrSaysWhyNot() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("roundtrip-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = PekitProcess.packageRoot.appendingPathComponent("Tests/Server/export_roundtrip.py").path
        let run = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/python3"), [script, "--pekit", PekitProcess.binary.path, "--json", output.path])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let results = try JSONDecoder().decode([String: [String: String]].self, from: Data(contentsOf: output))
        XCTAssertEqual(results.count, 10)
        // What a .http file cannot hold: a body with lone LF line ends among CR LF ones (a
        // multipart part's text file, an XML body written with CR LF) and WebDAV's methods.
        let refusedHTTP = ["basicCollection.json": "entry 8: the body's line ends are mixed",
                           "formdataFileCollection.json": "entry 1: the body's line ends are mixed",
                           "unsupportedMethods.json": "entry 1: LINK is not a method a .http file takes",
                           "curlUnitCollection.json": "entry 16: LINK is not a method a .http file takes"]
        for (collection, verdicts) in results.sorted(by: { $0.key < $1.key }) {
            for format in ["curl", "http", "hurl", "postman"] {
                let verdict = verdicts[format] ?? "missing"
                if format == "http", let why = refusedHTTP[collection] {
                    XCTAssertTrue(verdict.hasPrefix("refused: pekit export: ") && verdict.contains(why), "\(collection) as \(format): \(verdict)")
                } else {
                    XCTAssertEqual(verdict, "same", "\(collection) as \(format)")
                }
            }
        }
    }

    /// Each refusal names the entry and the rule of the format that would read the request
    /// otherwise, and nothing is written.
    func testRefusalsNameTheEntryAndTheRule() throws {
        let dir = try makeTemporaryDirectory("pekit-export")
        let agent = [("User-Agent", "t/1"), ("Accept", "*/*")]
        func har(_ url: String, headers: [(String, String)] = [], body: String? = nil, base64: Bool = false, defaults: Bool = true) throws -> String {
            var request: [String: Any] = ["method": "POST", "url": url, "httpVersion": "HTTP/1.1",
                                          "headers": ((defaults ? agent : []) + headers).map { ["name": $0.0, "value": $0.1] }]
            if let body { request["postData"] = ["mimeType": "application/octet-stream", "text": body] .merging(base64 ? ["encoding": "base64"] : [:]) { a, _ in a } }
            let log: [String: Any] = ["log": ["version": "1.2", "creator": ["name": "t", "version": "1"], "entries": [
                ["startedDateTime": "2026-01-01T00:00:00Z", "time": 0, "request": ["method": "GET", "url": "http://h/a", "httpVersion": "HTTP/1.1",
                                                                      "headers": agent.map { ["name": $0.0, "value": $0.1] }]],
                ["startedDateTime": "2026-01-01T00:00:00Z", "time": 0, "request": request]]]]
            let path = dir.appendingPathComponent("x.har")
            try JSONSerialization.data(withJSONObject: log).write(to: path)
            return path.path
        }
        func export(_ format: String, _ file: String) throws -> PekitResult { try PekitProcess.run(["export", format, file]) }
        var r = try export("http", try har("http://h/", headers: [("X-T", "{{x}}")]))
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.hasSuffix("x.har: entry 2: the field X-T holds {{, which a .http file reads as a variable (export as hurl)\n"), r.stderr)
        r = try export("postman", try har("http://h/", headers: [("Content-Type", "application/octet-stream")], body: "AP8=", base64: true))
        XCTAssertTrue(r.stderr.hasSuffix("x.har: entry 2: the body is not UTF-8 text, which a Postman raw body must be (export as hurl or curl)\n"), r.stderr)
        r = try export("postman", try har("http://h/s?q=it's"))
        XCTAssertTrue(r.stderr.hasSuffix("x.har: entry 2: the query parameter 'q' holds a character Postman's code generator would encode (only letters, digits and -_.!~*()[]{}+% go as written)\n"), r.stderr)
        r = try export("http", try har("http://h/", headers: [("Content-Type", "text/plain")], body: "# not a comment"))
        XCTAssertTrue(r.stderr.hasSuffix("x.har: entry 2: the body line '# not a comment' would read as a comment, a file, a handler or the next request in a .http file (export as hurl)\n"), r.stderr)
        // The same requests in Hurl: the escapes Hurl's grammar reads back (a `{` that could start
        // a placeholder, a `#` that would start a comment), the body in base64.
        r = try export("hurl", try har("http://h/a", headers: [("X#Y", "a#b\\{c"), ("Content-Type", "text/plain")], body: "# not a comment"))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("POST http://h/a\nHost: h\nUser-Agent: t/1\nAccept: */*\nX\\#Y: a\\#b\\\\\\u{7b}c\n"), r.stdout)
        // And pekit's Hurl reader reads them back as they were.
        let hurl = dir.appendingPathComponent("x.hurl")
        try Data(r.stdout.utf8).write(to: hurl)
        let lua = try PekitProcess.run(["import", "hurl", hurl.path])
        XCTAssertTrue(lua.stdout.contains(#"{ "X#Y", "a#b\\{c", "#), lua.stdout)
        XCTAssertTrue(r.stdout.contains("\nbase64,IyBub3QgYSBjb21tZW50;\n"), r.stdout)
        // A request without the fields each tool adds of its own: only curl can leave them out.
        r = try export("hurl", try har("http://h/", defaults: false))
        XCTAssertTrue(r.stderr.hasSuffix("x.har: entry 2: it was sent with no User-Agent field, and Hurl sends one of its own (export as curl, which can leave it out)\n"), r.stderr)
        r = try export("curl", try har("http://h/", defaults: false))
        XCTAssertTrue(r.stdout.hasSuffix("\ncurl --http1.1 --request POST http://h/ -H 'Host: h' -H User-Agent: -H Accept:\n"), r.stdout)
        r = try PekitProcess.run(["export", "yaml", "x.har"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr, "pekit export: give a format (curl, http, hurl, postman) and a HAR file: pekit export hurl run.har (see 'pekit export --help')\n")
    }
}

extension ExportTests {
    /// The property on random requests (export_roundtrip.py --random: methods, targets, fields
    /// and bodies of random bytes, text, line ends, `{{`, `#`, `\`, with and without the fields
    /// the tools add), each first sent by `pekit har replay`: every format sends each exactly so
    /// or refuses it, never sends something else; curl commands hold every one.
    func testRandomRequestsRoundTripOrAreRefused() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("roundtrip-random-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = PekitProcess.packageRoot.appendingPathComponent("Tests/Server/export_roundtrip.py").path
        let run = try PekitProcess.run(program: URL(fileURLWithPath: "/usr/bin/python3"),
                                       [script, "--pekit", PekitProcess.binary.path, "--random", "40", "--seed", "72", "--json", output.path])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        struct Report: Decodable { let counts: [String: [String: Int]]; let requests: [String: [String: String]] }
        let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: output))
        XCTAssertEqual(report.requests.count, 40)
        for (number, verdicts) in report.requests.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(verdicts.count, 4, "request \(number): \(verdicts)")
            for (format, verdict) in verdicts where verdict != "same" && !verdict.hasPrefix("refused: pekit export: ") {
                XCTFail("request \(number) as \(format): \(verdict)")
            }
        }
        XCTAssertEqual(report.counts["curl"]?["same"], 40)
        // Each format carries most of what it can: the refusals are the format's own limits.
        for format in ["http", "hurl", "postman"] { XCTAssertGreaterThanOrEqual(report.counts[format]?["same"] ?? 0, 15, format) }
    }
}
