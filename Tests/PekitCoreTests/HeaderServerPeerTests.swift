import Foundation
import XCTest
@testable import PekitCore

/// Every header model against what the real server's program was given for the same request
/// (Fixtures/header-servers/make_header_vectors.py ran PHP's built-in server, Rack on WEBrick,
/// wsgiref, Go's net/http and node's http on 151 requests: chosen fields and random ones).
final class HeaderServerPeerTests: XCTestCase {
    func testEveryHeaderModelGivesWhatItsServerGives() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "header-vectors", withExtension: "json", subdirectory: "Fixtures/header-servers"))
        let (count, failures) = try Self.compare(url: url)
        XCTAssertEqual(count, 151)
        XCTAssert(failures.isEmpty, "\(failures.count) differ:\n" + failures.prefix(30).joined(separator: "\n"))
    }

    /// Every request of the file at `url` given to each model: how many, and each difference.
    static func compare(url: URL) throws -> (count: Int, failures: [String]) {
        guard case .array(let vectors) = try JSONText.parse(Data(contentsOf: url)) else { return (0, ["not a list"]) }
        var failures: [String] = []
        for case .map(let vector) in vectors {
            guard case .array(let given)? = vector["fields"], case .map(let expected)? = vector["expected"] else { return (0, ["bad vector"]) }
            // As sent: Host first, the case's fields (text read as latin-1 bytes), Connection: close last.
            var fields: [(name: [UInt8], value: [UInt8])] = [(Array("Host".utf8), Array("x".utf8))]
            for case .array(let pair) in given {
                guard case .string(let name) = pair[0], case .string(let value) = pair[1] else { continue }
                let latin1 = String(decoding: value.bytes, as: UTF8.self).unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
                fields.append((name.bytes, Array(latin1.drop { $0 == 0x20 || $0 == 0x09 })))
            }
            fields.append((Array("Connection".utf8), Array("close".utf8)))
            for server in HeaderServer.allCases {
                let got: PekitValue
                do { got = QueryServerPeerTests.canonical(try server.read(fields)) } catch let error as QueryServerError {
                    got = .map(PekitMap(ordered: [.init(key: "$error", value: .text(error.kind))]))
                }
                let a = String(decoding: JSONText.write(got), as: UTF8.self)
                let b = String(decoding: JSONText.write(expected[ByteString(server.rawValue)] ?? .null), as: UTF8.self)
                if a != b { failures.append("\(server) \(String(decoding: JSONText.write(.array(given)), as: UTF8.self)):\n   got  \(a)\n   want \(b)") }
            }
        }
        return (vectors.count, failures)
    }
}
