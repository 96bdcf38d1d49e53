import Foundation
import XCTest
import PekitCore
@testable import PekitLua
@testable import PekitTools

/// The shipped backend plugins against the real implementations (Fixtures/make_query_vectors.py).
final class QueryPeerTests: XCTestCase {
    struct Vector: Decodable {
        let doc: String; let policy: String; let peer: String; let expected: String
        /// "unspecified" where the peer's key order is not its own rule (Alamofire's URLEncoding
        /// writes nested maps in Swift's per-process Dictionary order): only the pairs are.
        let order: String?
    }

    private func vectors() throws -> [Vector] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "query-vectors", withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
    }

    /// The plugin in plugins/ and the Swift preset of the same name, each against the peer.
    func testPluginsAndSwiftPresetsMatchRealImplementations() throws {
        let vectors = try vectors()
        XCTAssertGreaterThan(vectors.count, 120)
        XCTAssertEqual(Set(vectors.map(\.policy)).subtracting(Policy.builtins.keys), [], "every peer's policy has a Swift preset")
        let runtime = try makeRuntime()
        var failures = 0
        for v in vectors {
            let value = try JSONText.parse(Array(v.doc.utf8))
            for (source, policy) in [("plugin", try runtime.policy(named: v.policy)), ("Swift preset", try XCTUnwrap(Policy.builtins[v.policy]))] {
                var got = try policy.queryString(value).description
                var expected = v.expected
                if v.order == "unspecified" {
                    got = got.split(separator: "&").sorted().joined(separator: "&")
                    expected = expected.split(separator: "&").sorted().joined(separator: "&")
                }
                if got != expected { failures += 1 }
                XCTAssertEqual(got, expected, "\(v.policy) \(source) against \(v.peer) on \(v.doc)")
            }
        }
        XCTAssertEqual(failures, 0)
    }

    /// Every Swift preset writes what its plugin writes, on every document of the vectors under
    /// every preset (closures such as jQuery's array keys cannot be compared field by field).
    func testSwiftPresetsWriteThePluginsBytes() throws {
        let docs = Set(try vectors().map(\.doc)).sorted()
        let runtime = try makeRuntime()
        for (name, preset) in Policy.builtins.sorted(by: { $0.key < $1.key }) {
            let plugin = try runtime.policy(named: name)
            for doc in docs {
                let value = try JSONText.parse(Array(doc.utf8))
                XCTAssertEqual(try preset.queryString(value), try plugin.queryString(value), "\(name) on \(doc)")
                XCTAssertEqual(try preset.pairs(value), try plugin.pairs(value), "\(name) pairs on \(doc)")
            }
        }
    }

    /// qs's ignoreQueryPrefix removes one `?`, and pekit's reading of pasted "?…" input does not
    /// remove another (Fixtures/make_qs_vectors.py).
    func testQSIgnoreQueryPrefixRemovesOneQuestionMark() throws {
        struct Case: Decodable { let input: String; let expected: String }
        let cases: [Case] = try fixtureCases("qs-prefix-vectors", count: 8)
        let lua = LuaREPL(runtime: try makeRuntime())
        for c in cases {
            try assertQSDecodes(lua, c.input, options: "ignoreQueryPrefix = true", as: c.expected, "qs.parse(\(c.input), {ignoreQueryPrefix: true})")
        }
    }

    /// The cases of a fixture made by Fixtures/make_qs_vectors.py, checked to be all there.
    private func fixtureCases<Case: Decodable>(_ name: String, count: Int, line: UInt = #line) throws -> [Case] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"), line: line)
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: url))
        XCTAssertEqual(cases.count, count, line: line)
        return cases
    }

    /// Decodes `input` with the qs model and `options` (Lua table fields) in `lua` and compares
    /// the JSON as objects (key order aside) with what node-qs gave.
    private func assertQSDecodes(_ lua: LuaREPL, _ input: String, options: String, as expected: String, _ message: String,
                                 line: UInt = #line) throws {
        let got = lua.eval("pekit.json.encode(pekit.query.decode(\(String(reflecting: input)), { server = \"qs\", \(options) }))")
        let text = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(got.utf8), options: .fragmentsAllowed) as? String, got, line: line)
        let ours = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSDictionary
        XCTAssertEqual(ours, theirs, message, line: line)
    }

    /// qs's plainObjects keeps keys named like Object.prototype's members (and still skips
    /// `__proto__`), against node-qs (Fixtures/make_qs_vectors.py).
    func testQSPlainObjects() throws {
        struct Case: Decodable { let input: String; let plainObjects: Bool; let expected: String }
        let cases: [Case] = try fixtureCases("qs-plain-vectors", count: 16)
        let lua = LuaREPL(runtime: try makeRuntime())
        for c in cases {
            try assertQSDecodes(lua, c.input, options: "plainObjects = \(c.plainObjects)", as: c.expected, "qs.parse(\(c.input), {plainObjects: \(c.plainObjects)})")
        }
    }

    /// qs with arrayFormat comma and encodeValuesOnly leaves every comma raw, in arrays and plain
    /// values alike (Fixtures/make_qs_comma_vectors.py).
    func testQSCommaWithEncodeValuesOnly() throws {
        let vectors: [Vector] = try fixtureCases("qs-comma-vectors", count: 8)
        let runtime = try makeRuntime()
        for v in vectors {
            XCTAssertEqual(try runtime.policy(named: v.policy).queryString(try JSONText.parse(Array(v.doc.utf8))).description, v.expected, "\(v.peer) on \(v.doc)")
        }
    }
}

/// Exact outputs of the shipped policies that have no peer installed here, from their specs.
final class QueryPolicySpecTests: XCTestCase {
    // RFC 5849 section 3.4.1.3.2: the normalized parameters of the worked example.
    func testOAuth1NormalizationExampleFromTheRFC() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let params = #"{ {"b5", "=%3D"}, {"a3", "a"}, {"c@", ""}, {"a2", "r b"}, {"oauth_consumer_key", "9djdj82h48djs9d2"}, {"oauth_token", "kkk9d7dh3k39sjv7"}, {"oauth_signature_method", "HMAC-SHA1"}, {"oauth_timestamp", "137131201"}, {"oauth_nonce", "7d8f3e4a"}, {"c2", ""}, {"a3", "2 q"} }"#
        XCTAssertEqual(lua.eval("pekit.query.encode(\(params), 'oauth1')"),
                       #""a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2&oauth_nonce=7d8f3e4a&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7""#)
    }

    func testOtherShippedPolicies() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        let doc = #"pekit.ordered{ {"b", "x y"}, {"a", {1, {c = true}}}, {"n", pekit.null}, {"t", "~*'()!"}, {"A", "+"} }"#
        let expected = [
            // AWS SigV4: repeated keys, sorted by encoded key then value; unreserved only.
            "aws-sigv4": "A=%2B&a=1&a%5Bc%5D=true&b=x%20y&n=&t=~%2A%27%28%29%21",
            // jQuery 1/2 jQuery.param: a[] for plain elements, a[1][c] for nested ones; encodeURIComponent
            // with + (jQuery 3, checked against the real one in QueryPeerTests, keeps %20).
            "jquery1": "b=x+y&a%5B%5D=1&a%5B1%5D%5Bc%5D=true&n=&t=~*'()!&A=%2B",
            // WHATWG form: order kept, repeat for arrays.
            "form": "b=x+y&a=1&a%5Bc%5D=true&n=&t=%7E*%27%28%29%21&A=%2B",
            "afnetworking": "A=%2B&a%5B%5D=1&a%5B%5D%5Bc%5D=1&b=x%20y&n&t=~%2A%27%28%29%21",
        ]
        for (name, output) in expected {
            XCTAssertEqual(lua.eval("pekit.query.encode(\(doc), '\(name)')"), "\"\(output)\"", name)
        }
    }
}
