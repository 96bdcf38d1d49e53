import Foundation
import XCTest
import PekitCore
import PekitCrypto

/// pekit.crypto and pekit.time against Python's hashlib, hmac, base64, datetime and email.utils
/// (Fixtures/make_crypto_vectors.py) and the RFC examples in it.
final class CryptoTimeTests: XCTestCase {
    func fixture() throws -> [String: Any] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "crypto-vectors", withExtension: "json", subdirectory: "Fixtures"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    func bytes(_ hex: Any?) throws -> [UInt8] { try Hex.decode(Array(try XCTUnwrap(hex as? String).utf8)) }
    func hex(_ b: [UInt8]) -> String { String(decoding: Hex.encode(b), as: UTF8.self) }

    func testDigestsAndHMACsMatchPython() throws {
        let f = try fixture()
        for case let v as [String: Any] in try XCTUnwrap(f["digests"] as? [Any]) {
            let alg = try DigestAlgorithm(named: try XCTUnwrap(v["alg"] as? String))
            XCTAssertEqual(hex(try Digest.hash(alg, try bytes(v["data"]))), v["digest"] as? String, "\(alg)")
            // The same in three parts through a stream.
            let data = try bytes(v["data"]), stream = try HashStream(alg)
            try stream.update(Array(data.prefix(1))); try stream.update(Array(data.dropFirst().prefix(100))); try stream.update(Array(data.dropFirst(101)))
            XCTAssertEqual(hex(try stream.finish()), v["digest"] as? String)
        }
        for case let v as [String: Any] in try XCTUnwrap(f["hmacs"] as? [Any]) {
            let alg = try DigestAlgorithm(named: try XCTUnwrap(v["alg"] as? String))
            XCTAssertEqual(hex(try Digest.hmac(alg, key: try bytes(v["key"]), try bytes(v["data"]))), v["mac"] as? String)
        }
    }

    func testBase64AndHexMatchPython() throws {
        for case let v as [String: Any] in try XCTUnwrap(try fixture()["base64"] as? [Any]) {
            let data = try bytes(v["data"])
            let standard = try XCTUnwrap(v["base64"] as? String), url = try XCTUnwrap(v["base64url"] as? String)
            XCTAssertEqual(String(decoding: Base64.encode(data, alphabet: .standard), as: UTF8.self), standard)
            XCTAssertEqual(String(decoding: Base64.encode(data, alphabet: .url), as: UTF8.self), url)
            XCTAssertEqual(try Base64.decode(Array(standard.utf8), alphabet: .standard), data)
            XCTAssertEqual(try Base64.decode(Array(url.utf8), alphabet: .url), data)
            // base64url takes its padding, or none.
            let padded = url + String(repeating: "=", count: (4 - url.count % 4) % 4)
            XCTAssertEqual(try Base64.decode(Array(padded.utf8), alphabet: .url), data)
        }
        func failure(_ text: String, _ alphabet: Base64.Alphabet) -> String {
            do { _ = try Base64.decode(Array(text.utf8), alphabet: alphabet); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(failure("Zm9v!mFy", .standard), #"invalid base64 at byte 5: "!" is not in the base64 alphabet"#)
        XCTAssertEqual(failure("Zm9vYg", .standard), #"invalid base64 at byte 6: the input ends without its 2 padding characters ("=")"#)
        XCTAssertEqual(failure("Zm9vYg=", .url), "invalid base64 at byte 7: 1 padding character where 2 belong")
        XCTAssertEqual(failure("Zm9=vYg", .standard), "invalid base64 at byte 4: padding before the end")
        XCTAssertEqual(failure("Zm9vY", .url), "invalid base64 at byte 5: a single character cannot end the input (truncated?)")
        XCTAssertEqual(failure("Zh==", .standard), "invalid base64 at byte 2: the last character has bits set that encode nothing (not canonical)")
        XCTAssertEqual(failure("a+b/", .url), #"invalid base64 at byte 2: "+" is not in the base64url alphabet"#)
        XCTAssertThrowsError(try Hex.decode(Array("abc".utf8))) { XCTAssertEqual("\($0)", "invalid hex at byte 3: an odd number of hex digits") }
        XCTAssertEqual(try Hex.decode(Array("DEADbeef".utf8)), [0xDE, 0xAD, 0xBE, 0xEF])
    }

    func testTimesMatchPython() throws {
        let f = try fixture()
        for case let v as [String: Any] in try XCTUnwrap(f["times"] as? [Any]) {
            let t = Double(try XCTUnwrap(v["t"] as? Int))
            for format in UnixTime.Format.allCases {
                guard let want = v[format.rawValue] as? String else { continue }
                XCTAssertEqual(UnixTime.format(t, format), want, "\(t) \(format)")
                XCTAssertEqual(try UnixTime.parse(want, format, now: 1_764_504_000), t, "\(want)")
            }
        }
        for case let v as [String: Any] in try XCTUnwrap(f["parse"] as? [Any]) {
            let format = try XCTUnwrap(UnixTime.Format(rawValue: try XCTUnwrap(v["format"] as? String)))
            let want = try XCTUnwrap((v["t"] as? NSNumber)?.doubleValue)
            XCTAssertEqual(try UnixTime.parse(try XCTUnwrap(v["text"] as? String), format, now: 1_764_504_000), want, "\(v)")
        }
        func failure(_ text: String, _ format: UnixTime.Format) -> String {
            do { _ = try UnixTime.parse(text, format); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(failure("2026-02-30T00:00:00Z", .iso8601), "not an iso8601 time at byte 1: day 30 is not in month 2 of 2026")
        XCTAssertEqual(failure("2026-11-30 12:00:00Z", .iso8601), #"not an iso8601 time at byte 11: expected "T" between the date and the time"#)
        XCTAssertEqual(failure("20261130T120000", .iso8601Basic), #"not an iso8601-basic time at byte 16: expected "Z" or an offset (+0100) after the time"#)
        XCTAssertEqual(failure("Sun, 06 Nov 1994 08:49:37 UTC", .http), #"not an HTTP time at byte 27: expected "GMT""#)
        XCTAssertNil(UnixTime.format(1e300, .http))
    }
}
