import Foundation
import XCTest
import PekitCore
@testable import PekitLua

/// The shipped backend plugins against the real implementations (Fixtures/make_query_vectors.py).
final class QueryPeerTests: XCTestCase {
    struct Vector: Decodable { let doc: String; let policy: String; let peer: String; let expected: String }

    func testPluginsMatchRealImplementations() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "query-vectors", withExtension: "json", subdirectory: "Fixtures"))
        let vectors = try JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
        XCTAssertGreaterThan(vectors.count, 60)
        let runtime = try makeRuntime()
        var failures = 0
        for v in vectors {
            let policy = try runtime.policy(named: v.policy)
            let value = try JSON.parse(Array(v.doc.utf8))
            let got = try policy.queryString(value).description
            if got != v.expected { failures += 1 }
            XCTAssertEqual(got, v.expected, "\(v.peer) on \(v.doc)")
        }
        XCTAssertEqual(failures, 0)
    }
}
