import Foundation
import XCTest
import PekitCore
import PekitCrypto
import PekitTestSupport
@testable import PekitLua
@testable import PekitTools

/// Signed requests sent to the local server, which checks the signature as AWS does
/// (Tests/Server/pekit_test_server.py, /aws/…, recomputed with hashlib and hmac).
final class SigV4SendTests: XCTestCase {
    var lua: LuaREPL!
    override func tearDown() { lua = nil }

    override func setUpWithError() throws {
        let server = try TestServer.shared()
        lua = LuaREPL(runtime: try makeRuntime())
        XCTAssertEqual(lua.eval(#"""
            base = "\#(server.base)"; tls_port = \#(server.httpsPort); cacert = "\#(server.cacert)"
            keys = { access_key = "AKIDEXAMPLE", secret_key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region = "eu-west-1" }
            function sign(req, extra)
              local options = {}
              for k, v in pairs(keys) do options[k] = v end
              for k, v in pairs(extra) do options[k] = v end
              return pekit.sign.aws_sigv4(req, options)
            end
            """#), "")
    }

    func testTheServerAcceptsSignedRequests() {
        XCTAssertEqual(lua.eval(#"""
            local req = pekit.request{ method = "POST", url = base .. "/aws/prod/items", params = { b = "2 3", a = "1" },
                                       json = { name = "小A" }, headers = { ["X-Custom"] = "  spaced   out  " } }
            local r = sign(req, { service = "execute-api", session_token = "TOKEN" }):send()
            return r.status, r:json().ok
            """#), "200\ttrue")
        // A field repeated (AWS's get-header-key-duplicate): signed as one, its values joined with
        // commas in order, as botocore signs it and the server checks it.
        XCTAssertEqual(lua.eval(#"""
            local req = pekit.request{ url = base .. "/aws/dup", headers = { { "My-Header1", "value2" }, { "My-Header1", "value2" },
                                                                               { "My-Header1", "value1" }, { "X-B", "1" } } }
            local signed = sign(req, { service = "execute-api" })
            local r = signed:send()
            local n = 0
            for _, f in ipairs(signed.headers) do if f[1] == "My-Header1" then n = n + 1 end end
            return r.status, r:json().ok, n, (r:json().canonical_request:match("my%-header1:[^\n]*"))
            """#), "200\ttrue\t3\t\"my-header1:value2,value2,value1\"")
        XCTAssertEqual(lua.eval(#"""
            local req = pekit.request{ method = "PUT", url = base .. "/aws/bucket/a%20key", body = "file body" }
            local r = sign(req, { service = "s3", payload = "unsigned" }):send()
            return r.status, r:json().ok
            """#), "200\ttrue")
        XCTAssertEqual(lua.eval(#"""
            local req = sign(pekit.request{ url = base .. "/aws/bucket/report.csv" }, { service = "s3", sign_in = "query", expires = 60 })
            local r = pekit.http.get(req.url)
            return r.status, r:json().ok
            """#), "200\ttrue")
        // sign = {…} on the request signs every hop to the same origin again, and none elsewhere.
        XCTAssertEqual(lua.eval(#"""
            local aws = { "aws-sigv4", service = "execute-api" }
            for k, v in pairs(keys) do aws[k] = v end
            local r = pekit.request{ url = base .. "/redirect/302?to=/aws/moved%3Fx%3D1", sign = aws }:send()
            local away = pekit.request{ url = base .. "/redirect/302?to=https://127.0.0.1:" .. tls_port .. "/aws/away", sign = aws }:send{ insecure = true }
            return r.status, #r.redirects, away.status, away:json().error
            """#), "200\t1\t403\t\"no AWS4-HMAC-SHA256 Authorization header or X-Amz-Signature\"")
        // Issue 69: `Content-Length = false` removes no framing; the length pekit writes back is
        // still its own, unsigned as botocore leaves it (it signs none it did not write).
        XCTAssertEqual(lua.eval(#"""
            local function signed_headers(fields)
              local req = sign(pekit.request{ method = "POST", url = base .. "/aws/len", body = "abc", headers = fields }, { service = "execute-api" })
              return req:header("authorization"):match("SignedHeaders=[^,]*"), req:send().status
            end
            local a, status = signed_headers{ ["Content-Length"] = false }
            local b = signed_headers{}
            return a:find("content%-length") == nil, a == b, status
            """#), "true\ttrue\t200")
        // A wrong key, or a presigned URL changed after signing, is refused: the check is real.
        XCTAssertEqual(lua.eval(#"""
            local req = sign(pekit.request{ url = base .. "/aws/x?a=1" }, { service = "execute-api", secret_key = "wrong" })
            local presigned = sign(pekit.request{ url = base .. "/aws/x?a=1" }, { service = "execute-api", sign_in = "query" })
            return req:send().status, pekit.http.get((presigned.url:gsub("a=1", "a=2"))).status
            """#), "403\t403")
    }
}
