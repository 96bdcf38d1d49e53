import Foundation
import PekitTestSupport
import XCTest

/// Issue 42: for random JSON bodies, the script `pekit import curl` prints sends exactly the
/// bytes curl sends for the command it came from (empty lists and objects, nesting, non-ASCII,
/// big and small numbers, keys in any order).
final class ImportPropertyTests: XCTestCase {
    static let numbers = ["0", "-0", "1", "-7", "12345678901234567890", "-9223372036854775808", "9223372036854775807",
                          "1.5", "3.0", "1e20", "1E+2", "0.000001", "2.5e-8", "1.7976931348623157e308", "100000000000000000000"]
    static let strings = [#""""#, #""x""#, #""小A""#, #""é""#, #""😀""#, #""a b&c=d""#, #""\u00e9""#, #""\"q\"""#, #""line\nnext""#, #""\/""#]

    static func json(_ g: inout SplitMix, depth: Int) -> String {
        let pick = depth >= 3 ? Int.random(in: 0..<4, using: &g) : Int.random(in: 0..<8, using: &g)
        switch pick {
        case 0: return numbers.randomElement(using: &g) ?? "0"
        case 1: return strings.randomElement(using: &g) ?? "\"\""
        case 2: return ["true", "false", "null"].randomElement(using: &g) ?? "null"
        case 3: return ["[]", "{}"].randomElement(using: &g) ?? "[]"
        case 4, 5:
            return "[" + (0..<Int.random(in: 0...3, using: &g)).map { _ in json(&g, depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            return object(&g, depth: depth + 1)
        }
    }

    static func object(_ g: inout SplitMix, depth: Int) -> String {
        var keys = ["b", "a", "tags", "Z", "名", "a1", "_x", "10", "2"].shuffled(using: &g)
        keys = Array(keys.prefix(Int.random(in: 0...4, using: &g)))
        return "{" + keys.map { "\"\($0)\":" + json(&g, depth: depth) }.joined(separator: ",") + "}"
    }

    func testPrintedScriptsSendCurlsBytesForRandomJSON() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let cases = 40
        let (server, port) = try RequestCommandTests.startEcho(requests: cases * 2)
        defer { server.terminate() }
        var g = SplitMix(seed: 42)
        var asJSON = 0
        for n in 0..<cases {
            let body = Self.object(&g, depth: 0)
            let url = "http://127.0.0.1:\(port)/p"
            let curl = try PekitProcess.output(of: "/usr/bin/curl", ["-s", "-H", "Content-Type: application/json", "--data-raw", body, url])
            let command = "curl -H 'Content-Type: application/json' --data-raw '\(body.replacingOccurrences(of: "'", with: "'\\''"))' \(url)"
            let script = try PekitProcess.run(["import", "curl", "-"], stdin: Array(command.utf8))
            XCTAssertEqual(script.status, 0, script.stderr)
            if script.stdout.contains("\n  json = ") { asJSON += 1 }
            let dir = try makeTemporaryDirectory("import-property")
            let path = dir.appendingPathComponent("s.lua").path
            try script.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            let sent = try PekitProcess.run(["run", path])
            XCTAssertEqual(sent.stderr, "", "case \(n)")
            XCTAssertEqual(String(decoding: sent.stdoutBytes, as: UTF8.self), String(decoding: curl, as: UTF8.self), "case \(n): \(body)\n\(script.stdout)")
        }
        // The property is worth something only if many scripts use json = {...}.
        XCTAssertGreaterThan(asJSON, cases / 4)
    }
}
