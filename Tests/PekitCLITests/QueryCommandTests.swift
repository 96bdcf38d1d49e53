import XCTest

final class QueryCommandTests: XCTestCase {
    func testFlattenWithPolicies() throws {
        let af = try PekitProcess.run("query", "--policy", "afnetworking", #"{"name": "小A", "phone": {"mobile": "xx", "home": "xx"}, "families": ["father", "mother"], "does_not_include": "/?", "space": " "}"#)
        XCTAssertEqual(af.stdout, "does_not_include=/?&families%5B%5D=father&families%5B%5D=mother&name=%E5%B0%8FA&phone%5Bhome%5D=xx&phone%5Bmobile%5D=xx&space=%20\n")
        XCTAssertEqual(af.status, 0)
        XCTAssertEqual(try PekitProcess.run(["query", "--policy", "qs", "-"], stdin: Array(#"{"b": [1, {"c": true}], "a": null}"#.utf8)).stdout,
                       "b%5B0%5D=1&b%5B1%5D%5Bc%5D=true&a=\n", "JSON key order is kept under order = given")
    }

    func testSideBySideMarksDifferences() throws {
        let r = try PekitProcess.run("query", "--as", "afnetworking,php,qs", #"{"list": [1, 2], "s": "a b"}"#)
        XCTAssertEqual(r.stdout, """
            afnetworking  list%5B%5D=1&list%5B%5D=2&s=a%20b
            php           list%5B0%5D=1&list%5B1%5D=2&s=a+b
                          ^^^^^^^^^^^^^ ^^^^^^^^^^^^^ ^^^^^
            qs            list%5B0%5D=1&list%5B1%5D=2&s=a%20b
                          ^^^^^^^^^^^^^ ^^^^^^^^^^^^^

            """)
    }

    func testCheckReportsWhatDoesNotSurvive() throws {
        let bad = try PekitProcess.run("query", "--policy", "qs-comma", "--check", "qs", #"{"tags": ["a,b", "c"]}"#)
        XCTAssertEqual(bad.stdout, "tags=a%2Cb%2Cc\n  params.tags: sent as an array of 2 in comma format, arrives as the string \"a,b,c\": qs does not split on commas\n")
        XCTAssertEqual(bad.status, 1)
        let good = try PekitProcess.run("query", "--policy", "php", "--check", "php", #"{"a": [1, 2], "b": {"c": "x y"}}"#)
        XCTAssertEqual(good.stdout, "a%5B0%5D=1&a%5B1%5D=2&b%5Bc%5D=x+y\nok: php reads back exactly what was sent\n")
        XCTAssertEqual(good.status, 0)
    }

    func testDecode() throws {
        XCTAssertEqual(try PekitProcess.run("query", "--decode", "--server", "php", "a[]=1&a[]=2&b.c=3").stdout, #"{"a":["1","2"],"b_c":"3"}"# + "\n")
        XCTAssertEqual(try PekitProcess.run("query", "--decode", "a[b][c]=x+y&n").stdout, #"{"a":{"b":{"c":"x y"}},"n":""}"# + "\n")
        let strict = try PekitProcess.run("query", "--decode", "--strict", "a[30]=1")
        XCTAssertEqual(strict.stderr, "pekit query: array index 30 is over the limit of 20 (arrayLimit)\n")
        XCTAssertEqual(strict.status, 1)
    }

    func testErrors() throws {
        let json = try PekitProcess.run(["query"], stdin: Array("{\"x\": [1,".utf8))
        XCTAssertEqual(json.stderr, "pekit query: standard input: invalid JSON at byte 10: unexpected end of input\n")
        XCTAssertEqual(json.status, 1)
        let top = try PekitProcess.run("query", "[1, 2]")
        XCTAssertEqual(top.stderr, "pekit query: parameters[1]: parameters must be a map or a list of {key, value} pairs\n")
        let server = try PekitProcess.run("query", "--check", "django", "{}")
        XCTAssertEqual(server.stderr, "pekit query: unknown server 'django' (known: php, qs, rack) (see 'pekit query --help')\n")
        XCTAssertEqual(server.status, 2)
        let policy = try PekitProcess.run("query", "--policy", "nope", "{}")
        XCTAssertTrue(policy.stderr.hasPrefix("pekit query: unknown policy \"nope\""), policy.stderr)
    }
}
