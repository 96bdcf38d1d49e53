import XCTest
@testable import PekitCore

/// The parser's string cache must hand back exactly the bytes asked for, whatever collides in
/// its slots, and share one buffer when the same short string comes again.
final class ByteStringCacheTests: XCTestCase {
    func testEveryStringIsItsOwnBytes() {
        var cache = ByteStringCache(expected: 1000)
        var rng = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x61, 0x62, 0x00, 0xE6, 0x5B, 0xFF]
        for _ in 0..<50_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let made = bytes.withUnsafeBufferPointer { cache.string($0) }
            XCTAssertEqual(made.bytes, bytes)
        }
    }

    func testARepeatedShortStringSharesOneBuffer() {
        var cache = ByteStringCache(expected: 1000)
        func make(_ text: String) -> ByteString { Array(text.utf8).withUnsafeBufferPointer { cache.string($0) } }
        func sameBuffer(_ a: ByteString, _ b: ByteString) -> Bool {
            a.bytes.withUnsafeBytes { x in b.bytes.withUnsafeBytes { y in x.baseAddress == y.baseAddress } }
        }
        let short = "tags", long = String(repeating: "x", count: ByteStringCache.maximumLength + 1)
        let (a, b) = (make(short), make(short))
        XCTAssertTrue(sameBuffer(a, b))
        let (c, d) = (make(long), make(long))
        XCTAssertFalse(sameBuffer(c, d), "a long string is copied, never cached")
        var none = ByteStringCache(expected: 10)
        let (e, f) = (Array(short.utf8).withUnsafeBufferPointer { none.string($0) }, Array(short.utf8).withUnsafeBufferPointer { none.string($0) })
        XCTAssertFalse(sameBuffer(e, f), "a small parse has no cache")
        XCTAssertEqual(e, f)
    }
}
