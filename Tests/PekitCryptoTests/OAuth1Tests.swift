import Foundation
import XCTest
import PekitCore
import PekitCrypto
import PekitTestSupport

/// OAuth 1.0a against oauthlib's Client.sign (Fixtures/make_oauth1_vectors.py), RFC 5849 §1.2's
/// example first.
final class OAuth1Tests: XCTestCase {
    func testMatchesOauthlib() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "oauth1-vectors", withExtension: "json", subdirectory: "Fixtures"))
        let file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let vectors = try XCTUnwrap(file["vectors"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(vectors.count, 9)
        for v in vectors {
            let o = try XCTUnwrap(v["options"] as? [String: String])
            var signer = OAuth1(consumerKey: try XCTUnwrap(o["client_key"]))
            signer.consumerSecret = o["client_secret"] ?? ""
            signer.token = o["resource_owner_key"]
            signer.tokenSecret = o["resource_owner_secret"]
            signer.nonce = o["nonce"]
            signer.timestamp = o["timestamp"].flatMap { Int($0) }
            signer.realm = o["realm"]
            signer.callback = o["callback_uri"]
            signer.verifier = o["verifier"]
            signer.rsaKey = o["rsa_key"].map { Array($0.utf8) }
            signer.method = try XCTUnwrap(OAuth1.Method(rawValue: o["signature_method"] ?? "HMAC-SHA1"))
            var headers = PekitHeaders()
            for case let pair as [String] in try XCTUnwrap(v["headers"] as? [Any]) { try headers.add(pair[0], pair[1]) }
            let body = Array(try XCTUnwrap(v["body"] as? String).utf8)
            var request = PekitRequest(method: .init(try XCTUnwrap(v["method"] as? String)), url: try XCTUnwrap(v["url"] as? String),
                                      headers: headers, body: body.isEmpty ? .empty : .bytes(body))
            let explanation = try signer.sign(&request, now: 0)
            let label = "\(v["url"] ?? "")"
            if let base = v["base_string"] as? String { XCTAssertEqual(explanation.baseString, base, label) }
            XCTAssertEqual(request.headers["Authorization"], v["authorization"] as? String, label)
        }
    }

    /// A realm with a quote would end the quoted string early and add a second oauth_signature
    /// of the realm's choosing (issue 41): refused, as any control character is.
    func testARealmCannotAddParameters() throws {
        for realm in ["r\",oauth_signature=\"x", "a\\b", "line\r\nX-Evil: 1"] {
            var signer = OAuth1(consumerKey: "key")
            signer.consumerSecret = "secret"
            signer.realm = realm
            var request = PekitRequest(method: "GET", url: "http://example.com/", headers: PekitHeaders(), body: .empty)
            XCTAssertThrowsError(try signer.sign(&request, now: 0), realm) { error in
                XCTAssertTrue("\(error)".hasPrefix("realm: "), "\(error)")
            }
            XCTAssertNil(request.headers["Authorization"])
        }
        var signer = OAuth1(consumerKey: "key")
        signer.realm = "Photos, Example"
        var request = PekitRequest(method: "GET", url: "http://example.com/", headers: PekitHeaders(), body: .empty)
        _ = try signer.sign(&request, now: 0)
        let field = request.headers["Authorization"] ?? ""
        XCTAssertTrue(field.hasPrefix("OAuth realm=\"Photos, Example\", oauth_"), field)
        XCTAssertEqual(field.components(separatedBy: "oauth_signature=").count, 2, field)
    }
}
