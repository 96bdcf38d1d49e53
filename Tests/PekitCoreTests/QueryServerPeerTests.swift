import Foundation
import XCTest
@testable import PekitCore

/// Every server model against what the real parser read from the same input
/// (Fixtures/servers/make_server_vectors.py ran node-qs, PHP, Rack, Python, Go and node).
final class QueryServerPeerTests: XCTestCase {
    /// The model a vector names, configured with the options it gives (in the server's own names)
    /// through the same reader the CLI's `--set` and Lua's option tables use.
    static func model(_ name: String, _ options: PekitMap) throws -> QueryServer {
        var values: [(name: String, value: PekitValue)] = []
        var pattern = false
        for entry in options.entries {
            switch (entry.key.description, entry.value) {
            case ("parameterLimit", .string("inf")): values.append(("parameterLimit", .text("Infinity")))
            case ("delimiter", .map): pattern = true
            default: values.append((entry.key.description, entry.value))
            }
        }
        var server = try QueryServer.named(name, options: values)
        if pattern, case .qs(var qs) = server {
            // The fixture's RegExp /[;,]/, as the Lua host's pattern "[;,]" splits.
            qs.delimiter = .custom { input in
                var parts: [Range<Int>] = [], start = 0
                for (i, b) in input.enumerated() where b == 0x3B || b == 0x2C { parts.append(start..<i); start = i + 1 }
                return parts + [start..<input.count]
            }
            server = .qs(qs)
        }
        return server
    }

    /// The fixture's canonical form: maps as {"$map": [[k, v], …]}, bytes that are not UTF-8 as
    /// {"$bytes": hex}.
    static func canonical(_ value: PekitValue, sortKeys: Bool = false) -> PekitValue {
        func string(_ s: ByteString) -> PekitValue {
            UTF8Validation.isValid(s.bytes) ? .string(s) : .map(PekitMap(ordered: [.init(key: "$bytes", value: .text(s.bytes.map { String(format: "%02x", $0) }.joined()))]))
        }
        switch value {
        case .string(let s): return string(s)
        case .array(let items): return .array(items.map { canonical($0, sortKeys: sortKeys) })
        case .map(let map):
            var entries = map.entries
            if sortKeys { entries.sort { $0.key < $1.key } }
            return .map(PekitMap(ordered: [.init(key: "$map", value: .array(entries.map { .array([string($0.key), canonical($0.value, sortKeys: sortKeys)]) }))]))
        default: return value
        }
    }

    func testEveryModelReadsWhatItsServerReads() throws {
        let (vectors, perModel, failures) = try Self.compare("server-vectors")
        XCTAssertGreaterThanOrEqual(perModel.values.min() ?? 0, 100, "every model needs 100 vectors: \(perModel)")
        XCTAssertEqual(perModel.count, QueryServer.names.count)
        XCTAssert(failures.isEmpty, "\(failures.count) of \(vectors) differ:\n" + failures.prefix(60).joined(separator: "\n"))
    }

    /// PHP's arg_separator.input: every character of it splits (Fixtures/servers/make_php_separator_vectors.py).
    func testPHPArgSeparatorInput() throws {
        let (vectors, perModel, failures) = try Self.compare("php-separator-vectors")
        XCTAssertEqual(perModel, ["php": 60])
        XCTAssert(failures.isEmpty, "\(failures.count) of \(vectors) differ:\n" + failures.prefix(60).joined(separator: "\n"))
    }

    /// Reads every vector of Fixtures/servers/`name`.json with the model and options it names and
    /// compares the canonical result: how many, how many per model, and each difference.
    static func compare(_ name: String) throws -> (count: Int, perModel: [String: Int], failures: [String]) {
        try compare(url: XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/servers")))
    }

    /// `compare` on the vectors in the file at `url` (LiveServerDifferentialTests: new ones).
    static func compare(url: URL) throws -> (count: Int, perModel: [String: Int], failures: [String]) {
        guard case .array(let vectors) = try JSONText.parse(Data(contentsOf: url)) else { return (0, [:], ["\(url.path): not a list"]) }
        var failures: [String] = []
        var perModel: [String: Int] = [:]
        for case .map(let vector) in vectors {
            guard case .string(let modelName)? = vector["model"], case .string(let query)? = vector["query"],
                  case .map(let options)? = vector["options"], let expected = vector["expected"] else { failures.append("bad vector"); continue }
            perModel[modelName.description, default: 0] += 1
            let model = try Self.model(modelName.description, options)
            let got: PekitValue
            do {
                let (value, error) = try model.reading(query)
                if case .go = model {
                    got = .map(PekitMap(ordered: [.init(key: "error", value: error.map { .text($0.message) } ?? .null),
                                                  .init(key: "values", value: Self.canonical(value, sortKeys: true))]))
                } else {
                    got = Self.canonical(value)
                }
            } catch let error as QueryServerError {
                got = .map(PekitMap(ordered: [.init(key: "$error", value: .text(error.kind)), .init(key: "message", value: .text(error.message))]))
            }
            var want = expected
            if case .map(let m) = expected, case .string(let cls)? = m["$error"] {
                want = .map(PekitMap(ordered: [.init(key: "$error", value: .text(String(cls.description.split(separator: ":").last ?? ""))),
                                               .init(key: "message", value: m["message"] ?? .null)]))
            }
            if case .map(let m) = expected, let values = m["values"] {
                want = .map(PekitMap(ordered: [.init(key: "error", value: m["error"] ?? .null), .init(key: "values", value: values)]))
            }
            let a = String(decoding: JSONText.write(got), as: UTF8.self), b = String(decoding: JSONText.write(Self.holesAsNull(want)), as: UTF8.self)
            if a != b {
                failures.append("\(modelName) \(String(decoding: JSONText.write(.map(options)), as: UTF8.self)) \(query.description.prefix(120)):\n   got  \(a.prefix(400))\n   want \(b.prefix(400))")
            }
        }
        return (vectors.count, perModel, failures)
    }

    /// qs with allowSparse keeps holes; the fixture marks them {"$hole": true}, pekit returns null.
    static func holesAsNull(_ value: PekitValue) -> PekitValue {
        switch value {
        case .map(let m) where m.count == 1 && m["$hole"] != nil: return .null
        case .map(let m): return .map(PekitMap(ordered: m.entries.map { .init(key: $0.key, value: holesAsNull($0.value)) }))
        case .array(let items): return .array(items.map(holesAsNull))
        default: return value
        }
    }
}
