import Foundation
import FoundationXML
import PekitTestSupport
import XCTest

/// Issue 68: a secret reaches no output in any form pekit's writers give it. Each secret below
/// needs one kind of escaping from one writer: shell quoting and printf's format in a curl line,
/// XML in JUnit, percent-encoding under another policy and in a URL, GitHub's annotation
/// escapes, JSON inside YAML, and a multi-line key whose lines are indented. The forms a secret
/// could leak in are written here by this test's own escapers, each the textbook rule.
final class SecretFormsTests: XCTestCase {
    static let pem = "-----BEGIN KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASC\nAT8wggE7AgEAAkEAq7BFUpkGp3+XQ\n-----END KEY-----"
    static let secrets: [(String, String)] = [
        ("PW", "Pw&x(y)!"), ("QUOTE", "it's-a-Pa55"), ("UML", "gr%\u{fc}n\\d"), ("PHP", "a~b*c d"),
        ("XML", "a&b<c\"d>"), ("PEM", pem),
    ]

    // The textbook escapes, one a writer.
    static func percent(_ s: String, keep: String = "-._~", space: String? = nil) -> String {
        var out = ""
        for b in s.utf8 {
            let c = Character(Unicode.Scalar(b))
            if c.isASCII && (c.isLetter || c.isNumber || keep.contains(c)) { out.append(c) }
            else if b == 0x20, let space { out += space }
            else { out += String(format: "%%%02X", b) }
        }
        return out
    }
    static func shellSingleQuoted(_ s: String) -> String { s.replacingOccurrences(of: "'", with: "'\\''") }
    static func printfFormat(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case 0x25: out += "%%"
            case 0x27: out += "\\047"
            case 0x5C: out += "\\\\"
            case 0x20..<0x7F: out.append(Character(Unicode.Scalar(b)))
            default: out += "\\" + String(format: "%03o", b)
            }
        }
        return out
    }
    static func xml(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
    static func github(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }
    static func json(_ s: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])
        return String(decoding: data.dropFirst(2).dropLast(2), as: UTF8.self)
    }

    /// Every form a secret may take in one writer's output, and each line of a multi-line one.
    static func forms(_ value: String) -> [String] {
        var units = [value]
        let lines = value.split(separator: "\n").map(String.init)
        if lines.count > 1 { units += lines }
        var out: [String] = []
        for u in units {
            let encoded = [percent(u), percent(u, space: "+"), percent(u, keep: "-._"), percent(u, keep: "-._~!$'()*,;:@/?")]
            out += [u, shellSingleQuoted(u), printfFormat(u), xml(u), json(u), json(json(u)), xml(json(u)), github(u)]
            out += encoded + encoded.map(printfFormat) + encoded.map(github)
        }
        return Array(Set(out.filter { $0.count >= 4 }))
    }

    func testNoWriterLeaksASecretInAnyOfItsForms() throws {
        let dir = try makeTemporaryDirectory("pekit-secret-forms")
        try #"""
            local v = pekit.vars
            test("leaks", function()
              print(pekit.request{ method = "POST", url = "http://h/x?q=" .. pekit.encode(v.PHP), params = { pw = v.PW } }:curl())
              print(pekit.request{ url = "http://h/x", headers = { ["X-A"] = v.QUOTE } }:curl())
              print(pekit.request{ method = "POST", url = "http://h/x", body = v.UML .. "\0" }:curl())
              print(pekit.query.encode({ t = v.PHP }, "php"), "http://h/" .. pekit.encode(v.PHP))
              print("key:\n" .. v.PEM)
              error("xml " .. v.XML .. " " .. pekit.json.encode({ q = v.XML, u = v.UML }) .. " http://h/?t=" .. pekit.encode(v.PHP) .. "\n" .. v.PEM)
            end)
            """#.write(to: dir.appendingPathComponent("s_test.lua"), atomically: true, encoding: .utf8)
        var args = ["test", "--report", "tap", "--report", "github", "--report", "junit:r.xml", "--report", "json:r.json"]
        for (name, value) in Self.secrets { args += ["--secret", "\(name)=\(value)"] }
        let r = try PekitProcess.run(args + ["."], directory: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        var written: [(String, String)] = [("stdout", r.stdout), ("stderr", r.stderr)]
        for name in ["r.xml", "r.json"] { written.append((name, try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8))) }
        for (_, value) in Self.secrets {
            for form in Self.forms(value) {
                for (name, text) in written { XCTAssertFalse(text.contains(form), "\(name) holds \(form.debugDescription)") }
            }
        }
        // What was redacted says so, in each writer's own syntax.
        XCTAssertTrue(r.stdout.contains("printf 'pw=<secret PW>' | curl"), r.stdout)
        XCTAssertTrue(r.stdout.contains("-H 'X-A: <secret QUOTE>'"), r.stdout)
        XCTAssertTrue(r.stdout.contains("printf '<secret UML>\\000' | curl"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  t=<secret PHP>\thttp://h/<secret PHP>\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("      key:\n" + String(repeating: "      <secret PEM>\n", count: 4)), r.stdout)
        // The annotation's message, then (%0A) the rest of the explanation.
        XCTAssertTrue(r.stdout.contains("::error file=./s_test.lua,line=8,title=leaks::./s_test.lua:8: xml <secret XML> {\"q\":\"<secret XML>\",\"u\":\"<secret UML>\"} http://h/?t=<secret PHP>" + String(repeating: "%0A<secret PEM>", count: 4) + "%0A"), r.stdout)
        // The JUnit report is still XML, and reads back as the placeholder.
        let junit = try Data(contentsOf: dir.appendingPathComponent("r.xml"))
        let parser = XMLParser(data: junit)
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        XCTAssertTrue(String(decoding: junit, as: UTF8.self).contains("xml &lt;secret XML&gt; {&quot;q&quot;:&quot;&lt;secret XML&gt;&quot;"))
    }

    /// Issue 68: a binary body holding a secret became `"text": "<secret TOK>"` still marked
    /// `"encoding": "base64"`. The body is redacted inside its bytes and stays base64.
    func testAHARsBase64BodiesAreRedactedInsideAndStayBase64() throws {
        let server = try TestServer.shared()
        let dir = try makeTemporaryDirectory("pekit-secret-har")
        let script = #"pekit.http.post(pekit.vars.URL, { body = "\0\255bin " .. pekit.vars.TOK .. " end\0" })"#
        let r = try PekitProcess.run(["run", "--secret", "TOK=hunter2-token", "--var", "URL=\(server.base)/echo", "--har", "r.har", "-e", script], directory: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let har = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("r.har"))) as? [String: Any])
        let entries = try XCTUnwrap((har["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let post = try XCTUnwrap((entries.first?["request"] as? [String: Any])?["postData"] as? [String: Any])
        XCTAssertEqual(post["encoding"] as? String, "base64")
        let decoded = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(post["text"] as? String)))
        XCTAssertEqual(decoded, Data([0, 0xFF] + Array("bin <secret TOK> end".utf8) + [0]))
    }
}
