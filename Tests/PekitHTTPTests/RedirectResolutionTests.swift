import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore
@testable import PekitHTTP

/// Issue 69: a relative `Location` resolves by RFC 3986 §5.2, as curl and browsers do, held here
/// to Python's `urllib.parse.urljoin` (the peer, run by this test): `Location: c` from `/a/b`
/// goes to `/a/c`, not to `/a/b/c` (AFNetworking's base-slash rule, which is `--base`'s alone).
final class RedirectResolutionTests: XCTestCase {
    /// urljoin(base, reference) for each pair, from the python3 on the machine.
    func urljoin(_ pairs: [(base: String, reference: String)]) throws -> [String] {
        let script = "import json, sys\nfrom urllib.parse import urljoin\nprint(json.dumps([urljoin(b, r) for b, r in json.load(sys.stdin)]))"
        let data = try runPython(script, input: try JSONSerialization.data(withJSONObject: pairs.map { [$0.base, $0.reference] }))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String])
    }

    /// Where a redirect from `base` to `location` goes (the fragment aside: it is never sent).
    func followed(_ base: String, _ location: String) throws -> String {
        let request = try RequestBuilder(url: base).build()
        let next = try Redirect.next(after: request, status: 302, location: ByteString(location))
        return String(next.url.prefix { $0 != "#" })
    }

    func testTheIssuesLocations() throws {
        let cases: [(String, String)] = [
            ("http://h.example/a/b", "c"), ("http://h.example/a/b", "./c/"), ("http://h.example/a/b", "c;p?q=1"),
            ("http://h.example/a/b", "c%20d"), ("http://h.example/a/b?x=1", "?q=2"), ("http://h.example/a/b?x=1", "#frag"),
            ("http://h.example/a/b/", "c"), ("http://h.example/a/b", "../c"), ("http://h.example/a/b", "../../../c"),
            ("http://h.example/a/b", "/c/./d/../e"), ("http://h.example/a/b", "//other.example/p/q"), ("http://h.example", "c"),
        ]
        let expected = try urljoin(cases.map { (base: $0.0, reference: $0.1) })
        for ((base, location), joined) in zip(cases, expected) {
            XCTAssertEqual(try followed(base, location), String(joined.prefix { $0 != "#" }), "\(location) from \(base)")
        }
        // An absolute Location's dot segments are removed, and a network-path one's, as RFC 3986
        // §5.2.2 and curl remove them (curl keeps them only under --path-as-is, test 391; Python's
        // urljoin keeps them here, so the RFC is the peer).
        XCTAssertEqual(try followed("http://h.example/a", "http://h.example/abs/../d"), "http://h.example/d")
        XCTAssertEqual(try followed("http://h.example/a", "//other.example/p/../q"), "http://other.example/q")
    }

    /// Random bases and references, through the redirect path, against urljoin.
    func testRandomReferencesResolveAsUrljoin() throws {
        var random = SplitMix(seed: 69)
        // No empty segment: urljoin drops them ("a//b" is "a/b" there), where RFC 3986 and curl keep them.
        let segments = ["a", "b", "c.d", "..", ".", "g;x", "g;x=1", "~u", "%41"]
        func path(_ n: Int) -> String { (0..<n).map { _ in segments[random.next(segments.count)] }.joined(separator: "/") }
        var pairs: [(base: String, reference: String)] = []
        for _ in 0..<1500 {
            let baseSegments = (0..<random.next(4)).map { _ in ["a", "b", "c.d", "e;p", "x%20y"][random.next(5)] }
            var base = "http://h.example" + (baseSegments.isEmpty ? "" : "/" + baseSegments.joined(separator: "/"))
            if random.next(3) == 0 { base += "/" }
            if random.next(3) == 0 { base += "?x=1" }
            var reference: String
            switch random.next(6) {
            case 0: reference = "/" + path(1 + random.next(4))
            // (urljoin keeps a network-path reference's dot segments, against §5.2.2: clean ones here.)
            case 1: reference = "//other.example/" + (0..<random.next(3)).map { _ in ["a", "b", "g;x"][random.next(3)] }.joined(separator: "/")
            default: reference = path(1 + random.next(4))
            }
            if random.next(4) == 0 { reference += "?y=" + String(random.next(100)) }
            if random.next(6) == 0 { reference += "#f" }
            // An empty first segment would make "//", a network path with no host: not this test's.
            if reference.isEmpty || (reference.hasPrefix("//") && !reference.hasPrefix("//other.example")) { continue }
            pairs.append((base, reference))
        }
        let expected = try urljoin(pairs)
        var differences: [String] = []
        for (pair, joined) in zip(pairs, expected) {
            let ours = try followed(pair.base, pair.reference)
            if ours != String(joined.prefix { $0 != "#" }) { differences.append("\(pair.reference) from \(pair.base): \(ours), urljoin \(joined)") }
        }
        XCTAssertEqual(differences, [], "\(differences.count) of \(pairs.count) differ:\n" + differences.prefix(20).joined(separator: "\n"))
    }

    /// `--base` keeps AFNetworking's rule: the base is a directory.
    func testABaseURLIsADirectory() throws {
        var builder = RequestBuilder(url: "users")
        builder.base = "https://api.example.com/v1"
        XCTAssertEqual(try builder.build().url, "https://api.example.com/v1/users")
    }
}
