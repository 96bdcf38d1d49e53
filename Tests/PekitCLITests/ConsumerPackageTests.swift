import Foundation
import PekitTestSupport
import XCTest

/// A package that depends on pekit by path, in Swift 6 mode with every warning an error, doing
/// the five tasks of issue 45 and the sixth of issue 76 (Tests/Consumer): it builds, and prints what they give.
final class ConsumerPackageTests: XCTestCase {
    func testASwift6PackageDoesTheFiveTasks() throws {
        let root = PekitProcess.packageRoot.path
        // SwiftPM's cached build plan of a path dependency can miss a source file added to (or
        // moved in) pekit since the last build: the scratch directory is made afresh only when
        // the list of source files or the manifest changed (its fingerprint kept beside it), and
        // kept otherwise, so that a run builds only what changed (issue 70).
        let fingerprint = try Self.sourceListFingerprint(root: root)
        let stamp = root + "/.build/consumer/.pekit-source-list"
        let fresh = (try? String(contentsOfFile: stamp, encoding: .utf8)) != fingerprint
        let build = try PekitProcess.runShell("cd '\(root)' && \(fresh ? "rm -rf .build/consumer && " : "")swift build --package-path Tests/Consumer --scratch-path .build/consumer -Xswiftc -warnings-as-errors 2>&1; echo \"status $?\"")
        if build.hasSuffix("status 0\n") { try fingerprint.write(toFile: stamp, atomically: true, encoding: .utf8) }
        XCTAssertTrue(build.hasSuffix("status 0\n"), build)
        XCTAssertFalse(build.contains("warning:"), build)

        let server = try TestServer.shared()
        let directory = try makeTemporaryDirectory("consumer")
        let output = String(decoding: try PekitProcess.output(of: root + "/.build/consumer/debug/consumer", [server.base, directory.path]), as: UTF8.self)

        // botocore's signature for the same request, key and time (Fixtures/sigv4-vectors.json).
        let fixtures = URL(fileURLWithPath: root).appendingPathComponent("Tests/PekitCryptoTests/Fixtures/sigv4-vectors.json")
        let vectors = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: fixtures)) as? [String: Any])
        let first = try XCTUnwrap((vectors["vectors"] as? [[String: Any]])?.first)
        let authorization = try XCTUnwrap((first["signed_headers"] as? [[String]])?.first { $0[0] == "Authorization" }?[1])

        // docs/swift.md shows the first three tasks' lines as the program prints them.
        let guide = try String(contentsOf: URL(fileURLWithPath: root).appendingPathComponent("docs/swift.md"), encoding: .utf8)
        let shown = try XCTUnwrap(guide.components(separatedBy: "print, as the test holds them").dropFirst().first?.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "\n```").first)
        XCTAssertTrue(output.hasPrefix(shown + "\n"), "docs/swift.md's output of the consumer differs from what it prints:\n\(output)")
        // And the first program's lines (task 6).
        let program = try XCTUnwrap(guide.components(separatedBy: "prints, as the test holds them").dropFirst().first?.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "\n```").first)
        XCTAssertTrue(program.hasPrefix("6 ") && output.contains("\n" + program + "\n"), "docs/swift.md's first program prints otherwise:\n\(output)")
        XCTAssertEqual(output.components(separatedBy: "\n"), [
            "1 query: page=2&q=caf%C3%A9%20%26%20co&tags%5B%5D=a&tags%5B%5D=b",
            "1 php: true",
            "1 qs: {\"page\":\"2\",\"q\":\"café & co\",\"tags\":[\"a\",\"b\"]}",
            "2 receive: Set-Cookie sid: stored for host www.example.com, path /",
            "2 receive: Set-Cookie _ga: refused (filter): refused by the filter \"no trackers\"",
            "2 receive: Set-Cookie wide: refused (public-suffix): Domain=com is a public suffix",
            "2 loaded: sid=1",
            "3 curl: curl --http1.1 'BASE/cookies/set?token=x%20y' -H 'Host: HOST' -H 'User-Agent: pekit/0.1.0 (Linux; x86_64)' -H 'Accept: */*'",
            "3 sent: [200, 200, 200, 200, 200] jar: [\"token=x y\"]",
            "4 sigv4: \(authorization)",
            "4 jwt: u1",
            "5 url: http://127.0.0.1/b?x=1%202 127.0.0.1",
            "5 refused: the host holds the forbidden code point U+0020 (at code point 11)",
            "6 sent: 200 jar: [\"session=abc\"]",
            "6 decoded: POST /echo?page=2 session=abc",
            "6 refused: cannot read the body of BASE/echo?page=2 (status 200) as Wrong: at $['body_length']: expected a string, found integer",
            "6 streamed: 200 48192 bytes in more than one chunk: true",
            "",
        ])
    }

    /// The consumer's list of pekit's public type names (used unqualified beside the stand-ins of
    /// Alamofire, NIO, AsyncHTTPClient, swift-http-types, SwiftyJSON and Firebase) is pekit's
    /// list today: a type added to pekit is added there, where a clash fails the build above.
    func testTheConsumerNamesEveryPublicType() throws {
        let check = try PekitProcess.runShell("cd '\(PekitProcess.packageRoot.path)' && python3 scripts/ecosystem-names pekit --check 2>&1; echo \"status $?\"")
        XCTAssertEqual(check, "PekitNames.swift is current\nstatus 0\n")
    }

    /// Every file under Sources/ and Tests/Consumer (paths, not contents: SwiftPM follows a
    /// changed file itself) and the manifests' text, as one string.
    static func sourceListFingerprint(root: String) throws -> String {
        var lines: [String] = []
        for folder in ["Sources", "Tests/Consumer"] {
            let files = FileManager.default.enumerator(atPath: root + "/" + folder)?.compactMap { $0 as? String } ?? []
            lines += files.filter { !$0.hasPrefix(".build") }.map { folder + "/" + $0 }.sorted()
        }
        lines.append(try String(contentsOfFile: root + "/Package.swift", encoding: .utf8))
        lines.append(try String(contentsOfFile: root + "/Tests/Consumer/Package.swift", encoding: .utf8))
        return lines.joined(separator: "\n")
    }
}
