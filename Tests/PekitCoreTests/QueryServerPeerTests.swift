import Foundation
import XCTest
@testable import PekitCore

/// Every server model against what the real parser read from the same input
/// (Fixtures/servers/make_server_vectors.py ran node-qs, PHP, Rack, Python, Go and node).
final class QueryServerPeerTests: XCTestCase {
    /// The model a vector names, configured with the options it gives (in the server's own names).
    static func model(_ name: String, _ options: PekitMap) throws -> QueryServer {
        func flag(_ key: String) -> Bool? { if case .boolean(let b)? = options[ByteString(key)] { return b }; return nil }
        func int(_ key: String) -> Int? { if case .integer(let n)? = options[ByteString(key)] { return Int(n) }; return nil }
        func text(_ key: String) -> ByteString? { if case .string(let s)? = options[ByteString(key)] { return s }; return nil }
        switch name {
        case "qs":
            var p = QSParser()
            p.allowDots = flag("allowDots") ?? p.allowDots
            p.allowPrototypes = flag("allowPrototypes") ?? p.allowPrototypes
            p.allowSparse = flag("allowSparse") ?? p.allowSparse
            p.arrayLimit = int("arrayLimit") ?? p.arrayLimit
            p.charset = text("charset").flatMap { QSParser.Charset(rawValue: $0.description) } ?? p.charset
            p.charsetSentinel = flag("charsetSentinel") ?? p.charsetSentinel
            p.comma = flag("comma") ?? p.comma
            if flag("depth") == false { p.depth = 0 }
            p.depth = int("depth") ?? p.depth
            p.ignoreQueryPrefix = flag("ignoreQueryPrefix") ?? p.ignoreQueryPrefix
            p.interpretNumericEntities = flag("interpretNumericEntities") ?? p.interpretNumericEntities
            if let limit = int("parameterLimit") { p.parameterLimit = QSParser.splitLimit(Double(limit)) }
            if text("parameterLimit") == "inf" { p.parameterLimit = nil }
            p.parseArrays = flag("parseArrays") ?? p.parseArrays
            p.strictNullHandling = flag("strictNullHandling") ?? p.strictNullHandling
            if let sep = text("delimiter") { p.delimiter = .string(sep) }
            if case .map(let pattern)? = options["delimiter"], case .string("[;,]")? = pattern["pattern"] {
                p.delimiter = .custom { input in
                    var parts: [Range<Int>] = [], start = 0
                    for (i, b) in input.enumerated() where b == 0x3B || b == 0x2C { parts.append(start..<i); start = i + 1 }
                    return parts + [start..<input.count]
                }
            }
            return .qs(p)
        case "php":
            var p = PHPParser()
            p.maxInputVars = int("max_input_vars") ?? p.maxInputVars
            p.maxInputNestingLevel = int("max_input_nesting_level") ?? p.maxInputNestingLevel
            return .php(p)
        case "rack":
            var p = RackParser()
            p.keySpaceLimit = int("key_space_limit") ?? p.keySpaceLimit
            p.paramDepthLimit = int("param_depth_limit") ?? p.paramDepthLimit
            p.bytesizeLimit = int("bytesize_limit") ?? p.bytesizeLimit
            p.paramsLimit = int("params_limit") ?? p.paramsLimit
            p.separators = text("separators")
            return .rack(p)
        case "python":
            var p = PythonParser()
            p.keepBlankValues = flag("keep_blank_values") ?? false
            p.strictParsing = flag("strict_parsing") ?? false
            p.maxNumFields = int("max_num_fields")
            p.separator = text("separator") ?? "&"
            p.encoding = try XCTUnwrap(PythonParser.Encoding(rawValue: text("encoding")?.description ?? "utf-8"))
            p.errors = try XCTUnwrap(PythonParser.Errors(rawValue: text("errors")?.description ?? "replace"))
            return .python(p)
        case "node-querystring":
            var p = NodeQuerystringParser()
            p.sep = text("sep") ?? p.sep
            p.eq = text("eq") ?? p.eq
            p.maxKeys = int("maxKeys") ?? p.maxKeys
            return .nodeQuerystring(p)
        default:
            return try QueryServer.named(name)
        }
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
        let url = try XCTUnwrap(Bundle.module.url(forResource: "server-vectors", withExtension: "json", subdirectory: "Fixtures/servers"))
        guard case .array(let vectors) = try JSON.parse(Data(contentsOf: url)) else { return XCTFail("not a list") }
        var failures: [String] = []
        var perModel: [String: Int] = [:]
        for case .map(let vector) in vectors {
            guard case .string(let modelName)? = vector["model"], case .string(let query)? = vector["query"],
                  case .map(let options)? = vector["options"], let expected = vector["expected"] else { return XCTFail("bad vector") }
            perModel[modelName.description, default: 0] += 1
            let model = try Self.model(modelName.description, options)
            let got: PekitValue
            do {
                let (value, error) = try model.read(query)
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
            let a = String(decoding: JSON.write(got), as: UTF8.self), b = String(decoding: JSON.write(Self.holesAsNull(want)), as: UTF8.self)
            if a != b {
                failures.append("\(modelName) \(String(decoding: JSON.write(.map(options)), as: UTF8.self)) \(query.description.prefix(120)):\n   got  \(a.prefix(400))\n   want \(b.prefix(400))")
            }
        }
        XCTAssertGreaterThanOrEqual(perModel.values.min() ?? 0, 100, "every model needs 100 vectors: \(perModel)")
        XCTAssertEqual(perModel.count, QueryServer.names.count)
        XCTAssert(failures.isEmpty, "\(failures.count) of \(vectors.count) differ:\n" + failures.prefix(60).joined(separator: "\n"))
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
