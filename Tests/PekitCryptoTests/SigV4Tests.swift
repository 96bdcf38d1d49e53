import Foundation
import XCTest
import PekitCore
import PekitCrypto
import PekitTestSupport

/// AWS Signature V4 against botocore's SigV4Auth, S3SigV4Auth, SigV4QueryAuth and
/// S3SigV4QueryAuth (Fixtures/make_sigv4_vectors.py).
final class SigV4Tests: XCTestCase {
    func testMatchesBotocore() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "sigv4-vectors", withExtension: "json", subdirectory: "Fixtures"))
        let file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let time = try XCTUnwrap(file["time"] as? Int)
        let vectors = try XCTUnwrap(file["vectors"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(vectors.count, 15)
        for v in vectors {
            var headers = PekitHeaders()
            for case let pair as [String] in try XCTUnwrap(v["headers"] as? [Any]) { try headers.add(pair[0], pair[1]) }
            let body = try Hex.decode(Array(try XCTUnwrap(v["body"] as? String).utf8))
            var request = PekitRequest(method: .init(try XCTUnwrap(v["method"] as? String)), url: try XCTUnwrap(v["url"] as? String),
                                      headers: headers, body: body.isEmpty ? .empty : .bytes(body))
            var signer = AWSSigV4(accessKey: try XCTUnwrap(file["access_key"] as? String), secretKey: try XCTUnwrap(file["secret_key"] as? String),
                                  sessionToken: v["token"] as? String, region: try XCTUnwrap(file["region"] as? String),
                                  service: try XCTUnwrap(v["service"] as? String))
            signer.payload = try XCTUnwrap(AWSSigV4.Payload(rawValue: try XCTUnwrap(v["payload"] as? String)))
            signer.placement = try XCTUnwrap(AWSSigV4.Placement(rawValue: try XCTUnwrap(v["placement"] as? String)))
            signer.expires = try XCTUnwrap(v["expires"] as? Int)
            let explanation = try signer.sign(&request, at: Double(time))
            let label = "\(v["service"] ?? "") \(v["url"] ?? "") \(v["placement"] ?? "")"
            XCTAssertEqual(explanation.canonicalRequest, v["canonical_request"] as? String, label)
            XCTAssertEqual(explanation.stringToSign, v["string_to_sign"] as? String, label)
            XCTAssertEqual(request.url, v["signed_url"] as? String, label)
            let want = try XCTUnwrap(v["signed_headers"] as? [[String]]).map { "\($0[0]): \($0[1])" }
            XCTAssertEqual(request.headers.fields.map { "\($0.name): \($0.value)" }, want, label)
        }
    }
}
