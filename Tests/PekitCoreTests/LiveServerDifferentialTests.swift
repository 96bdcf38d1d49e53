import Foundation
import XCTest
@testable import PekitCore

/// The models against the real servers on inputs none of the fixtures hold: each run draws a
/// new seed, has the fixtures' own generators (Fixtures/*/make_*_vectors.py) make their random
/// inputs from it and run PHP (`php -S`, `php`), Rack (and WEBrick), node's qs, `cookie` and
/// `http`, Python and Go on them here, then compares every model with what its server read. A
/// failure names the seed: `PEKIT_LIVE_SEED=N swift test --filter LiveServerDifferentialTests`
/// runs the same inputs again (`make_*_vectors.py --seed N --out FILE` writes them).
final class LiveServerDifferentialTests: XCTestCase {
    /// A new seed each run, or PEKIT_LIVE_SEED's.
    static var seed: Int { ProcessInfo.processInfo.environment["PEKIT_LIVE_SEED"].flatMap { Int($0) } ?? Int.random(in: 1...1_000_000_000) }

    /// Runs `script` with `seed`, its vectors written to a temporary file; the file.
    func vectors(_ script: String, seed: Int) throws -> URL {
        for program in ["php", "ruby", "go", "node"] where !FileManager.default.isExecutableFile(atPath: "/usr/bin/" + program) {
            XCTFail("\(program) is not installed: scripts/test installs the real servers (php-cli, ruby-rack, ruby-webrick, golang-go, node-qs, node-cookie)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pekit-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("vectors.json")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("Fixtures/" + script).path, "--seed", String(seed), "--out", out.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(script) --seed \(seed): " + String(decoding: stderr, as: UTF8.self))
        return out
    }

    func testQueriesReadAsTheRealServersReadThem() throws {
        let seed = Self.seed
        let (count, _, failures) = try QueryServerPeerTests.compare(url: vectors("servers/make_server_vectors.py", seed: seed))
        XCTAssertGreaterThan(count, 5000)
        XCTAssert(failures.isEmpty, "seed \(seed): \(failures.count) of \(count) differ:\n" + failures.prefix(20).joined(separator: "\n"))
    }

    func testCookieHeadersReadAsTheRealServersReadThem() throws {
        let seed = Self.seed
        let (count, failures) = try CookieServerPeerTests.compare(url: vectors("cookie-servers/make_cookie_vectors.py", seed: seed))
        XCTAssertGreaterThan(count, 1500)
        XCTAssert(failures.isEmpty, "seed \(seed): \(failures.count) differ:\n" + failures.prefix(20).joined(separator: "\n"))
    }

    func testMultipartBodiesReadAsTheRealServersReadThem() throws {
        let seed = Self.seed
        let (count, failures) = try MultipartServerPeerTests.compare(url: vectors("multipart-servers/make_multipart_vectors.py", seed: seed))
        XCTAssertGreaterThan(count, 400)
        XCTAssert(failures.isEmpty, "seed \(seed): \(failures.count) differ:\n" + failures.prefix(20).joined(separator: "\n"))
    }

    func testHeaderFieldsGivenAsTheRealServersGiveThem() throws {
        let seed = Self.seed
        let (count, failures) = try HeaderServerPeerTests.compare(url: vectors("header-servers/make_header_vectors.py", seed: seed))
        XCTAssertGreaterThan(count, 150)
        XCTAssert(failures.isEmpty, "seed \(seed): \(failures.count) differ:\n" + failures.prefix(20).joined(separator: "\n"))
    }
}
