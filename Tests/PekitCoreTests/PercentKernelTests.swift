import Foundation
import XCTest
@testable import PekitCore
import PekitTestSupport

/// The percent kernels (`CPercentKernels`: scalar, SSSE3, AVX-512 VBMI2) agree with each other
/// and with plain Swift: every length from 0 to 1,024 at every alignment of the input from 0 to
/// 63, on inputs dense in the bytes each loop treats apart (issue 47). Encoding is held to a
/// byte-by-byte encoder written from the set; decoding to the decoder's general loop. A level
/// the CPU lacks is lowered by the kernel to one it has, and `available` says which ran.
final class PercentKernelTests: XCTestCase {
    static let maxLength = 1024, alignments = 64

    /// Random bytes, a fraction `density`/64 of them from `alphabet`, the rest from `range`.
    func randomBytes(_ count: Int, alphabet: [UInt8], density: Int, range: ClosedRange<UInt8>,
                     using rng: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<count).map { _ in
            Int.random(in: 0..<64, using: &rng) < density ? alphabet.randomElement(using: &rng)! : UInt8.random(in: range, using: &rng)
        }
    }

    /// For each length and alignment, `body` gets an input at that alignment from a 64-byte
    /// aligned buffer; it returns false to stop at the first disagreement.
    func forEveryInput(seed: UInt64, alphabet: [UInt8], _ body: (UnsafeBufferPointer<UInt8>, Int, Int) -> Bool) {
        var rng = SplitMix(seed: seed)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.maxLength + Self.alignments, alignment: 64)
        defer { buffer.deallocate() }
        let bytes = buffer.bindMemory(to: UInt8.self, capacity: Self.maxLength + Self.alignments)
        for length in 0...Self.maxLength {
            let density = [0, 1, 8, 32, 64][length % 5]
            let range: ClosedRange<UInt8> = length % 3 == 0 ? 0...255 : 0x20...0x7E
            let fill = randomBytes(Self.maxLength + Self.alignments, alphabet: alphabet, density: density, range: range, using: &rng)
            bytes.update(from: fill, count: fill.count)
            for alignment in 0..<Self.alignments {
                guard body(UnsafeBufferPointer(start: bytes + alignment, count: length), length, alignment) else { return }
            }
        }
    }

    /// What the encoder should write, byte by byte from its settings alone.
    func reference(_ encoder: PercentEncoder, _ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let digits = Array((encoder.hexCase == .upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        for byte in input {
            if encoder.space == .plus && byte == 0x2B {
                out += [0x25, digits[2], digits[11]]
            } else if encoder.allowed.contains(byte) {
                out.append(byte)
            } else if encoder.space == .plus && byte == 0x20 {
                out.append(0x2B)
            } else {
                out += [0x25, digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return out
    }

    func testEveryLevelEncodesAsTheSetSays() throws {
        let levels = PercentKernelLevel.available
        XCTAssertTrue(levels.contains(.scalar))
        let encoders: [PercentEncoder] = [
            .rfc3986, .form, .afnetworking, PercentEncoder(allowed: .form, hexCase: .lower),
            PercentEncoder(allowed: AllowedSet(), space: .plus), PercentEncoder(allowed: ~AllowedSet()),
            PercentEncoder(allowed: try AllowedSet(characters: "\u{0}\t\r\n +%~\u{7F}abc"), space: .plus),
        ]
        var compared = 0
        for (index, encoder) in encoders.enumerated() {
            let alphabet = Array("%+ ~-._aZ09\u{7F}\t".utf8) + [0x00, 0x80, 0xC3, 0xE6, 0xFF]
            forEveryInput(seed: UInt64(index + 1), alphabet: alphabet) { input, length, alignment in
                let scalar = encoder.encode(bytes: input, level: .scalar)
                // Plain Swift on one alignment a length (it is the slow side).
                if alignment == length % Self.alignments {
                    guard same(scalar, reference(encoder, input)) else {
                        XCTFail("encoder \(index): the scalar kernel differs from the set at length \(length)")
                        return false
                    }
                }
                for level in levels {
                    // Each level's count kernel, which sizes large outputs, gives the length written.
                    guard encoder.encodedCount(input, level: level) == scalar.count else {
                        XCTFail("encoder \(index): \(level) counts \(encoder.encodedCount(input, level: level)), not \(scalar.count), at length \(length), alignment \(alignment)")
                        return false
                    }
                }
                for level in levels where level != .scalar {
                    guard same(encoder.encode(bytes: input, level: level), scalar) else {
                        XCTFail("encoder \(index): \(level) differs from scalar at length \(length), alignment \(alignment): \(Array(input))")
                        return false
                    }
                }
                guard same(encoder.encode(bytes: input), scalar) else {
                    XCTFail("encoder \(index): encode(bytes:) differs at length \(length)")
                    return false
                }
                compared += 1
                return true
            }
        }
        XCTAssertEqual(compared, encoders.count * (Self.maxLength + 1) * Self.alignments)
    }

    /// Bytes or the error's text (bytes compared by memcmp: Array's == is slow in debug builds).
    struct Outcome: Equatable {
        var bytes: [UInt8] = [], error = ""
        static func == (a: Outcome, b: Outcome) -> Bool { a.error == b.error && same(a.bytes, b.bytes) }
    }

    func outcome(_ body: () throws -> [UInt8]) -> Outcome {
        do { return Outcome(bytes: try body()) } catch { return Outcome(error: "\(error)") }
    }

    func testEveryLevelDecodesAsTheGeneralLoop() {
        let levels = PercentKernelLevel.available
        let decoders = [PercentDecoder(mode: .lenient), PercentDecoder(mode: .strict),
                        PercentDecoder(mode: .lenient, plusAsSpace: true),
                        PercentDecoder(mode: .strict, plusAsSpace: true, requiresUTF8: true)]
        var compared = 0
        for (index, decoder) in decoders.enumerated() {
            // Escapes good and bad, and digits out of place.
            let alphabet = Array("%%%%++aF09gG%2%zz%e9%C3%A9 ".utf8)
            forEveryInput(seed: UInt64(100 + index), alphabet: alphabet) { input, length, alignment in
                let scalar = outcome { try decoder.decode(bytes: input, level: .scalar) }
                if alignment == length % Self.alignments {
                    guard scalar == outcome({ try decoder.decodeByGeneralPath(bytes: input) }) else {
                        XCTFail("decoder \(index): the scalar kernel differs from the general loop at length \(length): \(Array(input))")
                        return false
                    }
                }
                for level in levels where level != .scalar {
                    guard outcome({ try decoder.decode(bytes: input, level: level) }) == scalar else {
                        XCTFail("decoder \(index): \(level) differs from scalar at length \(length), alignment \(alignment): \(Array(input))")
                        return false
                    }
                }
                compared += 1
                return true
            }
        }
        XCTAssertEqual(compared, decoders.count * (Self.maxLength + 1) * Self.alignments)
    }

    /// A large `String` is measured and encoded into a string near its own size (the kernels'
    /// 64 bytes of slack): the same text as the bytes path, for every encoder, at sizes around the
    /// 64 KB switch.
    func testLargeStringsEncodeAsBytesDo() {
        var rng = SplitMix(seed: 7)
        let pieces = ["abc", "a b", "汉字", "%41", "+", "~", "é", "😀", "&=?", "\u{7F}"]
        for encoder in [PercentEncoder.rfc3986, .form, .afnetworking, PercentEncoder(keepsValidEscapes: true)] {
            for target in [20_000, 21_846, 22_000, 70_000] {
                var text = ""
                while text.utf8.count < target { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
                let bytes = Array(text.utf8)
                XCTAssertEqual(Array(encoder.encode(text).utf8), bytes.withUnsafeBufferPointer { encoder.encode(bytes: $0) }, "\(target)")
            }
        }
    }

    /// Large inputs are sized by counting, unless their first 4 KB mostly escape; then the
    /// worst-case room is used, and given back by a copy when the rest did not escape after all.
    /// Every way gives the bytes the scalar kernel writes, in an array no larger than needed.
    func testLargeBytesAreSizedByCountOrByTheirStart() {
        let dense = [UInt8](repeating: 0xE6, count: 40_000), sparse = [UInt8](repeating: 0x61, count: 40_000)
        let inputs: [(String, [UInt8])] = [
            ("dense", dense + dense), ("sparse", sparse + sparse),
            ("dense start, sparse rest", Array(dense.prefix(5_000)) + sparse + sparse),
            ("sparse start, dense rest", Array(sparse.prefix(5_000)) + dense + dense),
            ("mixed", (0..<90_000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }),
        ]
        for encoder in [PercentEncoder.rfc3986, .form, PercentEncoder(keepsValidEscapes: true)] {
            for (name, bytes) in inputs {
                let expected = bytes.withUnsafeBufferPointer { encoder.encode(bytes: $0, level: .scalar) }
                let got = bytes.withUnsafeBufferPointer { encoder.encode(bytes: $0) }
                XCTAssertTrue(same(got, expected), name)
                XCTAssertEqual(bytes.withUnsafeBufferPointer { encoder.encodedCount($0) }, expected.count, name)
                // At most twice its length (the worst case kept) or its length and the slack
                // (counted), and what the allocator rounds a large block up to (a page).
                XCTAssertLessThanOrEqual(got.capacity, max(2 * got.count + 3, got.count + 64) + 4096, name)
            }
        }
    }

    /// Escapes that straddle the SIMD blocks (at 14–17 for 16-byte blocks, 62–65 for 64) and runs
    /// of them, written out rather than left to chance.
    func testEscapesAcrossBlockEdges() throws {
        for level in PercentKernelLevel.available {
            for at in [13, 14, 15, 16, 17, 61, 62, 63, 64, 65, 126, 127] {
                for tail in 0...70 {
                    let text = String(repeating: "a", count: at) + "%41%e6+%" + String(repeating: "z", count: tail)
                    let bytes = Array(text.utf8)
                    let got = try bytes.withUnsafeBufferPointer { try PercentDecoder(mode: .lenient, plusAsSpace: true).decode(bytes: $0, level: level) }
                    XCTAssertEqual(got, Array((String(repeating: "a", count: at) + "A").utf8) + [0xE6, 0x20, 0x25] + Array(String(repeating: "z", count: tail).utf8),
                                   "\(level) at \(at), tail \(tail)")
                    let encoded = bytes.withUnsafeBufferPointer { PercentEncoder.form.encode(bytes: $0, level: level) }
                    XCTAssertEqual(String(decoding: encoded, as: UTF8.self),
                                   String(repeating: "a", count: at) + "%2541%25e6%2B%25" + String(repeating: "z", count: tail), "\(level) at \(at)")
                }
            }
        }
    }
}

private func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    a.count == b.count && (a.isEmpty || memcmp(a, b, a.count) == 0)
}
