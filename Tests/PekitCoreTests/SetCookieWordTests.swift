import XCTest
@testable import PekitCore

/// The attribute names' one-word comparison (`SetCookie.spells`) is the byte-by-byte one
/// (`ASCII.equals(_:ignoringCase:)`) on random bytes: near misses of each word (each byte
/// replaced by its other case, by the byte 0x20 away, by CR, NUL or a high byte), at every
/// offset, at the buffer's end (fewer than 8 bytes after it) and in its middle.
final class SetCookieWordTests: XCTestCase {
    func testTheWordComparisonIsTheByteComparison() {
        let words: [(StaticString, SetCookie.Word)] = [
            ("path", .path), ("domain", .domain), ("secure", .secure), ("expires", .expires), ("max-age", .maxage),
            ("httponly", .httponly), ("samesite", .samesite), ("strict", .strict), ("lax", .lax), ("none", .none),
        ]
        var generator = SystemRandomNumberGenerator()
        var compared = 0, matched = 0
        for (text, word) in words {
            let spelled = Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            for _ in 0..<3000 {
                var candidate = spelled
                // Change up to three bytes, or the length.
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    let i = Int.random(in: 0..<candidate.count, using: &generator)
                    let b = candidate[i]
                    candidate[i] = [b ^ 0x20, b ^ 0x20, b | 0x20, 0x0D, 0x00, 0xC3, UInt8.random(in: 0...255, using: &generator)].randomElement(using: &generator) ?? b
                }
                if Int.random(in: 0..<8, using: &generator) == 0 { candidate.append(UInt8.random(in: 0...255, using: &generator)) }
                if Int.random(in: 0..<8, using: &generator) == 0, candidate.count > 1 { candidate.removeLast() }
                let before = (0..<Int.random(in: 0...9, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let after = (0..<Int.random(in: 0...9, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let buffer = before + candidate + after
                buffer.withUnsafeBufferPointer { bytes in
                    let range = before.count..<(before.count + candidate.count)
                    let expected = ASCII.equals(UnsafeBufferPointer(rebasing: bytes[range]), ignoringCase: text)
                    XCTAssertEqual(SetCookie.spells(bytes, range, word), expected, "\(text) against \(candidate) at \(range) of \(buffer.count)")
                    compared += 1
                    if expected { matched += 1 }
                }
            }
        }
        XCTAssertEqual(compared, 30000)
        XCTAssertGreaterThan(matched, 1000, "the near misses include matches (case changes)")
    }
}
