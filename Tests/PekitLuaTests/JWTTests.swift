import Foundation
import XCTest
import PekitCore
import PekitCrypto
@testable import PekitLua

/// JWTs against PyJWT (Fixtures/make_jwt_vectors.py) and RFC 7515 appendix A.1.
final class JWTTests: XCTestCase {
    struct Fixture: Decodable {
        struct Encoded: Decodable { let alg: String; let token: String }
        struct Verify: Decodable { let token: String; let key: String; let options: [String: String] }
        struct Refused: Decodable { let token: String; let key: String; let check: String; let options: [String: String] }
        struct RFC: Decodable { let token: String; let key_base64url: String; let now: Double }
        let now: Double
        let keys: [String: String]
        let encoded: [Encoded]
        let verify: [Verify]
        let refused: [Refused]
        let rfc7515: RFC
    }

    func fixture() throws -> (Fixture, PekitValue) {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "jwt-vectors", withExtension: "json", subdirectory: "Fixtures"))
        let data = try Data(contentsOf: url)
        return (try JSONDecoder().decode(Fixture.self, from: data), try JSON.parse(Array(data)))
    }

    func testEncodesAsPyJWT() throws {
        let (f, raw) = try fixture()
        guard case .map(let top) = raw, case .array(let encoded)? = top["encoded"] else { return XCTFail("fixture") }
        for (i, vector) in f.encoded.enumerated() {
            guard case .map(let v) = encoded[i], let claims = v["claims"] else { return XCTFail("fixture") }
            var header: PekitMap?
            if case .map(let h)? = v["header"] { header = h }
            let alg = try XCTUnwrap(JWT.Algorithm(rawValue: vector.alg))
            let key = alg.family == "HS" ? f.keys["secret"] : f.keys["rsa_private"]
            XCTAssertEqual(try JWT.encode(claims: claims, key: Array(try XCTUnwrap(key).utf8), algorithm: alg, header: header), vector.token, vector.alg)
        }
    }

    func testVerifiesAndRefusesAsPyJWT() throws {
        let (f, _) = try fixture()
        func options(_ o: [String: String], now: Double) -> JWT.Options {
            var options = JWT.Options(now: now)
            options.audience = o["audience"].map { [$0] }
            options.issuer = o["issuer"].map { [$0] }
            return options
        }
        for v in f.verify {
            guard case .map(let claims) = try JWT.verify(v.token, key: Array(v.key.utf8), options: options(v.options, now: f.now)) else { return XCTFail("not a map") }
            XCTAssertEqual(claims["iss"], .text("pekit"))
            // ES tokens are randomized: pekit's own must verify too.
            let header = try JWT.decode(v.token).header
            guard case .map(let h) = header, case .string(let alg)? = h["alg"], let algorithm = JWT.Algorithm(rawValue: alg.description) else { return XCTFail("header") }
            let signing = algorithm.family == "HS" ? "secret" : algorithm == .es256 ? "p256_private" : algorithm == .es384 ? "p384_private" : "rsa_private"
            let ours = try JWT.encode(claims: .map(claims), key: Array(try XCTUnwrap(f.keys[signing]).utf8), algorithm: algorithm)
            XCTAssertNoThrow(try JWT.verify(ours, key: Array(v.key.utf8), options: options(v.options, now: f.now)), alg.description)
        }
        for v in f.refused {
            XCTAssertThrowsError(try JWT.verify(v.token, key: Array(v.key.utf8), options: options(v.options, now: f.now))) { error in
                XCTAssertEqual((error as? JWT.VerificationError)?.check, v.check, "\(error)")
            }
        }
        let key = try Base64.decode(Array(f.rfc7515.key_base64url.utf8), alphabet: .url)
        guard case .map(let rfc) = try JWT.verify(f.rfc7515.token, key: key, options: JWT.Options(now: f.rfc7515.now)) else { return XCTFail("RFC 7515") }
        XCTAssertEqual(rfc["iss"], .text("joe"))
        XCTAssertThrowsError(try JWT.verify(f.rfc7515.token, key: key, options: JWT.Options(now: f.rfc7515.now + 100))) {
            XCTAssertEqual("\($0)", "exp: the token expired at 2011-03-22T18:43:00Z (now 2011-03-22T18:44:30Z)")
        }
    }
}

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
