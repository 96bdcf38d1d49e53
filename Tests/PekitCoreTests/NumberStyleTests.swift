import Foundation
import XCTest
@testable import PekitCore

/// Issue 42: each policy writes numbers as its backend's language does, held to the peers'
/// own output (Fixtures/number-vectors.json, made by make_number_vectors.py from Python's str()
/// and Node's String()).
final class NumberStyleTests: XCTestCase {
    struct Vector: Decodable { let bits: String, python: String, objc: String, php: String, javascript: String }
    struct Integer: Decodable { let json: String, python: String, php: String, javascript: String }
    struct File: Decodable { let vectors: [Vector], integers: [Integer] }

    func testJavaScriptAndPythonWriteNumbersAsThePeersDo() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "number-vectors", withExtension: "json", subdirectory: "Fixtures"))
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        XCTAssertGreaterThan(file.vectors.count, 300)
        for vector in file.vectors {
            let x = Double(bitPattern: try XCTUnwrap(UInt64(vector.bits, radix: 16)))
            XCTAssertEqual(NumberStyle.javascript.text(x), vector.javascript, vector.bits)
            XCTAssertEqual(NumberStyle.python.text(x), vector.python, vector.bits)
            XCTAssertEqual(NumberStyle.objc.text(x), vector.objc, vector.bits)
            XCTAssertEqual(NumberStyle.php.text(x), vector.php, vector.bits)
        }
    }

    /// JSON integers are exact whatever their size (Python's json.loads keeps them; JavaScript's
    /// JSONText.parse holds the nearest double), and JSON output writes them back digit for digit.
    func testJSONIntegersOfAnySizeAreWrittenAsThePeersDo() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "number-vectors", withExtension: "json", subdirectory: "Fixtures"))
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        XCTAssertGreaterThan(file.integers.count, 40)
        var python = Policy.rfc3986, javascript = Policy.rfc3986, php = Policy.rfc3986
        python.numbers = .python
        javascript.numbers = .javascript
        php.numbers = .php
        for vector in file.integers {
            let value = try JSONText.parse(Array(vector.json.utf8))
            XCTAssertEqual(python.text(value)?.description, vector.python, vector.json)
            XCTAssertEqual(javascript.text(value)?.description, vector.javascript, vector.json)
            XCTAssertEqual(php.text(value)?.description, vector.php, vector.json)
            XCTAssertEqual(Policy.rfc3986.text(value)?.description, vector.python, vector.json)
            XCTAssertEqual(JSONText.write(value), Array(vector.json.utf8), vector.json)
        }
        XCTAssertEqual(try JSONText.parse(Array("12345678901234567890".utf8)), .bigInteger("12345678901234567890"))
        XCTAssertThrowsError(try JSONText.parse(Array("1.5e400".utf8)), "a float out of range is still refused")
    }

    /// Integers: exact, except in JavaScript past 2^53, where the number is the double it holds.
    func testIntegers() {
        XCTAssertEqual(NumberStyle.python.text(Int64.max), "9223372036854775807")
        XCTAssertEqual(NumberStyle.javascript.text(Int64(9_007_199_254_740_993)), "9007199254740992")
        XCTAssertEqual(NumberStyle.javascript.text(Int64(-42)), "-42")
        XCTAssertEqual(NumberStyle.swift.text(3.0), "3.0")
        XCTAssertEqual(NumberStyle.shortest.text(3.0), "3")
    }

    /// The policies that ship say their language: qs as JavaScript's String(), requests as str().
    func testPoliciesWriteTheirLanguagesNumbers() throws {
        var qs = Policy.rfc3986
        qs.numbers = .javascript
        var requests = Policy.rfc3986
        requests.numbers = .python
        let value = PekitValue.map(PekitMap(ordered: [.init(key: "g", value: .number(1e20)), .init(key: "h", value: .number(0.000001)),
                                                      .init(key: "i", value: .number(3.0))]))
        XCTAssertEqual(try qs.queryString(value).description, "g=100000000000000000000&h=0.000001&i=3")
        XCTAssertEqual(try requests.queryString(value).description, "g=1e%2B20&h=1e-06&i=3.0")
    }
}
