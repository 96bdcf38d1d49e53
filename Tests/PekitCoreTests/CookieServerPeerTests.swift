import Foundation
import XCTest
@testable import PekitCore

/// Every cookie parser model against what the real server read from the same Cookie header
/// (Fixtures/cookie-servers/make_cookie_vectors.py ran PHP's built-in server, Rack, Python,
/// Go's net/http and node's `cookie`, on 1,624 headers: chosen ones and random ones).
final class CookieServerPeerTests: XCTestCase {
    func testEveryCookieModelReadsWhatItsServerReads() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "cookie-vectors", withExtension: "json", subdirectory: "Fixtures/cookie-servers"))
        let (count, failures) = try Self.compare(url: url)
        XCTAssertEqual(count, 1624)
        XCTAssert(failures.isEmpty, "\(failures.count) differ:\n" + failures.prefix(40).joined(separator: "\n"))
    }

    /// Every vector of the file at `url` read by each model: how many, and each difference.
    static func compare(url: URL) throws -> (count: Int, failures: [String]) {
        guard case .array(let vectors) = try JSONText.parse(Data(contentsOf: url)) else { return (0, ["not a list"]) }
        var failures: [String] = []
        for case .map(let vector) in vectors {
            guard case .string(let hex)? = vector["header_hex"], case .map(let expected)? = vector["expected"] else { return (0, ["bad vector"]) }
            let header = stride(from: 0, to: hex.bytes.count, by: 2).map { UInt8(String(decoding: hex.bytes[$0..<($0 + 2)], as: UTF8.self), radix: 16) ?? 0 }
            for server in CookieServer.allCases {
                let got: PekitValue
                do {
                    got = QueryServerPeerTests.canonical(try server.read(header))
                } catch let error as QueryServerError {
                    got = .map(PekitMap(ordered: [.init(key: "$error", value: .text(error.kind)), .init(key: "message", value: .text(error.message))]))
                }
                let a = String(decoding: JSONText.write(got), as: UTF8.self)
                let b = String(decoding: JSONText.write(expected[ByteString(server.rawValue)] ?? .null), as: UTF8.self)
                if a != b { failures.append("\(server) \(String(reflecting: String(decoding: header, as: Unicode.ASCII.self))):\n   got  \(a)\n   want \(b)") }
            }
        }
        return (vectors.count, failures)
    }
}
