import Foundation
import XCTest
import PekitCore
import PekitCrypto
@testable import PekitLua
@testable import PekitTools

final class JWTModuleTests: XCTestCase {
    func testFromLua() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        // The same token as PyJWT: jwt.encode({"sub": "ada", "exp": 2000, "aud": "api"}, "s3cret").
        XCTAssertEqual(lua.eval(#"token = pekit.jwt.encode(pekit.ordered{ {"sub", "ada"}, {"exp", 2000}, {"aud", "api"} }, "s3cret") return token"#),
                       #""eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhZGEiLCJleHAiOjIwMDAsImF1ZCI6ImFwaSJ9.KarPX3F-qal2R0PvSVIlxfUdrrexvrPThGwpoXR7w7w""#)
        XCTAssertEqual(lua.eval(#"local h, c = pekit.jwt.decode(token) return h.alg, c.sub, c.exp"#), "\"HS256\"\t\"ada\"\t2000")
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify(token, "s3cret", { time = 1000, audience = "api" }).sub"#), #""ada""#)
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify(token, "s3cret", { time = 3000, audience = "api" })"#),
                       "error: stdin:1: pekit.jwt.verify: exp: the token expired at 1970-01-01T00:33:20Z (now 1970-01-01T00:50:00Z)")
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify(token, "s3cret", { time = 1000 })"#),
                       "error: stdin:1: pekit.jwt.verify: aud: the token is for api; say which audience to accept (audience =)")
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify(token, "wrong", { time = 1000, audience = "api" })"#),
                       "error: stdin:1: pekit.jwt.verify: signature: the signature does not match (HS256)")
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify("eyJhbGciOiJub25lIn0.eyJhIjoxfQ.", "s3cret")"#),
                       "error: stdin:1: pekit.jwt.verify: alg: an unsigned token (alg none) is never accepted")
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify(token, "s3cret", { algs = { "RS256" }, time = 1000, audience = "api" })"#),
                       "error: stdin:1: pekit.jwt.verify: alg: HS256 is not an allowed algorithm (allowed: RS256)")
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify("a.b", "k")"#), #"error: stdin:1: pekit.jwt.verify: format: a JWS has 3 parts separated by ".", this has 2"#)
    }

    /// Issue 30: a member given twice is refused (it would be checked on one copy and returned
    /// as another), an unknown critical extension is refused, an empty HMAC key signs nothing.
    func testMembersGivenTwiceCriticalExtensionsAndEmptyKeys() throws {
        let lua = LuaREPL(runtime: try makeRuntime())
        _ = lua.eval(#"""
            function token(h, c)
              local b = pekit.crypto.base64url.encode
              return b(h) .. "." .. b(c) .. "." .. b(pekit.crypto.hmac("sha256", "a key of thirty-two bytes, or so", b(h) .. "." .. b(c)))
            end
            """#)
        let claims = #"{"aud":"good","aud":"evil","iss":"me","iss":"attacker","exp":9999999999,"exp":1}"#
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify(token('{"alg":"HS256","typ":"JWT"}', '\#(claims)'), "a key of thirty-two bytes, or so", { audience = "good", issuer = "me", time = 1000 })"#),
                       #"error: stdin:1: pekit.jwt.verify: format: the claims is not JSON: invalid JSON at byte 15: the member "aud" appears twice in one object"#)
        XCTAssertEqual(lua.eval(#"pekit.jwt.decode(token('{"alg":"HS256","exp":1}', '{"exp":1,"exp":9999999999}'))"#),
                       #"error: stdin:1: pekit.jwt.decode: format: the claims is not JSON: invalid JSON at byte 10: the member "exp" appears twice in one object"#)
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify(token('{"alg":"HS256","alg":"none"}', '{"a":1}'), "a key of thirty-two bytes, or so")"#),
                       #"error: stdin:1: pekit.jwt.verify: format: the header is not JSON: invalid JSON at byte 16: the member "alg" appears twice in one object"#)
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify(token('{"alg":"HS256","crit":["x"],"x":1}', '{"a":1}'), "a key of thirty-two bytes, or so")"#),
                       #"error: stdin:1: pekit.jwt.verify: crit: the header marks "x" critical, an extension pekit does not understand (RFC 7515 §4.1.11)"#)
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify(token('{"alg":"HS256","crit":[]}', '{"a":1}'), "a key of thirty-two bytes, or so")"#),
                       #"error: stdin:1: pekit.jwt.verify: crit: crit must be a non-empty list of header member names (RFC 7515 §4.1.11)"#)
        XCTAssertEqual(lua.eval(#"pekit.jwt.encode({ a = 1 }, "")"#), "error: stdin:1: pekit.jwt.encode: key: an empty HMAC key signs nothing (anyone can make the signature)")
        XCTAssertEqual(lua.eval(#"pekit.jwt.verify("eyJhbGciOiJIUzI1NiJ9.eyJhIjoxfQ.bRXJ9Bg0h3NUQPmjYqsSBtOJbKgqDcq5aqmsHJfaKP0", "")"#),
                       "error: stdin:1: pekit.jwt.verify: key: an empty HMAC key signs nothing (anyone can make the signature)")
        XCTAssertEqual(JWT.keyWarning(Array("short".utf8), .hs256), "the HS256 key is 5 bytes, shorter than the 32 RFC 7518 §3.2 asks for")
        XCTAssertNil(JWT.keyWarning(Array(repeating: 0x61, count: 32), .hs256))
        XCTAssertEqual(JWT.keyWarning(Array(repeating: 0x61, count: 32), .hs512), "the HS512 key is 32 bytes, shorter than the 64 RFC 7518 §3.2 asks for")
    }
}
