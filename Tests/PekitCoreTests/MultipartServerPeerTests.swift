import Foundation
import XCTest
@testable import PekitCore

/// Every multipart model against what the real server read from the same body
/// (Fixtures/multipart-servers/make_multipart_vectors.py ran PHP's built-in server, Rack,
/// Python's cgi and Go's net/http on 412 bodies: chosen ones and random ones).
final class MultipartServerPeerTests: XCTestCase {
    func testEveryMultipartModelReadsWhatItsServerReads() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "multipart-vectors", withExtension: "json", subdirectory: "Fixtures/multipart-servers"))
        let (count, failures) = try Self.compare(url: url)
        XCTAssertEqual(count, 412)
        XCTAssert(failures.isEmpty, "\(failures.count) differ:\n" + failures.prefix(30).joined(separator: "\n"))
    }

    /// Every vector of the file at `url` read by each model: how many, and each difference.
    static func compare(url: URL) throws -> (count: Int, failures: [String]) {
        guard case .array(let vectors) = try JSONText.parse(Data(contentsOf: url)) else { return (0, ["not a list"]) }
        var failures: [String] = []
        for case .map(let vector) in vectors {
            guard case .string(let hex)? = vector["body_hex"], case .string(let contentType)? = vector["content_type"],
                  case .map(let expected)? = vector["expected"] else { return (0, ["bad vector"]) }
            let body = stride(from: 0, to: hex.bytes.count, by: 2).map { UInt8(String(decoding: hex.bytes[$0..<($0 + 2)], as: UTF8.self), radix: 16) ?? 0 }
            for server in MultipartServer.allCases {
                let got: PekitValue
                do {
                    got = QueryServerPeerTests.canonical(try server.read(contentType: contentType.bytes, body: body))
                } catch let error as QueryServerError {
                    got = .map(PekitMap(ordered: [.init(key: "$error", value: .text(error.kind.isEmpty ? server.errorKind : error.kind)),
                                                  .init(key: "message", value: .text(error.message))]))
                }
                let a = String(decoding: JSONText.write(got), as: UTF8.self)
                let b = String(decoding: JSONText.write(Self.filesAsMaps(expected[ByteString(server.rawValue)] ?? .null)), as: UTF8.self)
                if a != b { failures.append("\(server) \(contentType) \(String(reflecting: String(decoding: body.prefix(300), as: UTF8.self))):\n   got  \(a.prefix(600))\n   want \(b.prefix(600))") }
            }
        }
        return (vectors.count, failures)
    }

    /// The fixture marks a file `{"$file": FILE}`; the models give the file's map itself.
    static func filesAsMaps(_ value: PekitValue) -> PekitValue {
        switch value {
        // Ruby's error classes without their module (`Rack::QueryParser::ParameterTypeError`).
        case .map(let m) where m["$error"] != nil:
            guard case .string(let cls)? = m["$error"] else { return value }
            return .map(PekitMap(ordered: [.init(key: "$error", value: .text(String(cls.description.split(separator: ":").last ?? ""))),
                                           .init(key: "message", value: m["message"] ?? .null)]))
        case .map(let m) where m.count == 1 && m["$file"] != nil: return m["$file"] ?? .null
        case .map(let m): return .map(PekitMap(ordered: m.entries.map { .init(key: $0.key, value: filesAsMaps($0.value)) }))
        case .array(let items): return .array(items.map(filesAsMaps))
        default: return value
        }
    }
}
