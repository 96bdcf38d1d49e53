import Foundation
import XCTest
@testable import PekitCore

/// The URL parser against node's URL (the WHATWG URL Standard, as ada implements it):
/// Fixtures/urls/make_url_vectors.js. Non-ASCII host names (IDNA) are not in this slice.
final class WHATWGURLTests: XCTestCase {
    struct Vector: Decodable {
        let input: String
        let base: String?
        let failure: Bool?
        let href, origin, `protocol`, username, password, host, hostname, port, pathname, search, hash: String?
    }

    func testMatchesNode() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "url-vectors", withExtension: "json", subdirectory: "Fixtures/urls"))
        struct File: Decodable { let vectors: [Vector] }
        let vectors = try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).vectors
        var failures: [String] = []
        for v in vectors {
            let label = "\(v.input.debugDescription) against \(v.base ?? "nothing")"
            let parsed: WHATWGURL
            do {
                let base = try v.base.map { try WHATWGURL($0) }
                parsed = try WHATWGURL(v.input, base: base)
            } catch {
                if v.failure != true { failures.append("\(label): failed (\(error)), node gives \(v.href ?? "")") }
                continue
            }
            if v.failure == true { failures.append("\(label): node fails, pekit gives \(parsed.href)"); continue }
            let got = [parsed.href, parsed.origin, parsed.protocolName, parsed.username, parsed.password, parsed.hostWithPort, parsed.hostname,
                       parsed.portString, parsed.pathname, parsed.search, parsed.hash]
            let want = [v.href, v.origin, v.protocol, v.username, v.password, v.host, v.hostname, v.port, v.pathname, v.search, v.hash].map { $0 ?? "" }
            if got != want { failures.append("\(label):\n   got  \(got)\n   want \(want)") }
        }
        XCTAssert(failures.isEmpty, "\(failures.count) of \(vectors.count) differ:\n" + failures.joined(separator: "\n"))
    }
}
