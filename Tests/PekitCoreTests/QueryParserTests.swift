import XCTest
@testable import PekitCore

final class QueryParserTests: XCTestCase {
    func json(_ value: PekitValue) -> String { String(decoding: JSON.write(value), as: UTF8.self) }
    func parse(_ query: String, _ change: (inout QueryParser) -> Void = { _ in }) throws -> String {
        var parser = QueryParser()
        change(&parser)
        return json(try parser.parse(ByteString(query)))
    }
    func failure(_ query: String, _ change: (inout QueryParser) -> Void) -> String {
        do { _ = try parse(query, change); return "no error" } catch { return "\(error)" }
    }

    func testLimitsLenientAndStrict() throws {
        let deep = "a" + String(repeating: "[b]", count: 7) + "=1"
        XCTAssertEqual(try parse(deep), #"{"a":{"b":{"b":{"b":{"b":{"b":{"[b][b]":"1"}}}}}}}"#)
        XCTAssertEqual(failure(deep) { $0.strict = true }, #"key "a[b][b][b][b][b][b][b]" is nested deeper than 5 levels (depth)"#)
        XCTAssertEqual(try parse("a=1&b=2&c=3") { $0.parameterLimit = 2 }, #"{"a":"1","b":"2"}"#)
        XCTAssertEqual(failure("a=1&b=2&c=3") { $0.parameterLimit = 2; $0.strict = true }, "more than 2 parameters (the parameters limit; lenient parsing keeps the first 2)")
        XCTAssertEqual(try parse("a[0]=x&a[21]=y"), #"{"a":{"0":"x","21":"y"}}"#)
        XCTAssertEqual(failure("a[21]=y") { $0.strict = true }, "array index 21 is over the limit of 20 (arrayLimit)")
        XCTAssertEqual(failure("a=12345") { $0.maxLength = 4 }, "the query is 7 bytes, more than the limit of 4 (max_length)")
        XCTAssertEqual(failure("a[b=1") { $0.strict = true }, "no error", "qs keeps an unclosed bracket as part of the key")
        XCTAssertEqual(failure("a[b]c=1") { $0.strict = true }, #"key "a[b]c" is malformed (an unclosed '[' or text after ']')"#)
    }

    func testDuplicatesAndShapes() throws {
        XCTAssertEqual(try parse("a=1&a=2&a=3"), #"{"a":["1","2","3"]}"#)
        XCTAssertEqual(try parse("a=1&a=2") { $0.duplicates = .first }, #"{"a":"1"}"#)
        XCTAssertEqual(try parse("a=1&a=2") { $0.duplicates = .last }, #"{"a":"2"}"#)
        XCTAssertEqual(try parse("a[]=1&a[]=2&a[b]=3"), #"{"a":{"0":"1","1":"2","b":"3"}}"#)
        XCTAssertEqual(try parse("a.b.c=1&x=%zz") { $0.allowDots = true }, #"{"a":{"b":{"c":"1"}},"x":"%zz"}"#)
        XCTAssertEqual(try parse("t=a,b%2Cc") { $0.comma = true }, #"{"t":["a","b,c"]}"#)
        XCTAssertEqual(try parse("k&v=") { $0.bareKeyIsNull = true }, #"{"k":null,"v":""}"#)
        XCTAssertEqual(try parse("a;b=2") { $0.separator = ";" }, #"{"a":"","b":"2"}"#)
    }

    // 100,000 parameters and a long key stay linear: this finishes at once or the suite times out.
    func testLargeInputsStayLinear() throws {
        var parser = QueryParser()
        parser.parameterLimit = 200_000
        let many = (0..<100_000).map { "k\($0)=v" }.joined(separator: "&")
        guard case .map(let map) = try parser.parse(ByteString(many)) else { return XCTFail("not a map") }
        XCTAssertEqual(map.count, 100_000)
        let repeated = String(repeating: "a[]=1&", count: 50_000)
        guard case .map(let single) = try QueryParser().parse(ByteString(repeated)), case .array(let items)? = single["a"] else { return XCTFail("not an array") }
        XCTAssertEqual(items.count, 1000, "the default parameter limit applies")
    }

    func testCheckAndCompare() throws {
        let value = PekitValue.map(PekitMap(ordered: [
            .init(key: "list", value: .array((1...25).map { .integer(Int64($0)) })),
            .init(key: "n", value: .null), .init(key: "ok", value: .text("x y")),
        ]))
        let qs = try XCTUnwrap(QueryParser.servers["qs"])
        var indices = Policy.rfc3986
        indices.arrays = .indices
        let (_, problems) = try QueryCheck.check(value, policy: indices, server: qs, serverName: "qs")
        XCTAssertEqual(problems.map(\.description), ["params.list: sent as an array of 25, arrives as a map of 25 keys: an index over qs's limit of 20 turns the array into a map"])
        XCTAssertEqual(try QueryCheck.check(value, policy: .rfc3986, server: qs, serverName: "qs").problems, [])
        // PHP has no array limit (Int.max): no overflow working out the reason (a fuzzer finding).
        indices.null = .skip
        let holes = PekitValue.map(PekitMap(ordered: [.init(key: "list", value: .array([.null, .integer(2)]))]))
        XCTAssertEqual(try QueryCheck.check(holes, policy: indices, server: try XCTUnwrap(QueryParser.servers["php"]), serverName: "php").problems.map(\.description),
                       ["params.list: sent as an array of 1, arrives as a map of 1 key"])
        let rows = try QueryCheck.compare(.map(PekitMap(ordered: [.init(key: "a", value: .text("x y"))])), policies: [.rfc3986, .form])
        XCTAssertEqual(rows.map(\.pairs), [["a=x%20y"], ["a=x+y"]])
        XCTAssertEqual(rows.map(\.differs), [[false], [true]])
    }

    func testJSON() throws {
        let text = #"{"b":[1,2.5,-3e2,true,null],"a":{"s":"\u6c49\n\"","e":{}},"u":"\ud83d\ude00"}"#
        let value = try JSON.parse(Array(text.utf8))
        XCTAssertEqual(json(value), #"{"b":[1,2.5,-300.0,true,null],"a":{"s":"汉\n\"","e":{}},"u":"😀"}"#)
        XCTAssertThrowsError(try JSON.parse(Array("{\"a\": }".utf8))) { XCTAssertEqual("\($0)", "invalid JSON at byte 7: unexpected character \"}\"") }
        XCTAssertThrowsError(try JSON.parse(Array(String(repeating: "[", count: 10_000).utf8))) {
            XCTAssertEqual("\($0)", "invalid JSON at byte 513: nested deeper than 512 levels")
        }
        XCTAssertEqual(json(.string(ByteString([0x61, 0xFF]))), #""a\u00ff""#)
        // Found by scripts/fuzz json: a number that overflows to infinity could not be written back.
        XCTAssertThrowsError(try JSON.parse(Array("-52e1862".utf8))) { XCTAssertEqual("\($0)", "invalid JSON at byte 1: number \"-52e1862\" is out of range") }
    }
}
