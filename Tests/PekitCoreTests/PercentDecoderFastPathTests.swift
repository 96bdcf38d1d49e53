import XCTest
@testable import PekitCore

/// The decoder's fast path (words of plain bytes, a digit table) gives the general loop's bytes
/// and errors: every length from 0 to 1,024, at every alignment of the input, in every mode, on
/// inputs dense in `%`, `+`, hex digits and bad escapes (issue 47).
final class PercentDecoderFastPathTests: XCTestCase {
    func outcome(_ decoder: PercentDecoder, _ input: UnsafeBufferPointer<UInt8>, general: Bool) -> String {
        do {
            let bytes = general ? try decoder.decodeByGeneralPath(bytes: input) : try decoder.decode(bytes: input)
            return "ok " + bytes.map { String($0) }.joined(separator: ",")
        } catch {
            return "error \(error)"
        }
    }

    func testTheFastPathIsTheGeneralOne() {
        var rng = SystemRandomNumberGenerator()
        // Bytes a decoder cares about, plus any byte now and then.
        let alphabet = Array("%%%++aF09gG%2%zz%e9%C3%A9 ".utf8)
        let decoders = [PercentDecoder(mode: .lenient), PercentDecoder(mode: .strict),
                        PercentDecoder(mode: .lenient, plusAsSpace: true), PercentDecoder(mode: .strict, plusAsSpace: true, requiresUTF8: true)]
        var compared = 0
        for length in 0...1024 {
            let density = [1, 4, 16, 64][length % 4]
            var bytes = (0..<(length + 8)).map { _ -> UInt8 in
                Int.random(in: 0..<64, using: &rng) < density ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0x20...0x7E, using: &rng)
            }
            if length % 7 == 0 { bytes = bytes.map { $0 == 0x25 ? UInt8.random(in: 0...255, using: &rng) : $0 } }
            let offset = length % 8
            bytes.withUnsafeBufferPointer { all in
                let input = UnsafeBufferPointer(rebasing: all[offset..<(offset + length)])
                for decoder in decoders {
                    XCTAssertEqual(outcome(decoder, input, general: false), outcome(decoder, input, general: true),
                                   "length \(length), offset \(offset), \(decoder.mode) plus \(decoder.plusAsSpace)")
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 1025 * 4)
    }

    /// Escapes and special bytes at each place in a word, and at the end of the input.
    func testEveryPlaceInAWord() throws {
        for place in 0..<17 {
            for special in ["%41", "%4", "%", "+", "%zz", "%C3%A9"] {
                let text = String(repeating: "a", count: place) + special + String(repeating: "b", count: 16 - place)
                for decoder in [PercentDecoder(mode: .lenient, plusAsSpace: true), PercentDecoder(mode: .strict)] {
                    let input = Array(text.utf8)
                    input.withUnsafeBufferPointer {
                        XCTAssertEqual(outcome(decoder, $0, general: false), outcome(decoder, $0, general: true), text)
                    }
                }
            }
        }
        XCTAssertEqual(try PercentDecoder(mode: .lenient, plusAsSpace: true).decode(bytes: Array("aaaaaaa+%41%4".utf8)), Array("aaaaaaa A%4".utf8))
        XCTAssertThrowsError(try PercentDecoder(mode: .strict).decode(bytes: Array("aaaaaaaaa%zz".utf8))) {
            XCTAssertEqual("\($0)", #"invalid escape "%zz" at byte 10 (a % needs two hex digits; write %25 for a literal %)"#)
        }
    }
}
