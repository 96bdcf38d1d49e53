import Foundation
import XCTest
import PekitCore

/// The server models of the query parser against the real parsers (Fixtures/make_parse_vectors.py).
final class QueryParsePeerTests: XCTestCase {
    struct Vector: Decodable { let query: String; let server: String; let expected: String }

    func testServerModelsMatchRealParsers() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "parse-vectors", withExtension: "json", subdirectory: "Fixtures"))
        let vectors = try JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
        XCTAssertGreaterThan(vectors.count, 60)
        for v in vectors {
            let parser = try XCTUnwrap(QueryParser.servers[v.server])
            let ours = JSON.write(try parser.parse(ByteString(v.query)))
            // Key order is not compared: JavaScript lists integer keys first.
            let got = try JSONSerialization.jsonObject(with: Data(ours)) as? NSObject
            let want = try JSONSerialization.jsonObject(with: Data(v.expected.utf8)) as? NSObject
            XCTAssertEqual(got, want, "\(v.server) on \(v.query): got \(String(decoding: ours, as: UTF8.self)), expected \(v.expected)")
        }
    }
}
