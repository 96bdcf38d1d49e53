import Foundation
import XCTest
@testable import PekitCore

/// The URL Standard's own tests (WPT's urltestdata.json and setters_tests.json, as ada syncs
/// them: Fixtures/urls/make_wpt_vectors.py). Every case agrees, but the ones the fixture marks as
/// UTS #46 rev. 33 divergences, which must be refused as ICU 72 refuses them.
final class WPTURLTests: XCTestCase {
    struct Case: Decodable {
        let input: String?, base: String?, failure: Bool?, divergence: String?
        let href: String?, component: String?, new_value: String?, expected: [String: String]?
        let fields: [String: String]
        enum Key: String, CodingKey { case input, base, failure, divergence, href, component, new_value, expected }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            input = try c.decodeIfPresent(String.self, forKey: .input)
            base = try c.decodeIfPresent(String.self, forKey: .base)
            failure = try c.decodeIfPresent(Bool.self, forKey: .failure)
            divergence = try c.decodeIfPresent(String.self, forKey: .divergence)
            href = try c.decodeIfPresent(String.self, forKey: .href)
            component = try c.decodeIfPresent(String.self, forKey: .component)
            new_value = try c.decodeIfPresent(String.self, forKey: .new_value)
            expected = try c.decodeIfPresent([String: String].self, forKey: .expected)
            let all = try decoder.singleValueContainer().decode([String: JSONScalar].self)
            fields = all.compactMapValues { if case .text(let s) = $0 { s } else { nil } }
        }
    }
    enum JSONScalar: Decodable {
        case text(String), other
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            self = (try? c.decode(String.self)).map(JSONScalar.text) ?? .other
        }
    }
    struct HostCase: Decodable { let input: String; let output: String? }
    struct File: Decodable { let source: String; let parse: [Case]; let setters: [Case]; let idna: [String: [HostCase]] }

    static let names = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"]
    static func field(_ name: String, of u: WHATWGURL) -> String {
        switch name {
        case "href": u.href
        case "origin": u.origin
        case "protocol": u.protocolName
        case "username": u.username
        case "password": u.password
        case "host": u.hostWithPort
        case "hostname": u.hostname
        case "port": u.portString
        case "pathname": u.pathname
        case "search": u.search
        default: u.hash
        }
    }

    func load() throws -> File {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "wpt-vectors", withExtension: "json", subdirectory: "Fixtures/urls"))
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }

    func testParsing() throws {
        let file = try load()
        XCTAssertGreaterThan(file.parse.count, 850)
        var failures: [String] = [], divergences = 0
        for c in file.parse {
            let input = c.input ?? ""
            let label = "\(input.debugDescription) against \(c.base ?? "nothing")"
            let parsed = try? WHATWGURL(input, base: c.base.flatMap { try? WHATWGURL($0) })
            if c.divergence != nil {
                divergences += 1
                if let parsed { failures.append("\(label): a divergence, pekit should refuse it, gives \(parsed.href)") }
                continue
            }
            guard let parsed else {
                if c.failure != true { failures.append("\(label): refused, WPT gives \(c.fields["href"] ?? "")") }
                continue
            }
            if c.failure == true { failures.append("\(label): WPT fails it, pekit gives \(parsed.href)"); continue }
            for name in Self.names where c.fields[name] != nil && Self.field(name, of: parsed) != c.fields[name] {
                failures.append("\(label): \(name) is \(Self.field(name, of: parsed).debugDescription), WPT \(c.fields[name]!.debugDescription)")
            }
        }
        XCTAssertEqual(divergences, 8)
        XCTAssert(failures.isEmpty, "\(failures.count) of \(file.parse.count) differ:\n" + failures.joined(separator: "\n"))
    }

    func testSetters() throws {
        let file = try load()
        XCTAssertGreaterThan(file.setters.count, 250)
        var failures: [String] = [], divergences = 0
        for c in file.setters {
            let start = try WHATWGURL(c.href ?? "")
            var url = start
            let component = c.component ?? "", value = c.new_value ?? ""
            XCTAssertTrue(try url.set(component, to: value), component)
            let label = "\((c.href ?? "").debugDescription).\(component) = \(value.debugDescription)"
            if c.divergence != nil {
                divergences += 1
                if url.href != start.href { failures.append("\(label): a divergence, pekit should leave it, gives \(url.href)") }
                continue
            }
            for (name, want) in (c.expected ?? [:]).sorted(by: { $0.key < $1.key }) where Self.field(name, of: url) != want {
                failures.append("\(label): \(name) is \(Self.field(name, of: url).debugDescription), WPT \(want.debugDescription)")
            }
        }
        XCTAssertEqual(divergences, 2)
        XCTAssert(failures.isEmpty, "\(failures.count) of \(file.setters.count) differ:\n" + failures.joined(separator: "\n"))
    }

    /// How far ICU 72's UTS #46 (Unicode 15, what Debian 12 has) is behind rev. 33 (Unicode 16), as
    /// README's IDNA section states it: pekit never accepts a name the Standard refuses nor gives
    /// another ASCII form (capital sharp s is mapped to ß before ICU, as rev. 33 maps it); it
    /// refuses 833 of WPT's IdnaTestV2 names and 12 of its toascii names the Standard now accepts
    /// (most of them xn-- labels rev. 33 no longer checks).
    func testIDNAAgainstUTS46Revision33() throws {
        let file = try load()
        var refused: [String: Int] = [:], other: [String] = []
        for (name, cases) in file.idna {
            for c in cases {
                let got = (try? WHATWGURL("https://\(c.input)/x"))?.hostWithPort
                if got == c.output { continue }
                if got == nil { refused[name, default: 0] += 1; continue }
                other.append("\(name) \(c.input.debugDescription): \(got ?? "refused"), WPT \(c.output ?? "refuses it")")
            }
        }
        XCTAssertEqual(file.idna["IdnaTestV2"]?.count, 2670)
        XCTAssertEqual(file.idna["toascii"]?.count, 87)
        XCTAssertEqual(refused, ["IdnaTestV2": 833, "toascii": 12])
        XCTAssert(other.isEmpty, other.joined(separator: "\n"))
        XCTAssertEqual(try IDNA.domainToASCII("FA\u{1E9E}.de"), "xn--fa-hia.de")
    }
}
