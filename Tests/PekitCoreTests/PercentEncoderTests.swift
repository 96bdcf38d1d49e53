import Foundation
import PekitTestSupport
import XCTest
@testable import PekitCore

final class PercentEncoderTests: XCTestCase {
    // The worked examples of the seed article, byte for byte.
    func testSeedExamples() {
        XCTAssertEqual(PercentEncoder(allowed: .letters).encode("汉字&ss"), "%E6%B1%89%E5%AD%97%26ss")
        let af = PercentEncoder.afnetworking
        XCTAssertEqual(af.encode("~!@#$%^&*(){}"), "~%21%40%23%24%25%5E%26%2A%28%29%7B%7D")
        XCTAssertEqual(af.encode("/?"), "/?")
        XCTAssertEqual(af.encode(":#[]@"), "%3A%23%5B%5D%40")
        XCTAssertEqual(af.encode("!$&'()*+,;="), "%21%24%26%27%28%29%2A%2B%2C%3B%3D")
        XCTAssertEqual(af.encode(" "), "%20")
    }

    func testSpaceLowerCaseAndForm() {
        XCTAssertEqual(PercentEncoder.form.encode("a b*c~"), "a+b*c%7E")
        XCTAssertEqual(PercentEncoder(hexCase: .lower).encode("é/"), "%c3%a9%2f")
        XCTAssertEqual(PercentEncoder(space: .plus).encode("  "), "++")
        // A space that the set allows is copied even with space = plus.
        XCTAssertEqual(PercentEncoder(allowed: .unreserved + (try! AllowedSet(characters: " ")), space: .plus).encode("a b"), "a b")
    }

    func testKeepsValidEscapes() {
        let keep = PercentEncoder(keepsValidEscapes: true)
        XCTAssertEqual(keep.encode("a%20b c"), "a%20b%20c")
        XCTAssertEqual(keep.encode("100%"), "100%25")
        XCTAssertEqual(keep.encode("%zz%4"), "%25zz%254")
        XCTAssertEqual(keep.encode("%e6%B1"), "%e6%B1")
        XCTAssertEqual(PercentEncoder().encode("a%20b"), "a%2520b")
    }

    func testEncodeIntoCallerBuffer() {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 32)
        defer { buffer.deallocate() }
        let input = Array("a b/é".utf8)
        let written = input.withUnsafeBufferPointer { PercentEncoder().encode(bytes: $0, into: buffer) }
        XCTAssertEqual(written, 14)
        XCTAssertEqual(Array(buffer[..<14]), Array("a%20b%2F%C3%A9".utf8))
        // 14 bytes of output need 14 + outputSlack of room.
        let small = UnsafeMutableBufferPointer(rebasing: buffer[..<(14 + PercentEncoder.outputSlack - 1)])
        XCTAssertNil(input.withUnsafeBufferPointer { PercentEncoder().encode(bytes: $0, into: small) })
    }

    func testBytesThatAreNotUTF8() {
        XCTAssertEqual(PercentEncoder().encode(bytes: [0xFF, 0x00, 0x41, 0xC3]), Array("%FF%00A%C3".utf8))
        XCTAssertEqual(PercentEncoder().encode(bytes: [UInt8]()), [])
        XCTAssertEqual(PercentEncoder().encode(""), "")
    }

    struct Vector: Decodable { let peer: String; let set: String; let space: String; let input_hex: String; let expected: String }

    // Reference vectors from Python's urllib.parse.quote and node's URLSearchParams
    // (Fixtures/make_encoding_vectors.py).
    func testAgainstPeerVectors() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "encoding-vectors", withExtension: "json", subdirectory: "Fixtures"))
        let vectors = try JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
        XCTAssertGreaterThan(vectors.count, 2000)
        for v in vectors {
            let encoder = PercentEncoder(allowed: try AllowedSet.named(v.set), space: PercentEncoder.Space(rawValue: v.space)!)
            let input = hexBytes(v.input_hex)
            let got = String(decoding: encoder.encode(bytes: input), as: UTF8.self)
            XCTAssertEqual(got, v.expected, "\(v.peer) on \(v.input_hex) with set \(v.set)")
            if let text = String(validating: input, as: UTF8.self) {
                XCTAssertEqual(encoder.encode(text), v.expected)
            }
        }
    }

    // Foundation's addingPercentEncoding with the same sets, on many generated strings.
    func testAgainstFoundation() {
        let pairs: [(AllowedSet, CharacterSet)] = [
            (.query, .urlQueryAllowed), (.path, appleDelta(.urlPathAllowed, ":")), (.host, appleDelta(.urlHostAllowed, ":[]")),
            (.fragment, .urlFragmentAllowed),
            (.user, .urlUserAllowed), (.password, .urlPasswordAllowed),
            (.letters, CharacterSet(charactersIn: "a"..."z").union(CharacterSet(charactersIn: "A"..."Z"))),
            (.afnetworking, CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: ":#[]@!$&'()*+,;="))),
        ]
        var rng = SplitMix(seed: 7)
        let alphabet: [String] = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }
            + ["汉", "字", "é", "e\u{301}", "😀", "👍🏽", "🇯🇵", "\u{0}", "\u{1F}", "\u{7F}", "\t", "ß", "\u{200D}"]
        for _ in 0..<2000 {
            let s = (0..<Int(rng.next() % 20)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
            for (ours, theirs) in pairs {
                XCTAssertEqual(PercentEncoder(allowed: ours).encode(s), s.addingPercentEncoding(withAllowedCharacters: theirs), "\(s.debugDescription)")
            }
        }
    }

    func testPresetsMatchFoundationSets() {
        // Byte by byte against Foundation on this machine.
        let pairs: [(AllowedSet, CharacterSet)] = [(.query, .urlQueryAllowed), (.path, appleDelta(.urlPathAllowed, ":")),
            (.host, appleDelta(.urlHostAllowed, ":[]")),
            (.fragment, .urlFragmentAllowed), (.user, .urlUserAllowed), (.password, .urlPasswordAllowed)]
        for (ours, theirs) in pairs {
            for byte in UInt8(0)..<128 {
                XCTAssertEqual(ours.contains(byte), theirs.contains(Unicode.Scalar(byte)), "byte \(byte)")
            }
        }
        XCTAssertEqual(AllowedSet.host.description, "!$&'()*+,-.0123456789:;=ABCDEFGHIJKLMNOPQRSTUVWXYZ[]_abcdefghijklmnopqrstuvwxyz~")
        XCTAssertEqual(AllowedSet.afnetworking.description, "-./0123456789?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
        XCTAssertEqual(AllowedSet.form.description, "*-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
    }

    // decode(encode(x)) == x for random bytes and every preset; the output holds only allowed bytes and %XX.
    func testRoundTripAndOutputAlphabet() throws {
        var rng = SplitMix(seed: 42)
        for name in AllowedSet.presetNames {
            let set = try AllowedSet.named(name)
            for space in PercentEncoder.Space.allCases {
                let encoder = PercentEncoder(allowed: set, space: space)
                let decoder = PercentDecoder(mode: .strict, plusAsSpace: space == .plus)
                for _ in 0..<300 {
                    let input = (0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    let encoded = encoder.encode(bytes: input)
                    XCTAssertEqual(try decoder.decode(bytes: encoded), input, "\(name) \(space)")
                    var i = 0
                    while i < encoded.count {
                        let b = encoded[i]
                        if b == 0x25 {
                            XCTAssertNotNil(HexDigit.value(encoded[i + 1])); XCTAssertNotNil(HexDigit.value(encoded[i + 2])); i += 3
                        } else {
                            XCTAssertTrue(set.contains(b) || (space == .plus && b == 0x2B), "\(name): byte \(b)"); i += 1
                        }
                    }
                }
            }
        }
    }

    func testAllowedSetAlgebra() throws {
        let brackets = try AllowedSet(characters: "[]")
        XCTAssertTrue((AllowedSet.afnetworking + brackets).contains(UInt8(ascii: "[")))
        XCTAssertFalse((AllowedSet.unreserved - AllowedSet.letters).contains(UInt8(ascii: "a")))
        XCTAssertEqual((AllowedSet.unreserved - AllowedSet.letters).description, "-.0123456789_~")
        XCTAssertTrue((~AllowedSet.unreserved).contains(UInt8(ascii: "/")))
        XCTAssertFalse((~AllowedSet.unreserved).contains(0xC3), "non-ASCII is never allowed")
        XCTAssertEqual(try AllowedSet(characters: "\u{1}\u{7F}"), AllowedSet(bytes: [1, 0x7F]))
        XCTAssertEqual(try AllowedSet(characters: "\u{1}\u{7F}").description, "\\x01\\x7F")
        XCTAssertThrowsError(try AllowedSet(characters: "ab汉")) { error in
            XCTAssertEqual("\(error)", "character \"汉\" at position 3 is not ASCII; non-ASCII text is always UTF-8 percent-encoded")
        }
        XCTAssertThrowsError(try AllowedSet.named("nope")) { error in
            XCTAssertEqual("\(error)", "unknown character set \"nope\" (known: unreserved, query, path, fragment, host, user, password, letters, alphanumerics, afnetworking, form)")
        }
    }
}

/// `path` and `host` follow Apple's documented sets, which allow ":" (path) and ":[]" (host) that
/// swift-corelibs-foundation on Linux escapes; on Apple platforms this adds nothing.
func appleDelta(_ set: CharacterSet, _ extra: String) -> CharacterSet {
    set.union(CharacterSet(charactersIn: extra))
}


func hexBytes(_ hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var it = hex.utf8.makeIterator()
    while let h = it.next(), let l = it.next() { out.append(HexDigit.value(h)! << 4 | HexDigit.value(l)!) }
    return out
}
