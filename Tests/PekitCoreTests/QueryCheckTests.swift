import XCTest
@testable import PekitCore

final class QueryCheckTests: XCTestCase {
    func json(_ value: PekitValue) -> String { String(decoding: JSONText.write(value), as: UTF8.self) }
    func map(_ entries: [(ByteString, PekitValue)]) -> PekitValue { .map(PekitMap(ordered: entries.map { .init(key: $0.0, value: $0.1) })) }

    func lines(_ value: PekitValue, _ policy: Policy, _ server: String) throws -> [String] {
        try QueryCheck.check(value, policy: policy, server: try QueryServer.named(server)).leaves.map(\.description)
    }

    func testEveryLeafIsReported() throws {
        let value = map([("list", .array((1...25).map { .text("v\($0)") })), ("n", .null), ("ok", .text("x y")), ("num", .integer(5)), ("t", .boolean(true))])
        var indices = Policy.rfc3986
        indices.arrays = .indices
        let report = try QueryCheck.check(value, policy: indices, server: try QueryServer.named("qs"))
        XCTAssertFalse(report.isExact)
        XCTAssertEqual(Array(report.leaves.map(\.description).prefix(2)), [
            "changed params.list: sent as a list of 25, arrives as a map of 25 keys: an index over qs's arrayLimit of 20 turns the list into a map",
            #"exact params.list[0]: "v1""#,
        ])
        XCTAssertEqual(Array(report.leaves.map(\.description).suffix(4)), [
            "changed-type params.n: null arrives as an empty string", #"exact params.ok: "x y""#,
            #"changed-type params.num: the number 5 arrives as the string "5""#, #"changed-type params.t: true arrives as the string "true""#,
        ])
        let strings = map([("a", .array([.text("1"), .text("2")])), ("b", map([("c", .text("x y"))]))])
        XCTAssertTrue(try QueryCheck.check(strings, policy: .rfc3986, server: try QueryServer.named("qs")).isExact)
    }

    func testLossesAreNamed() throws {
        var php = Policy.rfc3986
        php.arrays = .indices
        php.null = .skip
        let holes = map([("list", .array([.null, .text("2")])), ("e", .array([])), ("m", map([]))])
        XCTAssertEqual(try lines(holes, php, "php"), [
            "lost params.list[0]: null: the policy skips nulls, so the list is shorter",
            "changed params.list: sent as a list of 1, arrives as a map of 1 key", #"exact params.list[1]: "2""#,
            "lost params.e: an empty list is not sent (the policy skips empty lists and maps)",
            "lost params.m: an empty map is not sent (the policy skips empty lists and maps)",
        ])
        var repeated = Policy.rfc3986
        repeated.arrays = .repeat
        XCTAssertEqual(try lines(map([("a", .array([.text("x"), .text("y")]))]), repeated, "php"), [
            #"changed params.a: sent as a list of 2, arrives as "y": php keeps only one of the repeated keys"#,
            #"lost params.a[0]: "x": the list arrives as one value"#, #"lost params.a[1]: "y": the list arrives as one value"#,
        ])
        // A literal '+' that the policy leaves unescaped is read as a space.
        var plus = Policy.rfc3986
        plus.allowed.insert(0x2B)
        XCTAssertEqual(try lines(map([("s", .text("1+1"))]), plus, "qs"),
                       [#"changed params.s: "1+1" arrives as "1 1": the policy leaves '+' unescaped and qs reads it as a space"#])
    }

    func testFlatServersAndErrors() throws {
        var brackets = Policy.rfc3986
        brackets.arrays = .brackets
        let value = map([("a", .text("1")), ("b", .text("")), ("u", map([("name", .text("x"))]))])
        XCTAssertEqual(try lines(value, brackets, "python"), [
            #"exact params.a: "1""#, #"lost params.b: "" is dropped by python"#,
            #"changed params.u: python does not nest: a map of 1 key arrives under the flat name "u[name]""#,
        ].map { $0.replacingOccurrences(of: #""" is dropped by python"#, with: #"python drops """#) })
        var rack = Policy.rfc3986
        rack.arrays = .brackets
        let conflict = map([("a", .array([.text("1")])), ("a[b]", .text("2"))])
        XCTAssertEqual(try lines(conflict, rack, "rack"), [
            #"error params: Rack ParameterTypeError: expected Hash (got Array) for param `a' (parameter "a%5Bb%5D=2" at byte 10): nothing is read"#,
            #"lost params.a[0]: "1": rack raises"#, #"lost params["a[b]"]: "2": rack raises"#,
        ])
        XCTAssertEqual(try lines(map([("a", .text("x;y"))]), Policy.rfc3986.with { $0.allowed.insert(0x3B) }, "go"), [
            "error params: Go: invalid semicolon separator in query (parameter \"a=x;y\" at byte 0)", #"lost params.a: Go drops "x;y""#,
        ].map { $0.replacingOccurrences(of: "Go drops", with: "go drops") })
    }

    func testCompare() throws {
        let rows = try QueryCheck.compare(map([("a", .text("x y"))]), policies: [.rfc3986, .form])
        XCTAssertEqual(rows.map(\.pairs), [["a=x%20y"], ["a=x+y"]])
        XCTAssertEqual(rows.map(\.differs), [[false], [true]])
    }

    /// Issue 42: pairs are compared as a server receives them, wherever they are: the same pairs
    /// in another order are only that, and a real difference is marked alone.
    func testCompareIsByWhatArrivesNotByPlace() throws {
        let value = map([("b", .text("x")), ("a", .text("y")), ("t", .array([.text("1"), .text("2")]))])
        var given = Policy.rfc3986
        given.order = .given
        var indexed = given
        indexed.arrays = .indices
        let rows = try QueryCheck.compare(value, policies: [.rfc3986, given, indexed])
        XCTAssertEqual(rows.map(\.pairs), [["a=y", "b=x", "t%5B%5D=1", "t%5B%5D=2"], ["b=x", "a=y", "t%5B%5D=1", "t%5B%5D=2"], ["b=x", "a=y", "t%5B0%5D=1", "t%5B1%5D=2"]])
        XCTAssertEqual(rows.map(\.differs), [[false, false, false, false], [false, false, false, false], [false, false, true, true]])
        XCTAssertEqual(rows.map(\.reordered), [false, true, false])
        XCTAssertEqual(rows.map(\.missing), [[], [], ["t%5B%5D=1", "t%5B%5D=2"]])
    }

    /// A row that drops pairs the first one sends says which, even when all it sends is there.
    func testCompareNamesWhatARowDoesNotSend() throws {
        let value: PekitValue = ["b": [2, 10], "n": .null]
        let rows = try QueryCheck.compare(value, policies: [.alamofire, .alamofireForm])
        XCTAssertEqual(rows.map(\.pairs), [["b%5B%5D=2", "b%5B%5D=10", "n=%3Cnull%3E"], ["b%5B%5D=10", "b%5B%5D=2"]])
        XCTAssertEqual(rows.map(\.differs), [[false, false, false], [false, false]])
        XCTAssertEqual(rows.map(\.missing), [[], ["n=%3Cnull%3E"]])
        XCTAssertEqual(rows.map(\.reordered), [false, false])
    }

    func testQueryInput() {
        func query(_ s: String) -> String {
            let (q, source) = QueryInput.query(of: Array(s.utf8))
            return "\(String(decoding: q, as: UTF8.self)) \(source)"
        }
        XCTAssertEqual(query("a=1&b=2"), "a=1&b=2 query")
        XCTAssertEqual(query("?a=1#f"), "a=1 questionMark")
        XCTAssertEqual(query("https://h/p?a=1&u=http://x?y#frag"), "a=1&u=http://x?y url")
        XCTAssertEqual(query("/search?q=1"), "q=1 url")
        XCTAssertEqual(query("https://h/p#a?b"), " url")
        XCTAssertEqual(query("url=http://x?y=1"), "url=http://x?y=1 query")
    }

    // 100,000 parameters and a long key stay linear: this finishes at once or the suite times out.
    func testLargeInputsStayLinear() throws {
        var qs = QSParser()
        qs.parameterLimit = nil
        let many = (0..<100_000).map { "k\($0)=v" }.joined(separator: "&")
        guard case .map(let all) = try qs.parse(ByteString(many)) else { return XCTFail("not a map") }
        XCTAssertEqual(all.count, 100_000)
        let repeated = String(repeating: "a[]=1&", count: 50_000)
        guard case .map(let single) = try QSParser().parse(ByteString(repeated)), case .array(let items)? = single["a"] else { return XCTFail("not an array") }
        XCTAssertEqual(items.count, 1000, "qs's default parameterLimit applies")
        let deep = "a" + String(repeating: "[b]", count: 20_000) + "=1"
        for server in QueryServer.all { _ = try? server.model.read(ByteString(deep)) }
    }

    func testJSON() throws {
        let text = #"{"b":[1,2.5,-3e2,true,null],"a":{"s":"\u6c49\n\"","e":{}},"u":"\ud83d\ude00"}"#
        let value = try JSONText.parse(Array(text.utf8))
        XCTAssertEqual(json(value), #"{"b":[1,2.5,-300.0,true,null],"a":{"s":"汉\n\"","e":{}},"u":"😀"}"#)
        XCTAssertThrowsError(try JSONText.parse(Array("{\"a\": }".utf8))) { XCTAssertEqual("\($0)", "invalid JSON at byte 7: unexpected character \"}\"") }
        XCTAssertThrowsError(try JSONText.parse(Array(String(repeating: "[", count: 10_000).utf8))) {
            XCTAssertEqual("\($0)", "invalid JSON at byte 513: nested deeper than 512 levels")
        }
        XCTAssertEqual(json(.string(ByteString([0x61, 0xFF]))), #""a\u00ff""#)
        // Found by scripts/fuzz json: a number that overflows to infinity could not be written back.
        XCTAssertThrowsError(try JSONText.parse(Array("-52e1862".utf8))) { XCTAssertEqual("\($0)", "invalid JSON at byte 1: number \"-52e1862\" is out of range") }
    }
}

extension Policy {
    func with(_ change: (inout Policy) -> Void) -> Policy { var copy = self; change(&copy); return copy }
}
