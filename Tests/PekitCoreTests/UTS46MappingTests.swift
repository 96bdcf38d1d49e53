import XCTest
@testable import PekitCore

/// UTS #46 mapping's eight-bytes-at-once step for ASCII, held to the byte-at-a-time rule
/// (A–Z lower-cased, every other ASCII byte kept), and the room its scratch buffers take.
final class UTS46MappingTests: XCTestCase {
    // The processed code points of `name`, or the problem.
    private func processed(_ name: [UInt8]) -> Result<[UInt32], UTS46.Problem> {
        name.withUnsafeBufferPointer { UTS46.process(utf8: $0) { Array($0) } }
    }

    /// Every ASCII byte but the dot, at every offset of an eight-byte block, and runs of
    /// random ASCII of every length to 40 after one to nine bytes of lead: each comes out
    /// lower-cased as itself alone would.
    func testASCIIRunsMapAsBytesDo() {
        var seed: UInt64 = 0x5EED_1D4A
        func next() -> UInt8 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: seed >> 33) & 0x7F
        }
        var cases: [[UInt8]] = []
        for b in UInt8(0)..<0x80 where b != 0x2E {
            for offset in 0..<8 { cases.append([0xC3, 0xA9] + [UInt8](repeating: 0x61, count: offset) + [b] + [UInt8](repeating: 0x62, count: 15 - offset)) }
        }
        for lead in 1...9 {
            for length in 0...40 {
                var name = [UInt8](repeating: 0x63, count: lead) + [0xC3, 0xA9]
                for _ in 0..<length {
                    var b = next()
                    if b == 0x2E { b = 0x5A }
                    name.append(b)
                }
                cases.append(name)
            }
        }
        var wrong: [String] = []
        for name in cases {
            let expected = String(decoding: name, as: UTF8.self).unicodeScalars.map { c -> UInt32 in
                c.value >= 0x41 && c.value <= 0x5A ? c.value | 0x20 : c.value
            }
            switch processed(name) {
            case .success(let got) where got == expected: continue
            case .success(let got): wrong.append("\(name): \(got)")
            case .failure(let problem): wrong.append("\(name): \(problem.reason)")
            }
        }
        XCTAssertGreaterThan(cases.count, 1000)
        XCTAssert(wrong.isEmpty, "\(wrong.count) differ:\n" + wrong.prefix(10).joined(separator: "\n"))
    }

    /// The mapping with the most code points for its bytes fills the room exactly: U+FDFA
    /// (3 bytes, 18 code points, spaces among them), alone and many times over, maps without
    /// running out of room, and then breaks the Bidi rule, as node's domainToASCII refuses it.
    func testTheLongestMappingFitsItsRoom() throws {
        XCTAssertEqual(UTS46Tables.shared.longestMappingPerByte, 6)
        for repeats in [1, 2, 7] {
            let name = Array(String(repeating: "\u{FDFA}", count: repeats).utf8)
            guard case .failure(let problem) = processed(name) else { return XCTFail("U+FDFA × \(repeats) accepted") }
            XCTAssertEqual(problem, UTS46.Problem(labelIndex: 0, reason: "breaks the Bidi rule (RFC 5893) for right-to-left labels"))
        }
        XCTAssertThrowsError(try IDNA.domainToASCII("\u{FDFA}.example"))
    }
}
