import XCTest
@testable import PekitCore

/// Parameter types as Swift code has them (issue 45): encoded by a policy's rules as
/// Alamofire's URLEncodedFormParameterEncoder takes an Encodable, and read back from what a
/// server model makes of the query.
final class CodableTests: XCTestCase {
    struct Filter: Codable, Equatable {
        var tags: [String]
        var page: Int
        var exact: Bool
        var note: String?
        var range: Range
        struct Range: Codable, Equatable { var from: Double; var to: Int }
    }

    let filter = Filter(tags: ["a b", "ü"], page: 2, exact: true, note: nil, range: .init(from: 1.5, to: 10))

    func testAnEncodableIsTheValueItEncodes() throws {
        let value = try PekitValueEncoder().encode(filter)
        XCTAssertEqual(value, .map(PekitMap(ordered: [
            .init(key: "tags", value: .array([.string("a b"), .string("ü")])),
            .init(key: "page", value: .integer(2)),
            .init(key: "exact", value: .boolean(true)),
            .init(key: "range", value: .map(PekitMap(ordered: [.init(key: "from", value: .number(1.5)), .init(key: "to", value: .integer(10))]))),
        ])))
    }

    /// The same bytes as the policy writes for the same value given as a PekitValue, and the nil
    /// property absent, as URLEncodedFormEncoder leaves it.
    func testAPolicyWritesAnEncodableByItsRules() throws {
        XCTAssertEqual(try Policy.rfc3986.queryString(encoding: filter).description,
                       "exact=true&page=2&range%5Bfrom%5D=1.5&range%5Bto%5D=10&tags%5B%5D=a%20b&tags%5B%5D=%C3%BC")
        XCTAssertEqual(try Policy.rfc3986.queryString(encoding: filter), try Policy.rfc3986.queryString(PekitValueEncoder().encode(filter)))
    }

    /// `Policy.alamofireForm` on an Encodable writes what Alamofire 5.12.0's
    /// URLEncodedFormEncoder() wrote for the same properties (PekitLuaTests/Fixtures/
    /// make_query_vectors.py ran it): doubles as Swift writes them, every level sorted.
    func testAlamofireFormOnAnEncodableIsAlamofiresOwnOutput() throws {
        struct Numbers: Encodable { let x = 1e20, y = 0.1, z = 1.0 / 3, w = 3.0, sum = 0.1 + 0.2; let a = [2, 10, 1]; let skipped: Int? = nil }
        struct Vector: Decodable { let doc: String; let policy: String; let expected: String }
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PekitLuaTests/Fixtures/query-vectors.json")
        let vectors = try JSONDecoder().decode([Vector].self, from: Data(contentsOf: file))
        let vector = try XCTUnwrap(vectors.first { $0.policy == "alamofire-form" && $0.doc.hasPrefix(#"{"x": 1e+20, "y": 0.1, "z": 0.333"#) })
        XCTAssertEqual(try Policy.alamofireForm.queryString(encoding: Numbers()).description, vector.expected)
    }

    /// What PHP makes of the query ($_GET: every value a string) read into the type.
    func testAServerModelsReadingDecodesIntoAType() throws {
        let query = try Policy.rfc3986.queryString(encoding: filter)
        let read = try QueryServer.php(PHPParser()).read(query, as: Filter.self)
        XCTAssertEqual(read, filter)
        XCTAssertThrowsError(try QueryServer.php(PHPParser()).read("page=x&exact=1&tags[]=a&range[from]=1&range[to]=2", as: Filter.self)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["page"])
        }
        XCTAssertThrowsError(try QueryServer.php(PHPParser()).read("page=1", as: Filter.self)) { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "tags")
        }
    }

    /// The Codable example of docs/swift.md (the consumer package runs its first task).
    func testTheGuidesCodableExample() throws {
        struct Search: Codable, Equatable { var q: String; var tags: [String]; var page: Int; var draft: Bool? }
        XCTAssertEqual(try Policy.afnetworking.queryString(encoding: Search(q: "a b", tags: ["x"], page: 2, draft: nil)).description,
                       "page=2&q=a%20b&tags%5B%5D=x")
        XCTAssertEqual(try QueryServer.php(PHPParser()).read("q=a&tags[]=x&page=2", as: Search.self), Search(q: "a", tags: ["x"], page: 2, draft: nil))
    }
}
