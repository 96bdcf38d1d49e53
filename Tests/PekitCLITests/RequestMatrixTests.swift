import Foundation
import PekitTestSupport
import XCTest

/// Issue 42: one request, whatever the entry point. For each kind of policy (a preset, a shipped
/// plugin whose rules are Lua functions and that extends another, an own plugin with an order
/// function that extends a preset) and each kind of body (parameters in the query, a form body,
/// JSON, multipart), the same request goes out through `pekit request --send`, `pekit.request`
/// in a script, the curl command `pekit request --curl` prints (run by curl itself, imported and
/// sent, and imported as a script and run) and a HAR recording replayed; a loopback server echoes
/// what arrived, and every entry point must have sent the same bytes. Only the multipart
/// boundary, random in each, is set aside.
final class RequestMatrixTests: XCTestCase {
    private static let paramsJSON = #"{"a":[{"b":1},2],"c":"x y&z","d":"汉"}"#
    private static let jsonBody = #"{"k":[1,{"x":"汉"},[],{}]}"#

    private enum Body: CaseIterable { case query, form, json, multipart }

    /// The command line's arguments for a body kind (the parameters too).
    private func arguments(_ body: Body, file: String) -> [String] {
        let params = ["--param-json", #"a=[{"b":1},2]"#, "--param", "c=x y&z", "--param", "d=汉"]
        switch body {
        case .query: return params
        case .form: return ["-X", "POST"] + params
        case .json: return params + ["--json", Self.jsonBody]
        case .multipart: return params + ["-F", "note=hi", "-F", "f=@\(file)"]
        }
    }

    /// The same request as a script writes it.
    private func script(_ body: Body, policy: String, url: String, file: String) -> String {
        var fields = ["url = \(lua(url))", "policy = \(lua(policy))", "params = pekit.json.decode(\(lua(Self.paramsJSON)))"]
        switch body {
        case .query: break
        case .form: fields.append("method = \"POST\"")
        case .json:
            fields += ["method = \"POST\"", "json = pekit.json.decode(\(lua(Self.jsonBody)))",
                       #"headers = { { "Content-Type", "application/json" }, { "Accept", "application/json" } }"#]
        case .multipart:
            fields += ["method = \"POST\"",
                       "multipart = { { name = \"note\", value = \"hi\" }, { name = \"f\", path = \(lua(file)), filename = \"up.txt\", type = \"text/plain\" } }"]
        }
        return "io.write(pekit.request{ \(fields.joined(separator: ", ")) }:send{ follow = false }.body)"
    }

    private func lua(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The bytes with each multipart boundary (named in its Content-Type) replaced by one word.
    private func normalized(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        if let range = text.range(of: #"boundary=[-0-9A-Za-z]+"#, options: .regularExpression) {
            let boundary = String(text[range].dropFirst("boundary=".count))
            text = text.replacingOccurrences(of: boundary, with: "BOUNDARY")
        }
        return text
    }

    func testEveryEntryPointSendsTheSameBytes() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let dir = try makeTemporaryDirectory("matrix")
        let file = dir.appendingPathComponent("up.txt").path
        try "hello\n".write(toFile: file, atomically: true, encoding: .utf8)
        let plugins = dir.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try #"return { kind = "policy", extends = "afnetworking", space = "+", order = function(a, b) return a > b end }"#
            .write(toFile: plugins.appendingPathComponent("backwards-af.lua").path, atomically: true, encoding: .utf8)
        let policies = ["afnetworking", "jquery", "backwards-af"]
        let (server, port) = try RequestCommandTests.startEcho(requests: policies.count * Body.allCases.count * 7)
        defer { server.terminate() }
        let url = "http://127.0.0.1:\(port)/m?x=1"
        let pekit = PekitProcess.binary.path
        var compared = 0
        for policy in policies {
            for body in Body.allCases {
                let name = "\(policy) × \(body)"
                let args = ["--plugins", plugins.path, "--policy", policy] + arguments(body, file: file)
                let sent = try PekitProcess.run(["request", "--send"] + args + [url])
                XCTAssertEqual(sent.status, 0, "\(name): \(sent.stderr)")
                let expected = normalized(Array(sent.stdout.utf8))
                XCTAssertTrue(expected.hasPrefix(body == .query ? "GET /m?x=1&" : "POST /m?x=1"), "\(name): \(expected)")

                let fromLua = try PekitProcess.run(["run", "--plugins", plugins.path, "-e", script(body, policy: policy, url: url, file: file)])
                XCTAssertEqual(fromLua.stderr, "", name)
                XCTAssertEqual(normalized(Array(fromLua.stdout.utf8)), expected, "\(name): pekit.request")

                // The curl command pekit prints, run by curl, then by pekit import (sent, and as a
                // script): `curl` in the shell is a function that hands its words to pekit, quoted.
                let rendered = try PekitProcess.run(["request", "--curl"] + args + [url])
                XCTAssertEqual(rendered.status, 0, "\(name): \(rendered.stderr)")
                let command = rendered.stdout
                let byCurl = try PekitProcess.output(of: "/bin/bash", ["-c", command])
                XCTAssertEqual(normalized(byCurl), expected, "\(name): curl")
                let imported = try PekitProcess.output(of: "/bin/bash", ["-c", #"curl() { "$0" import curl --send "curl $(printf '%q ' "$@")"; }; "# + command, pekit])
                XCTAssertEqual(normalized(imported), expected, "\(name): import curl --send")
                let scriptFile = dir.appendingPathComponent("imported.lua").path
                let asScript = try PekitProcess.output(of: "/bin/bash", ["-c", #"script="$1"; curl() { "$0" import curl "curl $(printf '%q ' "$@")" > "$script" && "$0" run "$script"; }; "# + command, pekit, scriptFile])
                XCTAssertEqual(normalized(asScript), expected, "\(name): the script import curl prints")

                // Recorded as HAR, then replayed: the echoed request is the recorded response's
                // body exactly when the replay sent the recorded bytes.
                let har = dir.appendingPathComponent("m.har").path
                let recorded = try PekitProcess.run(["request", "--send", "--har", har] + args + [url])
                XCTAssertEqual(normalized(Array(recorded.stdout.utf8)), expected, name)
                let replayed = try PekitProcess.run(["har", "replay", har, "--compare", "body"])
                XCTAssertEqual(replayed.status, 0, "\(name): har replay: \(replayed.stdout) \(replayed.stderr)")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 12)
    }
}
