import Foundation
import XCTest
@testable import PekitCore

/// pekit's own NFC (NFC.swift, the Unicode 17.0.0 tables of scripts/idna-tables) gives
/// unicodedata2's NFC for every code point with a canonical decomposition, as it is and
/// decomposed, for Hangul, and for seeded random runs of starters and marks out of order
/// (Fixtures/idna/nfc-vectors.json, written by the same script).
final class NFCTests: XCTestCase {
    struct File: Decodable { let unicode: String; let vectors: [[[UInt32]]] }

    func testNFCIsUnicodedata2s() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "nfc-vectors", withExtension: "json", subdirectory: "Fixtures/idna"))
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        XCTAssertEqual(file.unicode, UTS46Tables.unicodeVersion)
        XCTAssertGreaterThan(file.vectors.count, 7000)
        var failures: [String] = []
        for vector in file.vectors where NFC.normalize(vector[0]) != vector[1] {
            failures.append("\(vector[0].map { hexDigitsUpper($0) }): \(NFC.normalize(vector[0]).map { hexDigitsUpper($0) }), want \(vector[1].map { hexDigitsUpper($0) })")
        }
        XCTAssert(failures.isEmpty, "\(failures.count) differ:\n" + failures.prefix(20).joined(separator: "\n"))
    }

    /// The quick check, which lets UTS #46 skip normalizing, never passes text NFC would change,
    /// and passes the precomposed letters (é, ǖ) that are NFC already, and the vectors' outputs
    /// most of the time.
    func testQuickCheckPassesOnlyNormalizedText() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "nfc-vectors", withExtension: "json", subdirectory: "Fixtures/idna"))
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        var wrong: [String] = [], passedOutputs = 0
        for vector in file.vectors {
            for text in vector where NFC.isNormalized(text) && text != vector[1] { wrong.append(text.map { hexDigitsUpper($0) }.joined(separator: " ")) }
            if NFC.isNormalized(vector[1]) { passedOutputs += 1 }
        }
        XCTAssert(wrong.isEmpty, "passed, but not NFC: " + wrong.prefix(20).joined(separator: ", "))
        XCTAssertTrue(NFC.isNormalized([0xE9, 0x1D6, 0x63]))
        XCTAssertFalse(NFC.isNormalized([0x65, 0x301]))  // composes: normalize must look
        XCTAssertTrue(NFC.isNormalized([0x61, 0x316, 0x315]))  // classes 220, 232: in order, composing with nothing
        XCTAssertFalse(NFC.isNormalized([0x61, 0x315, 0x316]))  // out of order
        XCTAssertFalse(NFC.isNormalized([0x212B]))  // a singleton (Å, the angstrom sign)
        XCTAssertGreaterThan(passedOutputs, file.vectors.count / 2)
    }

    /// Punycode both ways on RFC 3492's own samples (§7.1).
    func testPunycodeIsRFC3492s() {
        let samples: [(String, String)] = [
            ("\u{644}\u{64A}\u{647}\u{645}\u{627}\u{628}\u{62A}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}\u{628}\u{64A}\u{61F}", "egbpdaj6bu4bxfgehfvwxn"),
            ("\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}", "ihqwcrb4cv8a8dqg056pqjye"),
            ("Pro\u{10D}prost\u{11B}nemluv\u{ED}\u{10D}esky", "Proprostnemluvesky-uyb24dma41a"),
            ("3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}", "3B-ww4c5e180e575a65lsy2b"),
            ("\u{FC}", "tda"),
        ]
        for (text, code) in samples {
            let scalars = text.unicodeScalars.map(\.value)
            var encoded = [UInt8](repeating: 0, count: Punycode.capacity(for: scalars.count))
            let end = scalars.withUnsafeBufferPointer { input in encoded.withUnsafeMutableBufferPointer { Punycode.encode(input, into: $0, at: 0) } }
            XCTAssertEqual(end.map { String(decoding: encoded[..<$0], as: UTF8.self) }, code, text)
            // One byte short of what it needs, it says so instead of writing past the end.
            if let end {
                var short = [UInt8](repeating: 0, count: end - 1)
                XCTAssertNil(scalars.withUnsafeBufferPointer { input in short.withUnsafeMutableBufferPointer { Punycode.encode(input, into: $0, at: 0) } }, text)
            }
            XCTAssertEqual(Punycode.decode(ArraySlice(Array(code.utf8))), scalars, code)
        }
        XCTAssertNil(Punycode.decode(ArraySlice(Array("ls8h=".utf8))))
        XCTAssertNil(Punycode.decode(ArraySlice(Array("99999999999999999999".utf8))))
    }
}
