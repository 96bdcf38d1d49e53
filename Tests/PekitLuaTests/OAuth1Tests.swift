import Foundation
import XCTest
import PekitCore
import PekitCrypto
import PekitTestSupport
@testable import PekitLua
@testable import PekitTools

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
