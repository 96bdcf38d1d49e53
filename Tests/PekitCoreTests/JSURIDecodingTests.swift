import Foundation
import XCTest
@testable import PekitCore

/// `JSURIDecoding` (qs's and node's querystring's `decodeURIComponent`) against node's own, on
/// the vectors `Fixtures/uri-decoding/make_vectors.js` wrote: escapes of valid and invalid UTF-8,
/// broken escapes, `+` with and without qs's space rule, literal non-ASCII, and plain runs
/// shorter and longer than the decoder's eight-byte steps, each at every offset in a longer input.
final class JSURIDecodingTests: XCTestCase {
    func testDecodeURIComponentIsNodes() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "uri-decoding-vectors", withExtension: "json", subdirectory: "Fixtures/uri-decoding"))
        guard case .map(let file) = try JSONText.parse(Data(contentsOf: url)), case .array(let vectors)? = file["vectors"] else { return XCTFail("not a vector file") }
        XCTAssertEqual(vectors.count, 8000)
        var failures: [String] = [], thrown = 0
        for case .map(let vector) in vectors {
            guard case .string(let input)? = vector["input"], case .boolean(let plus)? = vector["plus"] else { return XCTFail("bad vector") }
            var expected: [UInt8]? = nil
            if case .string(let output)? = vector["output"] { expected = output.bytes } else { thrown += 1 }
            // The input alone, and after a plain prefix (so every escape meets the eight-byte
            // steps at another offset).
            for prefix in ["", "p", "prefix7", "a-longer-prefix!"] {
                let bytes = Array(prefix.utf8) + input.bytes
                let got = try? JSURIDecoding.decodeURIComponent(bytes, plusAsSpace: plus)
                let want = expected.map { Array(prefix.utf8) + $0 }
                if got != want {
                    failures.append("\(prefix)\(input) plus \(plus): got \(got.map { String(decoding: $0, as: UTF8.self) } ?? "throws"), node \(want.map { String(decoding: $0, as: UTF8.self) } ?? "throws")")
                }
            }
        }
        XCTAssertGreaterThan(thrown, 1000, "the vectors should include inputs node refuses")
        XCTAssert(failures.isEmpty, "\(failures.count) differ from node:\n" + failures.prefix(20).joined(separator: "\n"))
    }
}
