import Foundation
import XCTest
@testable import PekitCore

/// The URL Standard's own tests (WPT's urltestdata.json, setters_tests.json, IdnaTestV2.json and
/// toascii.json, as ada syncs them: Fixtures/urls/make_wpt_vectors.py). Every case agrees.
final class WPTURLTests: XCTestCase {
    struct Case: Decodable {
        let input: String?, base: String?, failure: Bool?
        let href: String?, component: String?, new_value: String?, expected: [String: String]?
        let fields: [String: String]
        enum Key: String, CodingKey { case input, base, failure, href, component, new_value, expected }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            input = try c.decodeIfPresent(String.self, forKey: .input)
            base = try c.decodeIfPresent(String.self, forKey: .base)
            failure = try c.decodeIfPresent(Bool.self, forKey: .failure)
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
        var failures: [String] = []
        for c in file.parse {
            let input = c.input ?? ""
            let label = "\(input.debugDescription) against \(c.base ?? "nothing")"
            let parsed = try? WHATWGURL(input, base: c.base.flatMap { try? WHATWGURL($0) })
            guard let parsed else {
                if c.failure != true { failures.append("\(label): refused, WPT gives \(c.fields["href"] ?? "")") }
                continue
            }
            if c.failure == true { failures.append("\(label): WPT fails it, pekit gives \(parsed.href)"); continue }
            for name in Self.names where c.fields[name] != nil && Self.field(name, of: parsed) != c.fields[name] {
                failures.append("\(label): \(name) is \(Self.field(name, of: parsed).debugDescription), WPT \(c.fields[name]!.debugDescription)")
            }
        }
        XCTAssert(failures.isEmpty, "\(failures.count) of \(file.parse.count) differ:\n" + failures.joined(separator: "\n"))
    }

    func testSetters() throws {
        let file = try load()
        XCTAssertGreaterThan(file.setters.count, 250)
        var failures: [String] = []
        for c in file.setters {
            let start = try WHATWGURL(c.href ?? "")
            var url = start
            let component = c.component ?? "", value = c.new_value ?? ""
            XCTAssertTrue(try url.set(component, to: value), component)
            let label = "\((c.href ?? "").debugDescription).\(component) = \(value.debugDescription)"
            for (name, want) in (c.expected ?? [:]).sorted(by: { $0.key < $1.key }) where Self.field(name, of: url) != want {
                failures.append("\(label): \(name) is \(Self.field(name, of: url).debugDescription), WPT \(want.debugDescription)")
            }
        }
        XCTAssert(failures.isEmpty, "\(failures.count) of \(file.setters.count) differ:\n" + failures.joined(separator: "\n"))
    }

    /// pekit's own UTS #46 (Unicode 17.0.0 tables, scripts/idna-tables) gives WPT's answer for
    /// every name of IdnaTestV2.json and toascii.json: the same ASCII form, or a refusal.
    func testIDNAAgainstWPT() throws {
        let file = try load()
        var failures: [String] = []
        for (name, cases) in file.idna {
            for c in cases {
                let got = (try? WHATWGURL("https://\(c.input)/x"))?.hostWithPort
                if got == c.output { continue }
                failures.append("\(name) \(c.input.debugDescription): \(got ?? "refused"), WPT \(c.output ?? "refuses it")")
            }
        }
        XCTAssertEqual(file.idna["IdnaTestV2"]?.count, 2670)
        XCTAssertEqual(file.idna["toascii"]?.count, 87)
        XCTAssert(failures.isEmpty, "\(failures.count) differ:\n" + failures.joined(separator: "\n"))
        XCTAssertEqual(try IDNA.domainToASCII("FA\u{1E9E}.de"), "xn--fa-hia.de")
    }
}
