import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore

/// JSON as pekit reads and prints values (issues 30, 45): a member given twice, values made
/// from Swift literals printed as JSON.
final class JSONValueTests: XCTestCase {
    /// A member given twice: kept both (the default, for what reads all), the last at the first's
    /// place, or refused naming it.
    func testJSONMembersGivenTwice() throws {
        let text = Array(#"{"aud":"good","aud":"evil","n":{"x":1,"x":2}}"#.utf8)
        XCTAssertEqual(JSONText.write(try JSONText.parse(text, duplicates: .last)), Array(#"{"aud":"evil","n":{"x":2}}"#.utf8))
        XCTAssertThrowsError(try JSONText.parse(text, duplicates: .error)) {
            XCTAssertEqual("\($0)", #"invalid JSON at byte 15: the member "aud" appears twice in one object"#)
        }
        guard case .map(let kept) = try JSONText.parse(text) else { return XCTFail() }
        XCTAssertEqual(kept.count, 3)
    }

    /// Values from Swift literals, printed as JSON (issue 45).
    func testValuesFromLiteralsPrintAsJSON() throws {
        let value: PekitValue = ["user": ["name": "ada", "tags": ["a", 1, 2.5, true, .null]], "z": [:], "a": []]
        XCTAssertEqual(value.description, #"{"user":{"name":"ada","tags":["a",1,2.5,true,null]},"z":{},"a":[]}"#)
        XCTAssertEqual("\(PekitValue.string(ByteString([0x61, 0xFF])))", #""a\u00ff""#)
        XCTAssertEqual(try Policy.rfc3986.queryString(["q": "a b", "n": 2]), "n=2&q=a%20b", "the policy sorts its keys")
    }
}
