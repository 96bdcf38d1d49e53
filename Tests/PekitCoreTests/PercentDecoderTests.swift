import PekitTestSupport
import XCTest
@testable import PekitCore

final class PercentDecoderTests: XCTestCase {
    func decodeError(_ input: String, _ decoder: PercentDecoder = PercentDecoder(mode: .strict)) -> String {
        do { _ = try decoder.decode(bytes: Array(input.utf8)); return "no error" } catch { return "\(error)" }
    }

    func testDecodes() throws {
        XCTAssertEqual(try PercentDecoder().decode("%E6%B1%89%E5%AD%97%26ss"), "汉字&ss")
        XCTAssertEqual(try PercentDecoder().decode("a+b%20c"), "a+b c")
        XCTAssertEqual(try PercentDecoder(plusAsSpace: true).decode("a+b%2Bc"), "a b+c")
        XCTAssertEqual(try PercentDecoder().decode("%e6%b1%89"), "汉")
        XCTAssertEqual(try PercentDecoder().decode(bytes: Array("%00%FF".utf8)), [0, 0xFF])
    }

    func testStrictErrorsNamePlaceAndSequence() {
        XCTAssertEqual(decodeError("abc%zz"), #"invalid escape "%zz" at byte 4 (a % needs two hex digits; write %25 for a literal %)"#)
        XCTAssertEqual(decodeError("100%"), #"incomplete escape "%" at byte 4 (a % needs two hex digits; write %25 for a literal %)"#)
        XCTAssertEqual(decodeError("ab%2"), #"incomplete escape "%2" at byte 3 (a % needs two hex digits; write %25 for a literal %)"#)
        XCTAssertEqual(decodeError("%2x"), #"invalid escape "%2x" at byte 1 (a % needs two hex digits; write %25 for a literal %)"#)
        XCTAssertEqual(decodeError("%\u{1}q"), #"invalid escape "%\x01q" at byte 1 (a % needs two hex digits; write %25 for a literal %)"#)
    }

    func testLenientKeepsBadSequences() throws {
        XCTAssertEqual(try PercentDecoder().decode("100%"), "100%")
        XCTAssertEqual(try PercentDecoder().decode("%zz%41%2"), "%zzA%2")
        XCTAssertEqual(try PercentDecoder().decode("%%41"), "%A")
    }

    func testUTF8Requirement() {
        let strictUTF8 = PercentDecoder(mode: .strict, requiresUTF8: true)
        XCTAssertEqual(decodeError("ok%C3%28", strictUTF8), #"decoded bytes are not valid UTF-8: "%C3" at byte 3"#)
        XCTAssertEqual(decodeError("a%E6%B1", strictUTF8), #"decoded bytes are not valid UTF-8: "%E6%B1" at byte 2"#)
        XCTAssertEqual(decodeError("%C0%AF", strictUTF8), #"decoded bytes are not valid UTF-8: "%C0%AF" at byte 1"#)
        XCTAssertEqual(decodeError("%ED%A0%80", strictUTF8), #"decoded bytes are not valid UTF-8: "%ED%A0%80" at byte 1"#)
        XCTAssertEqual(decodeError("x+%FF", PercentDecoder(plusAsSpace: true, requiresUTF8: true)), #"decoded bytes are not valid UTF-8: "%FF" at byte 3"#)
        // The String API always requires UTF-8.
        XCTAssertThrowsError(try PercentDecoder().decode("%FF"))
        XCTAssertEqual(decodeError("%F0%9F%98%80", strictUTF8), "no error")
    }

    func testUnicodeEscapes() throws {
        let u = PercentDecoder(mode: .strict, decodesUnicodeEscapes: true)
        XCTAssertEqual(try u.decode("%u6C49%u5B57%20"), "汉字 ")
        XCTAssertEqual(try u.decode("%uD83D%uDE00"), "😀")
        XCTAssertEqual(decodeError("%uD83Dx", u), #"unpaired surrogate "%uD83D" at byte 1"#)
        XCTAssertEqual(decodeError("a%u12", u), #"invalid %u escape "%u12" at byte 2 (%u needs four hex digits)"#)
        XCTAssertEqual(try PercentDecoder(decodesUnicodeEscapes: true).decode("%u12%uDE00"), "%u12%uDE00")
        // Off by default: %u is an ordinary bad escape.
        XCTAssertEqual(decodeError("%u6C49"), #"invalid escape "%u6" at byte 1 (a % needs two hex digits; write %25 for a literal %)"#)
    }

    func testUTF8Validation() {
        func bad(_ bytes: [UInt8]) -> Int? { bytes.withUnsafeBufferPointer(UTF8Validation.firstInvalidIndex) }
        XCTAssertNil(bad(Array("汉字😀".utf8)))
        XCTAssertEqual(bad([0x41, 0x80]), 1)
        XCTAssertEqual(bad([0xF4, 0x90, 0x80, 0x80]), 0, "above U+10FFFF")
        XCTAssertEqual(bad([0xE0, 0x80, 0x80]), 0, "overlong")
        XCTAssertEqual(bad([0x41, 0xE6, 0xB1]), 1, "truncated")
        var rng = SplitMix(seed: 3)
        for _ in 0..<5000 {
            let bytes = (0..<Int(rng.next() % 8)).map { _ in UInt8(truncatingIfNeeded: rng.next() | 0x80) }
            XCTAssertEqual(bad(bytes) == nil, String(validating: bytes, as: UTF8.self) != nil, "\(bytes)")
        }
    }
}
