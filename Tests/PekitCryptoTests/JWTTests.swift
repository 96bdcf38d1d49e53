import Foundation
import XCTest
import PekitCore
import PekitCrypto

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
        return (try JSONDecoder().decode(Fixture.self, from: data), try JSONText.parse(Array(data)))
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

    /// Claims as a Swift type, both ways (issue 45): the token for an Encodable is the token for
    /// the same claims as a PekitValue, and verifying reads them into a Decodable.
    func testClaimsAreSwiftTypes() throws {
        struct Claims: Codable, Equatable { var sub: String; var exp: Int; var admin: Bool; var scopes: [String] }
        let claims = Claims(sub: "u1", exp: 2_000_000_000, admin: false, scopes: ["read", "write"])
        let key = Array("secret".utf8)
        let token = try JWT.encode(claims: claims, key: key, algorithm: .hs256)
        let map = PekitValue.map(PekitMap(ordered: [
            .init(key: "sub", value: .string("u1")), .init(key: "exp", value: .integer(2_000_000_000)),
            .init(key: "admin", value: .boolean(false)), .init(key: "scopes", value: .array([.string("read"), .string("write")])),
        ]))
        XCTAssertEqual(token, try JWT.encode(claims: map, key: key, algorithm: .hs256))
        XCTAssertEqual(try JWT.verify(token, key: key, options: JWT.Options(now: 1_900_000_000), as: Claims.self), claims)
        XCTAssertThrowsError(try JWT.verify(token, key: key, options: JWT.Options(now: 2_100_000_000), as: Claims.self)) { error in
            XCTAssertTrue(error is JWT.VerificationError, "\(error)")
        }
    }
}
