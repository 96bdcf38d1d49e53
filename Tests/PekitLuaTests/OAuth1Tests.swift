import Foundation
import XCTest
import PekitCore
import PekitCrypto
import PekitTestSupport
@testable import PekitLua

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
            var headers = HTTPHeaders()
            for case let pair as [String] in try XCTUnwrap(v["headers"] as? [Any]) { try headers.add(pair[0], pair[1]) }
            let body = Array(try XCTUnwrap(v["body"] as? String).utf8)
            var request = HTTPRequest(method: try XCTUnwrap(v["method"] as? String), url: try XCTUnwrap(v["url"] as? String),
                                      headers: headers, body: body.isEmpty ? .empty : .bytes(body))
            let explanation = try signer.sign(&request, now: 0)
            let label = "\(v["url"] ?? "")"
            if let base = v["base_string"] as? String { XCTAssertEqual(explanation.baseString, base, label) }
            XCTAssertEqual(request.headers["Authorization"], v["authorization"] as? String, label)
        }
    }
}

/// Signed requests sent to the local server, which checks them per RFC 5849 (hashlib and hmac).
final class OAuth1SendTests: XCTestCase {
    func testTheServerAcceptsSignedRequests() throws {
        let server = try TestServer.shared()
        let lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"""
            base = "\#(server.base)"
            keys = { consumer_key = "pekit-consumer", consumer_secret = "consumer secret", token = "pekit-token", token_secret = "token secret" }
            """#), "")
        XCTAssertEqual(lua.eval(#"""
            local req = pekit.request{ method = "POST", url = base .. "/oauth1/statuses", params = { status = "hello ladies + gentlemen", n = 1 } }
            local r = pekit.sign.oauth1(req, keys):send()
            return r.status, r:json().ok
            """#), "200\ttrue")
        XCTAssertEqual(lua.eval(#"""
            local req = pekit.request{ method = "PUT", url = base .. "/oauth1/items?id=7&tag=a%20b", json = { x = "小" } }
            local o = {} for k, v in pairs(keys) do o[k] = v end
            o.method = "HMAC-SHA256"
            local signed, why = pekit.sign.oauth1(req, o)
            return signed:send().status, why == nil, signed:header("Authorization"):find('oauth_body_hash="', 1, true) ~= nil
            """#), "200\ttrue\ttrue")
        XCTAssertEqual(lua.eval(#"""
            local o = {} for k, v in pairs(keys) do o[k] = v end
            o.token_secret = "wrong"
            return pekit.sign.oauth1(pekit.request{ url = base .. "/oauth1/x" }, o):send().status
            """#), "403")
        XCTAssertEqual(lua.eval(#"pekit.sign.oauth1(pekit.request{ url = base }, { consumer_key = "k", method = "RSA-SHA1" })"#),
                       #"error: stdin:1: pekit.sign.oauth1: bad argument #2 (field "rsa_key": RSA-SHA1 needs the PEM private key)"#)
    }
}
