import XCTest
@testable import PekitCore

/// The rules `pekit serve` gives as the reason two servers read a request otherwise: each one
/// the input calls on, and each agreeing with what the model (held to the real server) reads.
final class ReadingRulesTests: XCTestCase {
    func testTheRulesARequestCallsOnAgreeWithTheReadings() throws {
        let query = Array("x=1&x=2&a.b=3&c[]=4&d=%zz&e;f=5".utf8)
        XCTAssertEqual(ReadingRules.query(query, model: "php"), [
            "a name given twice keeps its last value (main/php_variables.c, php_register_variable_ex)",
            "brackets in a name nest: a[b] is a map, a[] a list (php_register_variable_ex)",
            "'.' and ' ' in a name become '_' (php_register_variable_ex)",
            "';' is part of a name or value",
            "a '%' that starts no escape stays as it is",
        ])
        // What the PHP model reads says the same: the last x, a_b, c a list, %zz kept.
        XCTAssertEqual(String(decoding: JSONText.write(try QueryServer.named("php").read(ByteString(query))), as: UTF8.self),
                       #"{"x":"2","a_b":"3","c":["4"],"d":"%zz","e;f":"5"}"#)
        XCTAssertEqual(ReadingRules.query(query, model: "go"), [
            "every value of a name is kept, in a list",
            "brackets are part of the name: the parser is flat",
            "a pair with ';' is dropped and an error returned (net/url, Go 1.17 on)",
            "a pair with a '%' that starts no escape is dropped and an error returned (net/url unescape)",
        ])
        XCTAssertEqual(ReadingRules.query(Array("a=&b".utf8), model: "python"), ["a blank value is dropped (parse_qs, keep_blank_values=False)"])
        XCTAssertEqual(try QueryServer.named("python").read("a=&b"), .map(PekitMap(ordered: [])))
        XCTAssertEqual(ReadingRules.cookies(Array("a=1; a=2".utf8), model: "python"), ["the last cookie of a name wins (SimpleCookie is a dict)"])
        XCTAssertEqual(ReadingRules.cookies(Array("a=1; a=2".utf8), model: "qs"), ["the first cookie of a name wins"])
        XCTAssertEqual(ReadingRules.cookies(Array("a=\"x\"; b=%20".utf8), model: "php"), [
            "double quotes around a value are kept", "values are %XX-decoded and a '+' kept (php_raw_url_decode)",
        ])
        XCTAssertEqual(ReadingRules.cookies(Array("a=1".utf8), model: "whatwg"), [])
    }
}
