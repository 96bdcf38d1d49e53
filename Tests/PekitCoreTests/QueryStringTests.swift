import XCTest
@testable import PekitCore

final class QueryStringTests: XCTestCase {
    func map(_ entries: [(ByteString, PekitValue)]) -> PekitValue {
        .map(PekitMap(unordered: entries.map { .init(key: $0.0, value: $0.1) }))
    }
    func ordered(_ entries: [(ByteString, PekitValue)]) -> PekitValue {
        .map(PekitMap(ordered: entries.map { .init(key: $0.0, value: $0.1) }))
    }

    /// Integers and strings go to the query without a string made for each (the flattener
    /// writes digits on the stack): the bytes are those `String(n)`, the style and the list of
    /// pairs give, at the ends of Int64 and at JavaScript's 2^53 edge.
    func testIntegersAndStringsAsTheGeneralPathWritesThem() throws {
        let values: [Int64] = [0, 1, -1, 9, 10, -10, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1, .max, .min]
        for numbers in [NumberStyle.shortest, .javascript, .python, .custom { _ in "n" }] {
            var policy = Policy.rfc3986
            policy.numbers = numbers
            policy.order = .given
            let doc = ordered(values.enumerated().map { (ByteString("k\($0.offset)"), .integer($0.element)) } + [("s", .string("a b&"))])
            let pairs = try policy.pairs(doc).map { "\($0.key)=\($0.value.map { "\($0)" } ?? "")" }
            let expected = values.enumerated().map { "k\($0.offset)=\(numbers.text($0.element))" } + ["s=a b&"]
            XCTAssertEqual(pairs, expected)
            XCTAssertEqual(try policy.queryString(doc).description, expected.map { $0.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "b&", with: "b%26") }.joined(separator: "&"))
        }
    }

    // The seed article's two AFNetworking examples, byte for byte.
    func testAFNetworkingReferenceOutputs() throws {
        let first = map([("name", .text("p&p")), ("nick_name", .text("p&p[]@= =!")), ("father name", .text("~!@#$%^&*(){}"))])
        XCTAssertEqual(try Policy.afnetworking.queryString(first).description,
                       "father%20name=~%21%40%23%24%25%5E%26%2A%28%29%7B%7D&name=p%26p&nick_name=p%26p%5B%5D%40%3D%20%3D%21")
        let second = map([
            ("name", .text("小A")), ("phone", map([("mobile", .text("xx")), ("home", .text("xx"))])),
            ("families", .array([.text("father"), .text("mother")])), ("nums", .set([.text("1"), .text("2")])),
            ("does_not_include", .text("/?")), ("space", .text(" ")),
            ("GeneralDelimitersToEncode", .text(":#[]@")), ("SubDelimitersToEncode", .text("!$&'()*+,;=")),
        ])
        XCTAssertEqual(try Policy.afnetworking.queryString(second).description,
                       "GeneralDelimitersToEncode=%3A%23%5B%5D%40&SubDelimitersToEncode=%21%24%26%27%28%29%2A%2B%2C%3B%3D&does_not_include=/?&families%5B%5D=father&families%5B%5D=mother&name=%E5%B0%8FA&nums=1&nums=2&phone%5Bhome%5D=xx&phone%5Bmobile%5D=xx&space=%20")
    }

    func testArrayObjectNullBooleanRules() throws {
        let value = ordered([("a", .array([.integer(1), .text("x,y")])), ("o", ordered([("k", .boolean(true))])),
                             ("n", .null), ("e", .array([])), ("f", .number(1.5)), ("g", .number(2))])
        func query(_ change: (inout Policy) -> Void) throws -> String {
            var policy = Policy(order: .given)
            change(&policy)
            return try policy.queryString(value).description
        }
        XCTAssertEqual(try query { _ in }, "a%5B%5D=1&a%5B%5D=x%2Cy&o%5Bk%5D=true&n=&f=1.5&g=2")
        XCTAssertEqual(try query { $0.arrays = .indices; $0.encodeKeys = .none }, "a[0]=1&a[1]=x%2Cy&o[k]=true&n=&f=1.5&g=2")
        XCTAssertEqual(try query { $0.arrays = .repeat; $0.objects = .dots; $0.null = .key }, "a=1&a=x%2Cy&o.k=true&n&f=1.5&g=2")
        XCTAssertEqual(try query { $0.arrays = .comma; $0.null = .skip; $0.booleans = .numeric }, "a=1%2Cx%2Cy&o%5Bk%5D=1&f=1.5&g=2")
        // With ',' allowed, the joining comma is literal and commas inside values are escaped.
        XCTAssertEqual(try query { $0.arrays = .comma; $0.allowed = $0.allowed + (try! AllowedSet(characters: ",")) }, "a=1,x%2Cy&o%5Bk%5D=true&n=&f=1.5&g=2")
        XCTAssertEqual(try query { $0.empty = .key; $0.encodeKeys = .none }, "a[]=1&a[]=x%2Cy&o[k]=true&n=&e=&f=1.5&g=2")
        XCTAssertEqual(try query { $0.arrays = .custom { key, i, nested in key + ByteString("(\(i)\(nested))") }; $0.encodeKeys = .none },
                       "a(0false)=1&a(1false)=x%2Cy&o[k]=true&n=&f=1.5&g=2")
        XCTAssertEqual(try query { $0.separator = ";"; $0.assign = ":"; $0.prefix = "?"; $0.encodeKeys = .none }, "?a[]:1;a[]:x%2Cy;o[k]:true;n:;f:1.5;g:2")
    }

    func testOrders() throws {
        let value = ordered([("b", .text("2")), ("a", .text("z")), ("a", .text("y")), ("A", .text("1"))])
        XCTAssertEqual(try Policy(order: .given).queryString(value).description, "b=2&a=z&a=y&A=1")
        XCTAssertEqual(try Policy(order: .ascending).queryString(value).description, "A=1&a=z&a=y&b=2")
        XCTAssertEqual(try Policy(order: .bytes).queryString(value).description, "A=1&a=y&a=z&b=2")
        XCTAssertEqual(try Policy(order: .custom { $0 > $1 }).queryString(value).description, "b=2&a=z&a=y&A=1")
        // An inconsistent comparator loses nothing.
        let pairs = try Policy(order: .custom { _, _ in Bool.random() }).pairs(value)
        XCTAssertEqual(pairs.map(\.key.description).sorted(), ["A", "a", "a", "b"])
        // The encoded key decides under bytes: "%20" (space) sorts before "A".
        XCTAssertEqual(try Policy.awsSigV4.queryString(ordered([("A", .text("1")), (" x", .text("2"))])).description, "%20x=2&A=1")
    }

    func testTopLevelShapes() throws {
        let pairs = PekitValue.array([.array([.text("b"), .integer(1)]), .array([.text("a"), .null])])
        XCTAssertEqual(try Policy(order: .given, null: .key).queryString(pairs).description, "b=1&a")
        XCTAssertThrowsError(try Policy.rfc3986.queryString(.text("x"))) { XCTAssertEqual("\($0)", "parameters must be a map or a list of {key, value} pairs, not a string") }
        XCTAssertThrowsError(try Policy.rfc3986.queryString(.array([.text("x")]))) { XCTAssertEqual("\($0)", "parameters[1]: parameters must be a map or a list of {key, value} pairs") }
        XCTAssertEqual(try Policy.rfc3986.queryString(map([])).description, "")
        var prefixed = Policy.rfc3986
        prefixed.prefix = "?"
        XCTAssertEqual(try prefixed.queryString(map([])).description, "", "no lone '?'")
    }
}
