import Foundation
import XCTest
@testable import PekitCore

/// The `python` model's errors = "surrogateescape": the bytes that do not decode come back as they
/// are, as Python's parse_qsl gives them back through str.encode(…, "surrogateescape")
/// (Fixtures/python/make_surrogateescape_vectors.py).
final class PythonSurrogateEscapeTests: XCTestCase {
    struct Vector: Decodable { let query: String; let encoding: String; let pairs: [[String]] }

    func testBytesComeBackAsTheyWere() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "surrogateescape-vectors", withExtension: "json", subdirectory: "Fixtures/python"))
        let vectors = try JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
        XCTAssertEqual(vectors.count, 12)
        func bytes(_ hex: String) -> [UInt8] {
            stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16) ?? 0 }
        }
        for v in vectors {
            let model = try QueryServer.named("python", options: [("errors", .text("surrogateescape")), ("encoding", .text(v.encoding)),
                                                                  ("keep_blank_values", .boolean(true))])
            guard case .map(let got) = try model.read(ByteString(v.query)) else { return XCTFail(v.query) }
            var expected: [(ByteString, [PekitValue])] = []
            for pair in v.pairs {
                let key = ByteString(bytes(pair[0])), value = PekitValue.string(ByteString(bytes(pair[1])))
                if let i = expected.firstIndex(where: { $0.0 == key }) { expected[i].1.append(value) } else { expected.append((key, [value])) }
            }
            XCTAssertEqual(got.entries.map(\.key), expected.map(\.0), "\(v.query) \(v.encoding)")
            for (key, values) in expected { XCTAssertEqual(got[key], .array(values), "\(v.query) \(v.encoding): \(key)") }
        }
    }
}
